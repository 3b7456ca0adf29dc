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
    /// The files counted in `ignoredFiles`, by name, with the reason.
    public var leftOut: [LeftOutFile]

    public init(version: String, roots: [String], items: [CheckItem], rules: [RuleDescription], failOn: Configuration.FailLevel,
                ignoredFiles: Int = 0, discoveryProblems: [(path: String, reason: String)] = [], leftOut: [LeftOutFile] = []) {
        self.leftOut = leftOut
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

    // The counts below walk `items` by index and read single fields: items are large values,
    // and a `for item in items` or `reduce` would copy each one.

    public func count(_ severity: Severity) -> Int {
        var total = 0
        forEachFinding { if $0.severity == severity && !$0.baselined { total += 1 } }
        return total
    }

    public func count(_ kind: ItemKind) -> Int {
        var total = 0
        for index in items.indices where items[index].kind == kind { total += 1 }
        return total
    }

    public var fileCount: Int {
        var total = 0
        for index in items.indices { total += items[index].fileCount }
        return total
    }

    /// Bytes read from all files.
    public var bytesRead: Int64 {
        var total: Int64 = 0
        for index in items.indices { total += (items[index].still?.bytesRead ?? 0) + (items[index].movie?.bytesRead ?? 0) }
        return total
    }

    /// Calls `body` with each finding in place (no flattened copy of all of them: a report on a
    /// large library has hundreds of thousands).
    func forEachFinding(_ body: (Finding) -> Void) {
        for index in items.indices {
            for slot in items[index].findings.indices { body(items[index].findings[slot]) }
        }
    }

    /// Findings a baseline accepted.
    public var baselinedCount: Int {
        var total = 0
        forEachFinding { if $0.baselined { total += 1 } }
        return total
    }

    /// Whether the gate passes: no gating finding at or above `failOn`.
    public var passed: Bool {
        guard let threshold = failOn.threshold else { return true }
        var failing = false
        forEachFinding { if !$0.baselined && $0.severity >= threshold { failing = true } }
        return !failing
    }

    /// Findings per rule identifier, in catalogue order.
    public var countsByRule: [(rule: String, count: Int)] {
        var counts: [String: Int] = [:]
        forEachFinding { if !$0.baselined { counts[$0.rule, default: 0] += 1 } }
        return rules.map(\.identifier).compactMap { id in counts[id].map { (id, $0) } }
    }
}

/// A file found below the roots that is in no item, and why.
public struct LeftOutFile: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
