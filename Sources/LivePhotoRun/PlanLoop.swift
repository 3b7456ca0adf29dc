import LivePhotoCheck
import LivePhotoReports
import LivePhotoWriting

/// What became of one item's plan in a run that writes one plan an item (convert, export).
enum PlanStatus {
    /// Written.
    case done
    /// A dry run: it would be written.
    case would
    /// A problem found while planning, or (a dry run) a loss or damage not accepted.
    case blocked
    /// Writing or reading back failed; nothing was left.
    case failed

    /// Its word in the command's JSON (`converted`, `would-convert`, `blocked`, `failed`).
    func word(_ command: PlanLoop.Command) -> String {
        switch self {
        case .done: return command.done
        case .would: return "would-" + command.rawValue
        case .blocked: return "blocked"
        case .failed: return "failed"
        }
    }

    init(_ plan: ItemPlan, _ outcome: ItemOutcome?, accepted: Bool) {
        guard let outcome else {
            self = plan.problems.isEmpty && accepted ? .would : .blocked
            return
        }
        self = outcome.failure == nil ? .done : plan.problems.isEmpty ? .failed : .blocked
    }
}

/// The one loop of convert, export and strip: each item planned, its destinations claimed (no
/// input of the run is an output, no two items write one file), applied through `PlanWriter`
/// unless a dry run, and described as it goes.
struct PlanLoop {
    enum Command: String {
        case convert, export, strip
        var done: String { self == .strip ? "stripped" : rawValue + "ed" }
    }

    struct Result {
        var plan: ItemPlan
        var outcome: ItemOutcome?
        var status: PlanStatus
    }

    var command: Command
    var dryRun: Bool
    var force: Bool
    /// What the run accepts of a plan's losses and damage (--allow-loss, --allow-damaged, --force).
    var options = RepairOptions()

    /// `plan` makes an item's plan, `apply` writes it, `told` hears each result as it comes;
    /// `progress` hears (done, total) after each item.
    /// `planned` hears each plan before it is applied (a re-encoding export says what it will do
    /// before the minutes it takes); `told` hears what became of it.
    func run(_ items: [CheckItem], report: CheckReport, plan: (CheckItem) -> ItemPlan, apply: (ItemPlan) -> ItemOutcome,
             planned announce: ((ItemPlan) -> Void)? = nil, told: (Result) -> Void, progress: ((Int, Int) -> Void)?) -> [Result] {
        var results: [Result] = []
        // Same-named inputs from different folders would land on one output: the first keeps
        // it, even with --force (which replaces files from before this run, not this run's own).
        var claimed: [String: String] = [:]
        // Every file the check read is an input: none is an output, whoever's item it is.
        let runInputs = SafeFileWriter.RunInputs((0..<report.items.count).flatMap { report.items[$0].files.map(\.path) })
        for (index, item) in items.enumerated() {
            var planned = plan(item)
            let inputs = item.files.map(\.path).joined(separator: " + ")
            for file in planned.files {
                if let refused = runInputs.refusal(file.destination) {
                    planned.problems.append(refused)
                } else if let owner = claimed[file.destination] {
                    planned.problems.append("\(file.destination) is written by another input of this run (\(owner)); \(command.rawValue) this one into another folder")
                }
            }
            if planned.problems.isEmpty { for file in planned.files { claimed[file.destination] = inputs } } else { planned.files = [] }
            announce?(planned)
            let outcome = dryRun ? nil : apply(planned)
            let result = Result(plan: planned, outcome: outcome, status: PlanStatus(planned, outcome, accepted: options.accepts(planned)))
            results.append(result)
            told(result)
            progress?(index + 1, items.count)
        }
        return results
    }
}

extension PlanLoop.Result {
    /// An item of convert's and strip's JSON: what was planned for it and what became of it;
    /// `extra` fields follow `status` (convert's `identifier`).
    func json(_ command: PlanLoop.Command, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([
            ("kind", .string(plan.item.kind.rawValue)),
            ("inputs", .array(plan.item.files.map { .string($0.path) })),
            ("status", .string(status.word(command))),
        ] + extra + [
            ("outputs", PlanText.outputsJSON(plan.files)),
            ("reasons", .array(plan.reasons.map(JSONValue.string))),
            ("losses", .array(plan.losses.map(JSONValue.string))),
            ("damage", .array(plan.damage.map(JSONValue.string))),
            ("problems", .array(plan.problems.map(JSONValue.string))),
            ("failure", .optional(outcome?.failure)),
        ])
    }

    /// The plan as convert and strip print it, then what became of it.
    func text(_ options: RepairOptions) -> String {
        var after = outcome?.failure.map { ["  FAILED, nothing written: \($0.terminalSafe)"] } ?? []
        after += (outcome?.written ?? []).map { "  wrote \($0.path.terminalSafe)" }
        return PlanText.describe(plan, force: options.force, size: PlanText.sizeFirst, after: after, allowLoss: options.allowLoss, allowDamaged: options.allowDamaged)
    }
}
