import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

/// Options shared by repair and make: where the still goes in the movie.
struct PlacementOptions: ParsableArguments {
    @Option(help: "Place the still at this time in the movie (seconds); moves a valid moment too.")
    var time: Double?

    @Option(help: "Place the still on this video frame (0-based); moves a valid moment too.")
    var frame: Int?

    func validate() throws {
        if time != nil && frame != nil { throw ValidationError("give --time or --frame, not both") }
        if let time, !(time >= 0) { throw ValidationError("--time must be a number of seconds, 0 or more") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more") }
    }
}

extension IdentifierPreference: ExpressibleByArgument {}

struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Fix what the fixable rules find, without re-encoding, never making the library worse; prints the plan first.",
        discussion: """
        Works per identifier group: the identifier stays on every pair that works and on the \
        camera original; only files in a true conflict get a new (deterministic) identifier; \
        variants and duplicates are never touched. Acts on errors and warnings (--include-info \
        for info findings too). A rewritten still-image-time track keeps the old track's keys and \
        values; a plan that would lose something (keys, the link between hard-linked names) says \
        what and waits for --force.

        Each file is written to a temporary file beside it, fsynced, read back and re-checked, then \
        renamed over the original, keeping owner, group, mode, extended attributes and times \
        (--update-times to set the times to now); the original is kept in .lpcheck-backup/ beside \
        it unless --no-backup. A file that changes meanwhile is left alone. The dry run prints \
        exactly what the real run writes.

        Exit status: 0 nothing at or above --fail-on remains and every planned repair was written \
        (or, with --dry-run, could be); 1 a repair failed or was refused, or findings at or above \
        --fail-on remain that repair does not fix, or a file could not be read (each named on \
        standard error with the reader's reason and byte offset); 2 bad usage, a bad \
        configuration, or nothing readable.
        """
    )

    @Argument(help: "Folders and files to repair.")
    var paths: [String]

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(help: "Which identifier wins when still and movie disagree: still, movie or new (default: still, else movie, else new).")
    var prefer: IdentifierPreference = .still

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Also act on info findings (such as missing-cdsc-reference).")
    var includeInfo = false

    @Flag(help: "Apply plans that lose something (the plan names it).")
    var force = false

    @Flag(help: "Do not keep the originals in .lpcheck-backup/.")
    var noBackup = false

    @Flag(help: "Set the repaired files' times to now instead of keeping the originals'.")
    var updateTimes = false

    @Flag(help: "Do not show a progress bar.")
    var noProgress = false

    @OptionGroup var settings: ConfigurationOptions

    func run() throws {
        let report = try settings.readableReport(paths)
        var options = RepairOptions()
        options.prefer = prefer
        options.time = placement.time
        options.frame = placement.frame
        options.backup = !noBackup
        options.includeInfo = includeInfo
        options.force = force
        options.keepTimes = !updateTimes
        ConfigurationOptions.removeLeftovers(report, dryRun: dryRun)
        let plans = RepairPlanner.plan(report, options: options)
        var succeeded = Set<String>()
        var failed = 0
        var written = 0
        let showProgress = !noProgress && isatty(2) == 1 && plans.count >= 50
        for (index, plan) in plans.enumerated() {
            if showProgress { ProgressBar.update(index + 1, plans.count) }
            print(Self.describe(plan, force: force))
            if dryRun {
                if plan.problems.isEmpty && (!plan.needsForce || force) { succeeded.insert(plan.key) } else { failed += 1 }
                continue
            }
            let outcome = Repairer.apply(plan, options: options)
            if let failure = outcome.failure {
                print("  FAILED, nothing written: \(failure.terminalSafe)")
                failed += 1
            } else {
                succeeded.insert(plan.key)
                if !outcome.written.isEmpty { written += 1 }
            }
            for file in outcome.written {
                print("  wrote \(file.path.terminalSafe): \(file.newBytes) new bytes\(file.backup.map { ", original kept as \($0.terminalSafe)" } ?? "")")
                for note in file.notes { print("    note: \(note.terminalSafe)") }
            }
        }
        if showProgress { ProgressBar.finish() }
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
            print("Nothing to repair in \(report.fileCount) files.")
        } else {
            print("\(plans.count) item(s) planned: \(written) \(verb), \(failed) \(dryRun ? "blocked" : "failed or refused").")
        }
        if !remaining.isEmpty {
            print("\(remaining.count) finding(s) at or above \(report.failOn.rawValue) remain that repair does not fix (lpcheck check lists them).")
        }
        let unreadable = ConfigurationOptions.refuseUnreadable(report)
        if dryRun { print("(dry run: nothing written)") }
        if failed > 0 || !remaining.isEmpty || unreadable > 0 { throw ExitCode(1) }
    }

    static func describe(_ plan: ItemPlan, force: Bool) -> String {
        var out = "\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ") + "\n"
        for reason in plan.reasons { out += "  because: \(reason.terminalSafe)\n" }
        let condition = plan.settledBy.isEmpty ? "" : " (once \(plan.settledBy.map(\.terminalSafe).joined(separator: ", ")) get new identifiers)"
        for finding in plan.fixes { out += "  fixes \(finding.rule)\(condition): \(finding.message.terminalSafe)\n" }
        if plan.files.isEmpty && plan.problems.isEmpty { out += "  nothing to write in these files\n" }
        for file in plan.files {
            out += "  \(file.destination.terminalSafe): \(file.patch.newBytes) new bytes, \(file.patch.outputSize) in all\n"
            for note in file.patch.notes { out += "    - \(note.terminalSafe)\n" }
        }
        for damage in plan.damage { out += "  DAMAGED INPUT: \(damage.terminalSafe)\(force ? "" : " (needs --force)")\n" }
        for loss in plan.losses { out += "  LOSES: \(loss.terminalSafe)\(force ? "" : " (needs --force)")\n" }
        for finding in plan.leaves { out += "  leaves \(finding.rule) (\(finding.severity.rawValue)): \(finding.message.terminalSafe)\n" }
        for problem in plan.problems { out += "  cannot: \(problem.terminalSafe)\n" }
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }
}
