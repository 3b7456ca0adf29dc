/// Known findings, read from an earlier JSON report (`CheckJSON.baseline(path:)`): a finding with the same rule and file is
/// accepted, so CI fails only on new ones.
public struct Baseline: Sendable {
    public var accepted: Set<Key>

    public struct Key: Hashable, Sendable {
        public var rule: String
        public var path: String
        public init(rule: String, path: String) {
            self.rule = rule
            self.path = path
        }
    }

    public init(accepted: Set<Key>) { self.accepted = accepted }

    public func accepts(_ finding: Finding) -> Bool { accepted.contains(Key(rule: finding.rule, path: finding.path ?? "")) }
}
