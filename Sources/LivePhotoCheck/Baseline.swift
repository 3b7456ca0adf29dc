import Foundation

/// Known findings, read from an earlier JSON report: a finding with the same rule and file is
/// accepted, so CI fails only on new ones.
public struct Baseline: Sendable {
    public var accepted: Set<Key>

    public struct Key: Hashable, Sendable {
        public var rule: String
        public var path: String
    }

    public init(accepted: Set<Key>) { self.accepted = accepted }

    /// Reads `lpcheck check --format json` output.
    public static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let items = root["items"] as? [[String: Any]] else {
            throw Configuration.Problem(description: "\(path): not an lpcheck JSON report")
        }
        var keys = Set<Key>()
        for item in items {
            for finding in item["findings"] as? [[String: Any]] ?? [] {
                if let rule = finding["rule"] as? String { keys.insert(Key(rule: rule, path: finding["path"] as? String ?? "")) }
            }
        }
        return Baseline(accepted: keys)
    }

    public func accepts(_ finding: Finding) -> Bool { accepted.contains(Key(rule: finding.rule, path: finding.path ?? "")) }
}
