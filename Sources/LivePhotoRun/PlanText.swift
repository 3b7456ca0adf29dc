import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

/// A plan as the writing commands print it: the item, why, what it fixes, each file with its
/// notes, what needs --force (damage, losses), what it leaves and cannot do, then what happened.
/// One printer for repair, convert and make.
enum PlanText {
    /// `inputKeepsLosses`: the plan writes new files and leaves its inputs as they are (make), so
    /// what the outputs lose is a note, not something that waits for --force.
    /// How a planned file's size is said: new bytes first (repair, make), or the size first (convert).
    static func newBytesFirst(_ file: FilePlan) -> String {
        file.patch.map { "\($0.newBytes) new bytes, \($0.outputSize) in all" } ?? "encoded"
    }

    static func sizeFirst(_ file: FilePlan) -> String {
        file.patch.map { "\($0.outputSize) bytes, \($0.newBytes) of them new" } ?? "encoded"
    }

    static func describe(_ plan: ItemPlan, force: Bool, fixes: [String] = [], size: (FilePlan) -> String, inputKeepsLosses: Bool = false,
                         leaves: [String] = [], after: [String] = [], shownAs: [String: String] = [:], allowLoss: Bool = false, allowDamaged: Bool = false) -> String {
        // `shownAs`: an input read under another name (a GIF's movie is a writer's temporary) is
        // shown by the name the user gave.
        var lines = ["\(plan.item.kind.rawValue) " + plan.item.files.map { (shownAs[$0.path] ?? $0.path).terminalSafe }.joined(separator: " + ")]
        lines += plan.reasons.map { "  because: \($0.terminalSafe)" }
        lines += fixes
        for file in plan.files {
            lines.append("  \(file.destination.terminalSafe): \(size(file))")
            lines += (file.patch?.notes ?? []).map { "    - \($0.terminalSafe)" }
            if let ledger = file.ledger {
                lines += ledger.lines.map { "    \($0.terminalSafe)" }
            } else if let problem = file.ledgerProblem {
                lines.append("    ledger: \(problem.terminalSafe)")
            }
            if let lost = file.credentialsLost { lines.append("    CONTENT CREDENTIALS: \(lost.terminalSafe) (--keep-credentials refuses this)") }
        }
        // Each waits for its own flag (or --force, which accepts both as it did before them).
        let damageNeeds = force || allowDamaged ? "" : " (needs --allow-damaged)", lossNeeds = force || allowLoss ? "" : " (needs --allow-loss)"
        lines += plan.damage.map { "  DAMAGED INPUT: \($0.terminalSafe)\(damageNeeds)" }
        lines += plan.losses.map { inputKeepsLosses ? "  note: \($0.terminalSafe) (the input keeps them)" : "  LOSES: \($0.terminalSafe)\(lossNeeds)" }
        lines += leaves
        lines += plan.problems.map { "  cannot: \($0.terminalSafe)" }
        return (lines + after).joined(separator: "\n")
    }

    /// A file's preservation ledger in a plan's JSON (`ledger` of an output in
    /// Reports/convert.schema.json): what it is compared with, then the four lists by area and
    /// name; `problem` says why there are none.
    /// The files a plan writes (convert's and make's JSON): path, size, new bytes, notes, ledger.
    static func outputsJSON(_ files: [FilePlan]) -> JSONValue {
        .array(files.map { file in
            .object([
                ("path", .string(file.destination)), ("size", file.patch.map { .int($0.outputSize) } ?? .null),
                ("newBytes", file.patch.map { .int($0.newBytes) } ?? .null), ("notes", .array((file.patch?.notes ?? []).map(JSONValue.string))),
                ("ledger", ledgerJSON(file)),
            ])
        })
    }

    static func ledgerJSON(_ file: FilePlan) -> JSONValue {
        func names(_ list: [PreservationLedger.Name]) -> JSONValue {
            .array(list.map { .object([("area", .string($0.area.rawValue)), ("name", .string($0.name))]) })
        }
        let inputs = JSONValue.array(file.ledgerInputs.map { .object([("path", .string($0.shownAs ?? $0.path)), ("part", .optional($0.part?.rawValue))]) })
        guard let ledger = file.ledger else { return .object([("comparedWith", inputs), ("problem", .optional(file.ledgerProblem))]) }
        var fields: [(String, JSONValue)] = [
            ("comparedWith", inputs),
            ("kept", names(ledger.kept)), ("changed", names(ledger.changed)), ("added", names(ledger.added)), ("dropped", names(ledger.dropped)),
        ]
        if let lost = file.credentialsLost { fields.append(("credentialsLost", .string(lost))) }
        return .object(fields)
    }
}
