import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoRepair

extension Configuration.FailLevel: ExpressibleByArgument {
    // Spelled out: ArgumentParser's default describes each case through `String(describing:)`,
    // whose first protocol-conformance lookups cost about 1.4M instructions at every start.
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// Options shared by `check` and `repair`: the configuration file (default `./.lpcheck.yml`
/// when present), a baseline, and the gate. Both commands load them the same way.
struct ConfigurationOptions: ParsableArguments {
    @Option(help: "Configuration file (default: ./.lpcheck.yml when present).")
    var config: String?

    @Option(help: "An earlier JSON report: its findings are accepted, so only new ones fail (and repair leaves them alone).")
    var baseline: String?

    @Option(help: "Fail (exit 1) on findings at or above: error, warning, info, never. Default: the config's failOn, else error.")
    var failOn: Configuration.FailLevel?

    /// A checker over `paths` with the configuration and baseline loaded; exit 2 on a bad file.
    func checker(_ paths: [String]) throws -> Checker {
        var checker = Checker(roots: paths)
        do {
            if let config {
                checker.configuration = try Configuration.load(path: config)
            } else if FileManager.default.fileExists(atPath: Configuration.fileName) {
                checker.configuration = try Configuration.load(path: Configuration.fileName)
            }
            if let baseline { checker.baseline = try CheckJSON.baseline(path: baseline) }
        } catch {
            printError("lpcheck: \(error)")
            throw ExitCode(2)
        }
        if let failOn { checker.configuration.failOn = failOn }
        return checker
    }

    /// The check report over `paths` that repair and convert act on; exit 2 when nothing is readable.
    func readableReport(_ paths: [String]) throws -> CheckReport {
        var checker = try checker(paths)
        checker.version = LPCheck.configuration.version
        let report = checker.run()
        guard report.count(.unreadable) < report.items.count else {
            printError("lpcheck: nothing readable in \(paths.joined(separator: ", "))")
            throw ExitCode(2)
        }
        return report
    }

    /// Removes (or, with `dryRun`, names) lpcheck's temporary files left by interrupted writes
    /// of processes that have ended: those the walk found, and those in `folders`. Says so for
    /// each, on standard error when standard output carries a JSON document.
    static func removeLeftovers(_ report: CheckReport, folders: Set<String> = [], dryRun: Bool, json: Bool = false) {
        let found = report.leftOut.map(\.path)
        let stale = dryRun ? StaleTemporaries.find(paths: found, folders: folders) : StaleTemporaries.remove(paths: found, folders: folders)
        for path in stale {
            let line = "\(dryRun ? "would remove" : "removed") \(path.terminalSafe): lpcheck's temporary file from an interrupted write (its process has ended)"
            if json { printError("lpcheck: " + line) } else { print(line) }
        }
    }

    /// Says on standard error, for each file of the report that could not be read, what the
    /// reader refused and where: the writers write nothing from it. Returns how many.
    static func refuseUnreadable(_ report: CheckReport) -> Int {
        var count = 0
        for item in report.items where item.kind == .unreadable {
            for file in item.files {
                guard let error = file.error else { continue }
                printError("lpcheck: \(file.path.terminalSafe): not read, nothing written from it: \(error.description.terminalSafe)")
                count += 1
            }
        }
        return count
    }
}
