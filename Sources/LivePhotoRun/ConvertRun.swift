import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoRepair

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
        var results: [(plan: ItemPlan, outcome: ItemOutcome?)] = []
        // Same-named inputs from different folders would land on one output: the first keeps
        // it, even with --force (which replaces files from before this run, not this run's own).
        var claimed: [String: String] = [:]
        // Every file the check read is an input: none is an output, whoever's item it is.
        let runInputs = SafeFileWriter.RunInputs((0..<report.items.count).flatMap { report.items[$0].files.map(\.path) })
        for (index, item) in items.enumerated() {
            var plan = Converter.plan(item, to: target, folder: output, options: options)
            let inputs = item.files.map(\.path).joined(separator: " + ")
            for file in plan.files {
                if let refused = runInputs.refusal(file.destination) {
                    plan.problems.append(refused)
                } else if let owner = claimed[file.destination] {
                    plan.problems.append("\(file.destination) is written by another input of this run (\(owner)); convert this one into another folder")
                }
            }
            if plan.problems.isEmpty { for file in plan.files { claimed[file.destination] = inputs } } else { plan.files = [] }
            let outcome = dryRun ? nil : PlanWriter.apply(plan, options: options)
            results.append((plan, outcome))
            if !json { io.output(Self.describe(plan, outcome: outcome, force: options.force) + "\n") }
            if showProgress { progress?(index + 1, items.count) }
        }
        if showProgress { finishProgress?() }
        let unreadable = settings.refuseUnreadable(report)
        let failed = results.filter { ["failed", "blocked"].contains(Self.status($0.plan, $0.outcome, force: options.force)) }.count
        if json {
            io.output(Self.document(results, target: target, dryRun: dryRun, force: options.force, version: settings.version).serialized() + "\n")
        } else {
            let verb = dryRun ? "would convert" : "converted"
            let kind = target == .livePhoto ? "motion photo(s) and .livp pair(s)" : "Live Photo pair(s)"
            io.output("\(items.count) \(kind) found in \(report.fileCount) files: \(results.count - failed) \(verb), \(failed) \(dryRun ? "blocked" : "failed or refused").\n")
            if unreadable > 0 { io.output("\(unreadable) file(s) not read (above): nothing converted from them.\n") }
            if dryRun { io.output("(dry run: nothing written)\n") }
        }
        if failed > 0 || unreadable > 0 { throw RunFailure(status: 1) }
    }

    /// converted, would-convert, blocked (dry run: a problem or a loss without --force), failed.
    static func status(_ plan: ItemPlan, _ outcome: ItemOutcome?, force: Bool) -> String {
        guard let outcome else { return plan.problems.isEmpty && (!plan.needsForce || force) ? "would-convert" : "blocked" }
        return outcome.failure == nil ? "converted" : "failed"
    }

    static func describe(_ plan: ItemPlan, outcome: ItemOutcome?, force: Bool) -> String {
        var after = outcome?.failure.map { ["  FAILED, nothing written: \($0.terminalSafe)"] } ?? []
        after += (outcome?.written ?? []).map { "  wrote \($0.path.terminalSafe)" }
        return PlanText.describe(plan, force: force, size: { "\($0.patch.outputSize) bytes, \($0.patch.newBytes) of them new" }, after: after)
    }

    static func document(_ results: [(plan: ItemPlan, outcome: ItemOutcome?)], target: ConversionTarget, dryRun: Bool, force: Bool, version: String) -> JSONValue {
        .object([
            ("tool", .string("lpcheck")), ("version", .string(version)),
            ("to", .string(target.rawValue)), ("dryRun", .bool(dryRun)),
            ("items", .array(results.map { result in
                .object([
                    ("kind", .string(result.plan.item.kind.rawValue)),
                    ("inputs", .array(result.plan.item.files.map { .string($0.path) })),
                    ("status", .string(status(result.plan, result.outcome, force: force))),
                    ("identifier", .optional(result.plan.edits.identifier ?? result.plan.files.first?.identifier)),
                    ("outputs", PlanText.outputsJSON(result.plan.files)),
                    ("reasons", .array(result.plan.reasons.map(JSONValue.string))),
                    ("losses", .array(result.plan.losses.map(JSONValue.string))),
                    ("damage", .array(result.plan.damage.map(JSONValue.string))),
                    ("problems", .array(result.plan.problems.map(JSONValue.string))),
                    ("failure", .optional(result.outcome?.failure)),
                ])
            })),
        ])
    }
}
