import LivePhotoReports
import LivePhotoRepair

/// A plan as the writing commands print it: the item, why, what it fixes, each file with its
/// notes, what needs --force (damage, losses), what it leaves and cannot do, then what happened.
/// One printer for repair, convert and make.
enum PlanText {
    /// `inputKeepsLosses`: the plan writes new files and leaves its inputs as they are (make), so
    /// what the outputs lose is a note, not something that waits for --force.
    static func describe(_ plan: ItemPlan, force: Bool, fixes: [String] = [], size: (FilePlan) -> String, inputKeepsLosses: Bool = false,
                         leaves: [String] = [], after: [String] = []) -> String {
        var lines = ["\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ")]
        lines += plan.reasons.map { "  because: \($0.terminalSafe)" }
        lines += fixes
        for file in plan.files {
            lines.append("  \(file.destination.terminalSafe): \(size(file))")
            lines += file.patch.notes.map { "    - \($0.terminalSafe)" }
        }
        let needs = force ? "" : " (needs --force)"
        lines += plan.damage.map { "  DAMAGED INPUT: \($0.terminalSafe)\(needs)" }
        lines += plan.losses.map { inputKeepsLosses ? "  note: \($0.terminalSafe) (the input keeps them)" : "  LOSES: \($0.terminalSafe)\(needs)" }
        lines += leaves
        lines += plan.problems.map { "  cannot: \($0.terminalSafe)" }
        return (lines + after).joined(separator: "\n")
    }
}
