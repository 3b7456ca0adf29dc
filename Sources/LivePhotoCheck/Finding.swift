/// How much a finding matters. Ordered: `info` < `warning` < `error`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    static let order: [Severity] = [.info, .warning, .error]
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }
}

/// One problem found in one item.
public struct Finding: Sendable, Equatable {
    /// The rule's stable identifier.
    public var rule: String
    public var severity: Severity
    public var message: String
    /// The file the finding is about.
    public var path: String?
    /// Byte offset in that file, where one is known.
    public var offset: Int64?
    /// Accepted by a baseline: reported, but not counted by the gate.
    public var baselined: Bool = false

    public init(rule: String, severity: Severity, message: String, path: String?, offset: Int64? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.path = path
        self.offset = offset
    }
}
