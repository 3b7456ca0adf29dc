import LivePhotoFormats
import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoWriting

/// One `lpcheck convert`: the items to convert, a plan for each, applied unless a dry run, the
/// plans and outcomes as text or JSON, and the exit status.
public struct ConvertRun {
    public var paths: [String] = []
    public var target: ConversionTarget
    public var output: String
    public var dryRun = false
    public var json = false
    public var options = RepairOptions()
    public var settings: RunSettings
    /// Progress (done, total) and its end, for a progress bar; asked only from 50 items on.
    public var progress: ((Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?

    public init(target: ConversionTarget, output: String, settings: RunSettings) {
        (self.target, self.output, self.settings) = (target, output, settings)
    }

    var io: RunIO { settings.io }

    public func run() throws {
        try settings.refuseObjects(paths, command: "convert")
        let report = try settings.readableReport(paths)
        if !dryRun { try OutputFolder.make(output, io: io) }
        settings.removeLeftovers(report, folders: [output], dryRun: dryRun, json: json)
        let items = report.items.filter { target.converts($0) }
        let showProgress = progress != nil && items.count >= 50
        var loop = PlanLoop(command: .convert, dryRun: dryRun, force: options.force)
        loop.options = options
        let results = loop.run(items, report: report, plan: { Converter.plan($0, to: target, folder: output, options: options) },
                               apply: { PlanWriter.apply($0, options: options) },
                               told: { if !json { io.output($0.text(options) + "\n") } },
                               progress: showProgress ? progress : nil)
        if showProgress { finishProgress?() }
        let unreadable = settings.refuseUnreadable(report)
        let failed = results.filter { $0.status == .failed || $0.status == .blocked }.count
        if json {
            io.output(Self.document(results, target: target, dryRun: dryRun, version: settings.version).serialized() + "\n")
        } else {
            let verb = dryRun ? "would convert" : "converted"
            let kind = target == .livePhoto ? "motion photos and .livp pairs" : "Live Photo pairs"
            io.output("\(Plural.count(items.count, "item")) to convert (\(kind)) found in \(Plural.count(report.fileCount, "file")): \(results.count - failed) \(verb), \(failed) \(dryRun ? "blocked" : "failed or refused").\n")
            if unreadable > 0 { io.output("\(Plural.count(unreadable, "file")) not read (above): nothing converted from them.\n") }
            if dryRun { io.output("(dry run: nothing written)\n") }
        }
        if failed > 0 || unreadable > 0 { throw RunFailure(status: 1) }
    }

    static func document(_ results: [PlanLoop.Result], target: ConversionTarget, dryRun: Bool, version: String) -> JSONValue {
        .object([
            ("tool", .string("lpcheck")), ("version", .string(version)),
            ("to", .string(target.rawValue)), ("dryRun", .bool(dryRun)),
            ("items", .array(results.map { result in
                result.json(.convert, extra: [("identifier", .optional(result.plan.edits.identifier ?? result.plan.files.first?.identifier))])
            })),
        ])
    }
}
