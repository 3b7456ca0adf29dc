import LivePhotoFormats
import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoWriting

/// One `lpcheck repair`: plans for the items, applied unless a dry run, what stays failing the
/// gate, and the exit status.
public struct RepairRun {
    public var paths: [String] = []
    public var dryRun = false
    public var options = RepairOptions()
    public var settings: RunSettings
    /// Progress (done, total) and its end, for a progress bar; asked only from 50 plans on.
    public var progress: ((Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?

    public init(settings: RunSettings) { self.settings = settings }

    var io: RunIO { settings.io }
    func say(_ line: String) { io.output(line + "\n") }

    public func run() throws {
        try settings.refuseObjects(paths, command: "repair")
        let report = try settings.readableReport(paths)
        settings.removeLeftovers(report, dryRun: dryRun)
        let plans = RepairPlanner.plan(report, options: options)
        var succeeded = Set<String>()
        var failed = 0
        var written = 0
        let showProgress = progress != nil && plans.count >= 50
        for (index, plan) in plans.enumerated() {
            if showProgress { progress?(index + 1, plans.count) }
            say(Self.describe(plan, options: options))
            if dryRun {
                if plan.problems.isEmpty && options.accepts(plan) { succeeded.insert(plan.key) } else { failed += 1 }
                continue
            }
            let outcome = PlanWriter.apply(plan, options: options)
            if let failure = outcome.failure {
                say("  FAILED, nothing written: \(failure.terminalSafe)")
                failed += 1
            } else {
                succeeded.insert(plan.key)
                if !outcome.written.isEmpty { written += 1 }
            }
            for file in outcome.written {
                say("  wrote \(file.path.terminalSafe): \(file.newBytes) new bytes\(file.backup.map { ", original kept as \($0.terminalSafe)" } ?? "")")
                for note in file.notes { say("    note: \(note.terminalSafe)") }
            }
        }
        if showProgress { finishProgress?() }
        // A plan's fixes count when it succeeded and so did every plan it waits for.
        var fixed: [Finding] = []
        for plan in plans where succeeded.contains(plan.key) && plan.settledBy.allSatisfy(succeeded.contains) { fixed += plan.fixes }
        if dryRun { written = plans.filter { succeeded.contains($0.key) && !$0.files.isEmpty }.count }
        // What still fails the gate: every gating finding not fixed by a written (or, dry, writable) plan.
        let threshold = report.failOn.threshold
        let remaining = report.gatingFindings.filter { finding in
            guard let threshold, finding.severity >= threshold else { return false }
            return !fixed.contains(finding)
        }
        let verb = dryRun ? "would repair" : "repaired"
        if plans.isEmpty {
            say("Nothing to repair in \(report.fileCount) files.")
        } else {
            say("\(Plural.count(plans.count, "item")) planned: \(written) \(verb), \(failed) \(dryRun ? "blocked" : "failed or refused").")
        }
        if !options.alignDates, let line = Self.alignDatesWouldFix(report.items.flatMap(\.findings)) { say(line) }
        if !remaining.isEmpty {
            say("\(Plural.count(remaining.count, "finding")) at or above \(report.failOn.rawValue) remain that repair does not fix (lpcheck check lists them).")
        }
        let unreadable = settings.refuseUnreadable(report)
        if dryRun { say("(dry run: nothing written)") }
        if failed > 0 || !remaining.isEmpty || unreadable > 0 { throw RunFailure(status: 1) }
    }

    /// The findings only `--align-dates` fixes, by rule, when there are some: repair leaves
    /// dates alone unless asked (writing them changes what a library shows as the date).
    static func alignDatesWouldFix(_ findings: [Finding]) -> String? {
        var counts: [(rule: String, count: Int)] = []
        for finding in findings where RuleRegistry.fixKind(finding.rule) == .captureTime {
            if let index = counts.firstIndex(where: { $0.rule == finding.rule }) { counts[index].count += 1 } else { counts.append((finding.rule, 1)) }
        }
        guard !counts.isEmpty else { return nil }
        let total = counts.reduce(0) { $0 + $1.count }
        return "\(Plural.count(total, "finding")) that repair --align-dates would fix (\(counts.map { "\($0.rule): \($0.count)" }.joined(separator: ", "))): "
            + "repair leaves capture dates alone unless asked, since writing them changes the date a library shows."
    }

    static func describe(_ plan: ItemPlan, options: RepairOptions) -> String {
        let condition = plan.settledBy.isEmpty ? "" : " (once \(plan.settledBy.map(\.terminalSafe).joined(separator: ", ")) get new identifiers)"
        var fixes = plan.fixes.map { "  fixes \($0.rule)\(condition): \($0.message.terminalSafe)" }
        if plan.files.isEmpty && plan.problems.isEmpty { fixes.append("  nothing to write in these files") }
        return PlanText.describe(plan, force: options.force, fixes: fixes, size: PlanText.newBytesFirst,
                                 leaves: plan.leaves.map { "  leaves \($0.rule) (\($0.severity.rawValue)): \($0.message.terminalSafe)" },
                                 allowLoss: options.allowLoss, allowDamaged: options.allowDamaged)
    }
}
