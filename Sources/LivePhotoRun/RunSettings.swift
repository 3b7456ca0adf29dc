import Foundation
import LivePhotoCheck
import LivePhotoRecords
import LivePhotoReports
import LivePhotoWriting

/// The settings every command that checks shares: the configuration file (default
/// `./.lpcheck.yml` when present), a baseline, and the gate; and the checks repair and convert
/// act on, made the way `check` makes its report.
public struct RunSettings: Sendable {
    public var config: String?
    public var baseline: String?
    public var failOn: Configuration.FailLevel?
    /// `--expect`: what every item should be (over the configuration's `expect`).
    public var expect: Expectation?
    /// `--profile`: the target the check is for (over the configuration's `profile`).
    public var profile: Target?
    public var version: String
    public var io: RunIO
    /// How `s3://` paths are reached (check and scan).
    public var objectStoreOptions = ObjectStoreOptions()
    /// `--exclude` patterns, added to the configuration's; `--include` patterns.
    public var exclude: [String] = [], include: [String] = []

    public init(config: String?, baseline: String?, failOn: Configuration.FailLevel?, version: String, io: RunIO) {
        (self.config, self.baseline, self.failOn, self.version, self.io) = (config, baseline, failOn, version, io)
    }

    /// A checker over `paths` with the configuration and baseline loaded; status 2 on a bad file.
    public func checker(_ paths: [String]) throws -> Checker {
        var checker = Checker(roots: paths)
        do {
            if let config {
                checker.configuration = try Configuration.load(path: config)
            } else if FileManager.default.fileExists(atPath: Configuration.fileName) {
                checker.configuration = try Configuration.load(path: Configuration.fileName)
            }
            if let baseline { checker.baseline = try BaselineReader.read(path: baseline) }
        } catch {
            io.error("lpcheck: \(error)")
            throw RunFailure(status: 2)
        }
        if let failOn { checker.configuration.failOn = failOn }
        checker.configuration.exclude += exclude
        checker.configuration.include += include
        if let expect { checker.configuration.context.expect = expect }
        if let contradiction = checker.configuration.contradiction {
            io.error("lpcheck: \(contradiction)")
            throw RunFailure(status: 2)
        }
        if let profile { checker.configuration.profile = profile }
        checker.version = version
        return checker
    }

    /// The check report over `paths` that repair and convert act on; status 2 when nothing is readable.
    public func readableReport(_ paths: [String]) throws -> CheckReport {
        let report = try checker(paths).run()
        guard report.count(.unreadable) < report.items.count else {
            io.error("lpcheck: nothing readable in \(paths.joined(separator: ", "))")
            throw RunFailure(status: 2)
        }
        return report
    }

    /// Removes (or, with `dryRun`, names) lpcheck's temporary files left by interrupted writes
    /// of processes that have ended: those the walk found, and those in `folders`. Says so for
    /// each, on standard error when standard output carries a JSON document.
    public func removeLeftovers(_ report: CheckReport, folders: Set<String> = [], dryRun: Bool, json: Bool = false) {
        let found = report.leftOut.map(\.path)
        let stale = dryRun ? StaleTemporaries.find(paths: found, folders: folders) : StaleTemporaries.remove(paths: found, folders: folders)
        for path in stale {
            let line = "\(dryRun ? "would remove" : "removed") \(path.terminalSafe): lpcheck's temporary file from an interrupted write (its process has ended)"
            if json { io.error("lpcheck: " + line) } else { io.output(line + "\n") }
        }
    }

    /// Says on standard error, for each file of the report that could not be read, what the
    /// reader refused and where: the writers write nothing from it. Returns how many.
    public func refuseUnreadable(_ report: CheckReport) -> Int {
        var count = 0
        for item in report.items where item.kind == .unreadable {
            for file in item.files {
                guard let error = file.error else { continue }
                io.error("lpcheck: \(file.path.terminalSafe): not read, nothing written from it: \(error.description.terminalSafe)")
                count += 1
            }
        }
        return count
    }
}
