import LivePhotoCheck

/// Why a verdict is not pass, in words: the rules whose errors decided it, and for those the
/// report does not list, which profile (or the configuration) does.
enum VerdictReasons {
    /// One line a target whose verdict is not pass: `wallpaper uncertain because of …`.
    static func lines(_ item: CheckItem) -> [String] {
        guard !item.verdictReasons.isEmpty else { return [] }
        return Target.allCases.compactMap { target -> String? in
            let reasons = item.verdictReasons.filter { $0.target == target }
            guard let verdict = item.verdicts[target], !reasons.isEmpty else { return nil }
            let listed = reasons.filter(\.reported).map(\.rule), unlisted = reasons.filter { !$0.reported }.map(\.rule)
            var parts: [String] = []
            if !listed.isEmpty { parts.append(listed.joined(separator: ", ")) }
            if !unlisted.isEmpty {
                let rules = unlisted.count == 1 ? "a rule" : "rules"
                parts.append(unlisted.joined(separator: ", ") + " (\(rules) whose findings this report does not list: --profile \(target.rawValue) lists them, unless the configuration switches them off)")
            }
            return "\(target.rawValue) \(verdict.rawValue) because of " + parts.joined(separator: "; ")
        }
    }
}
