import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

/// One `lpcheck strip`: every motion photo and Live Photo found made a plain photo in the
/// output folder (unless a dry run), the plans and outcomes as text or JSON, and the exit status.
public struct StripRun {
    public var paths: [String] = []
    public var options: StripOptions
    public var output: String
    public var dryRun = false
    public var json = false
    public var settings: RunSettings
    /// Progress (done, total) and its end, for a progress bar: items from 50 on.
    public var progress: (@Sendable (Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?

    public init(options: StripOptions, output: String, settings: RunSettings) {
        (self.options, self.output, self.settings) = (options, output, settings)
    }

    var io: RunIO { settings.io }

    public func run() throws {
        try settings.refuseObjects(paths, command: "strip")
        let report = try settings.readableReport(paths)
        if !dryRun { try OutputFolder.make(output, io: io) }
        settings.removeLeftovers(report, folders: [output], dryRun: dryRun, json: json)
        let items = report.items.filter(Stripper.strips)
        let showProgress = progress != nil && items.count >= 50
        var applying = RepairOptions()
        (applying.force, applying.keepCredentials) = (options.force, options.keepCredentials)
        (applying.allowLoss, applying.allowDamaged) = (options.allowLoss, options.allowDamaged)
        let itemProgress: ((Int, Int) -> Void)? = showProgress ? progress.map { report in { report($0, $1) } } : nil
        var loop = PlanLoop(command: .strip, dryRun: dryRun, force: options.force)
        loop.options = applying
        let results = loop.run(items, report: report, plan: { Stripper.plan($0, options: options, folder: output) },
                               apply: { PlanWriter.apply($0, options: applying) },
                               told: { if !json { io.output($0.text(applying) + "\n") } }, progress: itemProgress)
        if showProgress { finishProgress?() }
        let unreadable = settings.refuseUnreadable(report)
        let failed = results.filter { $0.status == .failed || $0.status == .blocked }.count
        if json {
            io.output(Self.document(results, options: options, dryRun: dryRun, version: settings.version).serialized() + "\n")
        } else {
            io.output("\(Plural.count(items.count, "item")) to strip (motion photos and Live Photos) found in \(Plural.count(report.fileCount, "file")): \(results.count - failed) \(dryRun ? "would be stripped" : "stripped"), \(failed) \(dryRun ? "blocked" : "failed or refused").\n")
            if unreadable > 0 { io.output("\(Plural.count(unreadable, "file")) not read (above): nothing stripped from them.\n") }
            if dryRun { io.output("(dry run: nothing written)\n") }
        }
        if failed > 0 || unreadable > 0 { throw RunFailure(status: 1) }
    }

    /// The same item fields as convert's JSON (Reports/strip.schema.json): each output with its
    /// ledger, whose `dropped` is what left the file.
    static func document(_ results: [PlanLoop.Result], options: StripOptions, dryRun: Bool, version: String) -> JSONValue {
        .object([
            ("tool", .string("lpcheck")), ("version", .string(version)), ("dryRun", .bool(dryRun)), ("keepMovie", .bool(options.keepMovie)),
            ("items", .array(results.map { $0.json(.strip) })),
        ])
    }
}
