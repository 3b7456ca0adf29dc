import LivePhotoFormats
import LivePhotoCheck

/// The terminal summary of a check: per item (items with findings; all with `verbose`), per
/// rule, totals. Text from files is made terminal-safe; colour only when asked. `showInfo: false`
/// (the terminal's default unless `--verbose` or `--fail-on info`) leaves info findings out of
/// the item list; the totals still count them and say they are hidden.
public enum CheckText: Sendable {
    public static func render(_ report: CheckReport, color: Bool = false, verbose: Bool = false, showInfo: Bool = true) -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func label(_ severity: Severity) -> String {
            switch severity {
            case .error: return paint("error", "31;1")
            case .warning: return paint("warning", "33;1")
            case .info: return paint("info", "36")
            }
        }
        var out = ""
        let shows = { (finding: Finding) in showInfo || verbose || finding.severity != .info }
        for item in report.items where verbose || item.findings.contains(where: shows) {
            let files = [item.still?.path, item.movie?.path].compactMap { $0?.terminalSafe }.joined(separator: " + ")
            let identifier = item.contentIdentifier.map { " [\($0.terminalSafe)]" } ?? ""
            out += "\(paint(item.kind.rawValue, "1")) \(files)\(identifier)\n"
            let verdicts = item.verdicts.all
            if !verdicts.isEmpty { out += "  verdicts: " + verdicts.map { "\($0.target.rawValue) \($0.verdict.rawValue)" }.joined(separator: ", ") + "\n" }
            for line in VerdictReasons.lines(item) { out += "  \(line)\n" }
            if let original = item.duplicateOf { out += "  \(item.hardLink ? "hard link of" : "copy of") \(original.terminalSafe)\n" }
            if let original = item.variantOf {
                out += "  variant of " + [original.still, original.movie].compactMap { $0?.terminalSafe }.joined(separator: " + ") + "\n"
            }
            if verbose { for sidecar in item.sidecars { out += "  sidecar \(sidecar.terminalSafe)\n" } }
            for finding in item.findings where shows(finding) {
                let where_ = finding.offset.map { " @\($0)" } ?? ""
                let accepted = finding.baselined ? " (baseline)" : ""
                out += "  \(label(finding.severity)) \(finding.rule): \(finding.message.terminalSafe)\(where_)\(accepted)\n"
            }
        }
        if !report.countsByRule.isEmpty {
            out += "\nBy rule:\n"
            for (rule, count) in report.countsByRule { out += "  \(rule): \(count)\n" }
        }
        for problem in report.discoveryProblems { out += "could not open \(problem.path.terminalSafe): \(problem.reason)\n" }
        if verbose && !report.leftOut.isEmpty {
            out += "\nLeft out:\n"
            for file in report.leftOut { out += "  \(file.path.terminalSafe): \(file.reason.terminalSafe)\n" }
        }
        let kinds = ItemKind.allCases.map { ($0, report.count($0)) }.filter { $0.1 > 0 }.map { Self.kinds($0.1, $0.0) }.joined(separator: ", ")
        out += "\n\(Self.totals(report)) (\(kinds.isEmpty ? "none" : kinds))"
        if report.ignoredFiles > 0 { out += "; \(Plural.count(report.ignoredFiles, "other file")) left out" + (verbose ? "" : " (--verbose lists them)") }
        out += "\n"
        let judged = Target.allCases.compactMap { target -> String? in
            let counts = Verdict.allCases.map { (verdict: $0, count: report.count(target, $0)) }.filter { $0.count > 0 }
            return counts.isEmpty ? nil : "\(target.rawValue) " + counts.map { "\($0.count) \($0.verdict.rawValue)" }.joined(separator: ", ")
        }
        if !judged.isEmpty { out += "verdicts: " + judged.joined(separator: "; ") + "\n" }
        let baselined = report.baselinedCount
        out += "\(Plural.count(report.count(.error), "error")), \(Plural.count(report.count(.warning), "warning")), \(Plural.count(report.count(.info), "info"))"
        if baselined > 0 { out += " (\(baselined) more accepted by the baseline)" }
        if !showInfo && !verbose && report.count(.info) > 0 { out += " (infos not listed: --verbose lists them)" }
        let verdict = report.passed ? paint("PASS", "32;1") : paint("FAIL", "31;1")
        out += ": \(verdict) (\(report.inputFailure ?? "fail on \(report.failOn.rawValue)"))\n"
        return out
    }

    /// "N files in M items", each noun as its count asks.
    static func totals(_ report: CheckReport) -> String {
        "\(Plural.count(report.fileCount, "file")) in \(Plural.count(report.items.count, "item"))"
    }

    /// A count of items of one kind: the kinds that are nouns take a plural ("2 pairs"), the
    /// adjectives do not ("2 still-only").
    static func kinds(_ count: Int, _ kind: ItemKind) -> String {
        let nouns: Set<ItemKind> = [.pair, .duplicate, .variant, .motionPhoto]
        return "\(count) \(kind.rawValue)\(count != 1 && nouns.contains(kind) ? "s" : "")"
    }
}
