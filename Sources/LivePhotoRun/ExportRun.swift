import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

/// One `lpcheck export`: every Live Photo pair and motion photo found, its movie exported as
/// planned (unless a dry run), the plans and outcomes as text or JSON, and the exit status.
public struct ExportRun {
    public var paths: [String] = []
    public var options: ExportOptions
    public var output: String
    public var dryRun = false
    public var json = false
    public var settings: RunSettings
    /// Progress (done, total) and its end, for a progress bar: items from 50 on, or a
    /// re-encoding form's frames.
    public var progress: (@Sendable (Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?

    public init(options: ExportOptions, output: String, settings: RunSettings) {
        (self.options, self.output, self.settings) = (options, output, settings)
    }

    var io: RunIO { settings.io }

    public func run() throws {
        try settings.refuseObjects(paths, command: "export")
        let report = try settings.readableReport(paths)
        if !dryRun { try OutputFolder.make(output, io: io) }
        settings.removeLeftovers(report, folders: [output], dryRun: dryRun, json: json)
        let items = report.items.filter(Exporter.exports)
        // A re-encoding form shows each item's frames; the others, items from 50 on.
        let encodes = options.form.order != nil || options.form == .gif
        let showProgress = progress != nil && items.count >= 50 && !encodes
        var applying = RepairOptions()
        (applying.force, applying.keepCredentials) = (options.force, options.keepCredentials)
        (applying.allowLoss, applying.allowDamaged) = (options.allowLoss, options.allowDamaged)
        let frames = encodes ? progress : nil
        let apply: (ItemPlan) -> ItemOutcome = { plan in
            let outcome = PlanWriter.apply(plan, options: applying, progress: frames)
            if encodes { finishProgress?() }
            return outcome
        }
        let itemProgress: ((Int, Int) -> Void)? = showProgress ? progress.map { report in { report($0, $1) } } : nil
        var loop = PlanLoop(command: .export, dryRun: dryRun, force: options.force)
        loop.options = applying
        // The plan is said before the work (a bounce re-encodes for minutes), what became of it after.
        let results: [PlanLoop.Result] = loop.run(items, report: report, plan: { Exporter.plan($0, options: options, folder: output) }, apply: apply,
                                                  planned: { plan in
                                                      guard !json else { return }
                                                      io.output(Self.describe(plan, outcome: nil) + "\n")
                                                      io.flush()
                                                  },
                                                  told: { result in
                                                      let lines = Self.outcomeLines(result.plan, outcome: result.outcome)
                                                      if !json && !lines.isEmpty { io.output(lines.joined(separator: "\n") + "\n") }
                                                  },
                                                  progress: itemProgress)
        if showProgress { finishProgress?() }
        let unreadable = settings.refuseUnreadable(report)
        let failed = results.filter { $0.status == .failed || $0.status == .blocked }.count
        if json {
            io.output(Self.document(results, options: options, dryRun: dryRun, version: settings.version).serialized() + "\n")
        } else {
            io.output("\(Plural.count(items.count, "item")) to export (Live Photo pairs and motion photos) found in \(Plural.count(report.fileCount, "file")): \(results.count - failed) \(dryRun ? "would be exported" : "exported"), \(failed) \(dryRun ? "blocked" : "failed or refused").\n")
            if unreadable > 0 { io.output("\(Plural.count(unreadable, "file")) not read (above): nothing exported from them.\n") }
            if dryRun { io.output("(dry run: nothing written)\n") }
        }
        if failed > 0 || unreadable > 0 { throw RunFailure(status: 1) }
    }

    static func describe(_ plan: ItemPlan, outcome: ItemOutcome?) -> String {
        var lines = ["\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ")]
        if plan.problems.isEmpty, let file = plan.files.first {
            lines.append("  → \(file.destination.terminalSafe) (\(PlanText.sizeFirst(file)))")
            lines += plan.reasons.map { "    \($0.terminalSafe)" }
            if let lost = file.credentialsLost { lines.append("    CONTENT CREDENTIALS: \(lost.terminalSafe) (--keep-credentials refuses this)") }
        } else {
            lines += plan.problems.map { "  cannot export: \($0.terminalSafe)" }
        }
        lines += outcomeLines(plan, outcome: outcome)
        return lines.joined(separator: "\n")
    }

    /// What became of a plan: failed, or the files written.
    static func outcomeLines(_ plan: ItemPlan, outcome: ItemOutcome?) -> [String] {
        var lines: [String] = []
        if let failure = outcome?.failure, plan.problems.isEmpty { lines.append("  FAILED, nothing written: \(failure.terminalSafe)") }
        lines += (outcome?.written ?? []).map { "  wrote \($0.path.terminalSafe)" }
        return lines
    }

    static func document(_ results: [PlanLoop.Result], options: ExportOptions, dryRun: Bool, version: String) -> JSONValue {
        .object([
            ("tool", .string("lpcheck")), ("version", .string(version)),
            ("as", .string(options.form.rawValue)), ("count", .int(Int64(options.form == .movie ? 1 : options.count))),
            ("start", .string(options.start.rawValue)), ("dryRun", .bool(dryRun)),
            ("width", options.form == .gif ? .int(Int64(options.width)) : .null),
            ("fps", options.form == .gif ? options.rate.map { .int(Int64($0)) } ?? .null : .null),
            ("dither", options.form == .gif ? .string(options.dither.rawValue) : .null),
            ("palette", options.form == .gif ? .string(options.palette.rawValue) : .null),
            ("container", options.form == .gif ? .null : .string(options.container.rawValue)),
            ("audio", .string(options.keepsSound && options.form.order == nil && options.form != .gif ? "keep" : "drop")),
            ("items", .array(results.map { result in
                let file = result.plan.files.first
                return .object([
                    ("kind", .string(result.plan.item.kind.rawValue)),
                    ("inputs", .array(result.plan.item.files.map { .string($0.path) })),
                    ("status", .string(result.status.word(.export))),
                    ("output", .optional(result.plan.problems.isEmpty ? file?.destination : nil)),
                    ("bytes", file?.patch.map { .int($0.outputSize) } ?? .null),
                    ("seconds", file?.seconds.map { .double($0) } ?? .null),
                    ("frames", file?.frames.map { .int(Int64($0)) } ?? .null),
                    ("notes", .array(result.plan.reasons.map(JSONValue.string))),
                    ("problems", .array(result.plan.problems.map(JSONValue.string))),
                    ("failure", .optional(result.plan.problems.isEmpty ? result.outcome?.failure : nil)),
                    ("credentialsLost", .optional(file?.credentialsLost)),
                ])
            })),
        ])
    }
}
