/// The result of a check run: what every report writer renders.
public struct CheckReport: Sendable {
    public var tool = "lpcheck"
    public var version: String
    /// The folders and files given.
    public var roots: [String]
    public var items: [CheckItem]
    /// The rules that ran (after configuration), for catalogues in reports.
    public var rules: [RuleDescription]
    public var failOn: Configuration.FailLevel
    /// Files that were not media (left out) and folders or files that could not be opened.
    public var ignoredFiles: Int
    public var discoveryProblems: [(path: String, reason: String)]

    public init(version: String, roots: [String], items: [CheckItem], rules: [RuleDescription], failOn: Configuration.FailLevel,
                ignoredFiles: Int = 0, discoveryProblems: [(path: String, reason: String)] = []) {
        self.version = version
        self.roots = roots
        self.items = items
        self.rules = rules
        self.failOn = failOn
        self.ignoredFiles = ignoredFiles
        self.discoveryProblems = discoveryProblems
    }

    public var findings: [Finding] { items.flatMap(\.findings) }

    /// Findings that count for the gate (not accepted by a baseline).
    public var gatingFindings: [Finding] { findings.filter { !$0.baselined } }

    public func count(_ severity: Severity) -> Int {
        items.reduce(0) { total, item in total + item.findings.reduce(0) { $0 + ($1.severity == severity && !$1.baselined ? 1 : 0) } }
    }

    public func count(_ kind: ItemKind) -> Int { items.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }

    public var fileCount: Int { items.reduce(0) { $0 + $1.files.count } }

    /// Bytes read from all files.
    public var bytesRead: Int64 { items.reduce(0) { $0 + $1.files.reduce(0) { $0 + $1.bytesRead } } }

    /// Whether the gate passes: no gating finding at or above `failOn`.
    public var passed: Bool {
        guard let threshold = failOn.threshold else { return true }
        return !gatingFindings.contains { $0.severity >= threshold }
    }

    /// Findings per rule identifier, in catalogue order.
    public var countsByRule: [(rule: String, count: Int)] {
        let counts = Dictionary(grouping: gatingFindings, by: \.rule).mapValues(\.count)
        return rules.map(\.identifier).compactMap { id in counts[id].map { (id, $0) } }
    }
}
