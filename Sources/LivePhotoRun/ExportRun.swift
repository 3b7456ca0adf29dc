import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

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
        let showProgress = progress != nil && items.count >= 50 && options.form.order == nil && options.form != .gif
        var results: [(plan: ExportPlan, outcome: ExportOutcome?)] = []
        var claimed: [String: String] = [:]
        // Every file the check read is an input: none is an output, whoever's item it is.
        let runInputs = SafeFileWriter.RunInputs((0..<report.items.count).flatMap { report.items[$0].files.map(\.path) })
        for (index, item) in items.enumerated() {
            var plan = Exporter.plan(item, options: options, folder: output)
            let inputs = item.files.map(\.path).joined(separator: " + ")
            if let refused = runInputs.refusal(plan.destination) {
                plan.problems.append(refused)
            } else if let owner = claimed[plan.destination] {
                plan.problems.append("\(plan.destination) is written by another input of this run (\(owner)); export this one into another folder")
            } else if plan.problems.isEmpty {
                claimed[plan.destination] = inputs
            }
            let outcome = dryRun ? nil : plan.gif != nil ? applyGIF(plan) : plan.retimed == nil ? Exporter.apply(plan, force: options.force) : applyRetimed(plan)
            results.append((plan, outcome))
            if !json { io.output(Self.describe(plan, outcome: outcome) + "\n") }
            if showProgress { progress?(index + 1, items.count) }
        }
        if showProgress { finishProgress?() }
        let unreadable = settings.refuseUnreadable(report)
        let failed = results.filter { ["failed", "blocked"].contains(Self.status($0.plan, $0.outcome)) }.count
        if json {
            io.output(Self.document(results, options: options, dryRun: dryRun, version: settings.version).serialized() + "\n")
        } else {
            io.output("\(items.count) Live Photo pair(s) and motion photo(s) found in \(report.fileCount) files: \(results.count - failed) \(dryRun ? "would be exported" : "exported"), \(failed) \(dryRun ? "blocked" : "failed or refused").\n")
            if unreadable > 0 { io.output("\(unreadable) file(s) not read (above): nothing exported from them.\n") }
            if dryRun { io.output("(dry run: nothing written)\n") }
        }
        if failed > 0 || unreadable > 0 { throw RunFailure(status: 1) }
    }

    /// A re-timed export: the codec helper decodes and encodes, its samples written into the
    /// writer's temporary as they come (`Exporter.apply(_:force:producing:)` reads it back).
    func applyRetimed(_ plan: ExportPlan) -> ExportOutcome {
        guard let retimed = plan.retimed, let order = options.form.order else { return Exporter.apply(plan, force: options.force) }
        var arguments = ["frames", plan.source, order.rawValue, retimed.codec, "--max-frames", String(Self.maxFrames)]
        if let range = plan.range { arguments += ["--window", String(range.lowerBound), String(range.count)] }
        let outcome = Exporter.apply(plan, force: options.force) { file in
            _ = try CodecHelper.encodedMovie(arguments, budget: options.budget, into: file, turn: retimed.matrix, container: options.container, progress: progress)
        }
        finishProgress?()
        return outcome
    }

    /// A GIF: the codec helper decodes, maps and writes the GIF's bytes into the writer's
    /// temporary as they come (`Exporter.apply(_:force:producing:)` reads it back).
    func applyGIF(_ plan: ExportPlan) -> ExportOutcome {
        guard let gif = plan.gif else { return Exporter.apply(plan, force: options.force) }
        var arguments = ["movie-gif", plan.source, String(gif.width), "--opening", String(gif.opening), "--dither", gif.dither.rawValue, "--palette", gif.palette.rawValue,
                         "--max-frames", String(Self.maxFrames)]
        if let rate = gif.rate { arguments += ["--fps", String(rate)] }
        if let range = plan.range { arguments += ["--window", String(range.lowerBound), String(range.count)] }
        let outcome = Exporter.apply(plan, force: options.force) { file in
            try CodecHelper.run(arguments, budget: options.budget, progress: progress, cap: options.budget.outputBytes) { try file.append($0) }
        }
        finishProgress?()
        return outcome
    }

    /// The most frames a re-timed export decodes and encodes.
    static let maxFrames = CodecLimits.maxFrames

    /// exported, would-export, blocked (a problem found while planning), failed.
    static func status(_ plan: ExportPlan, _ outcome: ExportOutcome?) -> String {
        guard let outcome else { return plan.problems.isEmpty ? "would-export" : "blocked" }
        return outcome.failure == nil ? "exported" : plan.problems.isEmpty ? "failed" : "blocked"
    }

    static func describe(_ plan: ExportPlan, outcome: ExportOutcome?) -> String {
        var lines = ["\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ")]
        if plan.problems.isEmpty {
            let size = plan.made.map { " (\($0.patch.outputSize) bytes, \($0.patch.newBytes) of them new)" } ?? " (encoded)"
            lines.append("  → \(plan.destination.terminalSafe)\(size)")
            lines += plan.notes.map { "    \($0.terminalSafe)" }
        } else {
            lines += plan.problems.map { "  cannot export: \($0.terminalSafe)" }
        }
        if let failure = outcome?.failure, plan.problems.isEmpty { lines.append("  FAILED, nothing written: \(failure.terminalSafe)") }
        if let written = outcome?.written { lines.append("  wrote \(written.terminalSafe)") }
        return lines.joined(separator: "\n")
    }

    static func document(_ results: [(plan: ExportPlan, outcome: ExportOutcome?)], options: ExportOptions, dryRun: Bool, version: String) -> JSONValue {
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
                .object([
                    ("kind", .string(result.plan.item.kind.rawValue)),
                    ("inputs", .array(result.plan.item.files.map { .string($0.path) })),
                    ("status", .string(status(result.plan, result.outcome))),
                    ("output", .optional(result.plan.problems.isEmpty ? result.plan.destination : nil)),
                    ("bytes", result.plan.made.map { .int($0.patch.outputSize) } ?? .null),
                    ("seconds", result.plan.made.map { .double($0.seconds) } ?? result.plan.retimed.map { .double($0.seconds) } ?? result.plan.gif.map { .double($0.seconds) } ?? .null),
                    ("frames", result.plan.retimed.map { .int(Int64($0.sequence.count)) } ?? result.plan.gif.map { .int(Int64($0.timeline.entries.count)) } ?? .null),
                    ("notes", .array(result.plan.notes.map(JSONValue.string))),
                    ("problems", .array(result.plan.problems.map(JSONValue.string))),
                    ("failure", .optional(result.plan.problems.isEmpty ? result.outcome?.failure : nil)),
                ])
            })),
        ])
    }
}
