/// A rule's description: the stable identifier (it appears in reports, CI logs and
/// configuration, and never changes), its default severity and what a user needs to act.
public struct RuleDescription: Sendable, Equatable {
    public var identifier: String
    public var title: String
    public var severity: Severity
    public var rationale: String
    public var fix: String
    /// Whether `lpcheck repair` fixes what this rule finds.
    public var autofixable: Bool
    public var category: String

    public init(identifier: String, title: String, severity: Severity, category: String, rationale: String, fix: String, autofixable: Bool) {
        self.identifier = identifier
        self.title = title
        self.severity = severity
        self.category = category
        self.rationale = rationale
        self.fix = fix
        self.autofixable = autofixable
    }
}

/// Settings the rules read.
public struct RuleContext: Sendable {
    /// Movies longer than this are reported (`movie-too-long`).
    public var maxMovieSeconds: Double = 6
    /// Frame durations (the last frame aside) whose longest is more than this many times the
    /// shortest are reported (`irregular-frame-durations`).
    public var frameDurationRatio: Double = 3

    public init(maxMovieSeconds: Double = 6, frameDurationRatio: Double = 3) {
        self.maxMovieSeconds = maxMovieSeconds
        self.frameDurationRatio = frameDurationRatio
    }
}

/// An example a rule must trigger on, or must stay silent on. The registry-wide test runs them all.
public struct RuleExample: Sendable {
    public var item: CheckItem
    public var triggers: Bool
    public var note: String

    public static func triggers(_ note: String, _ item: CheckItem) -> RuleExample { RuleExample(item: item, triggers: true, note: note) }
    public static func passes(_ note: String, _ item: CheckItem) -> RuleExample { RuleExample(item: item, triggers: false, note: note) }
}

/// One rule: a description, a pure check over an item's models, and examples. A new rule is
/// one file in `Rules/`, one line in `RuleRegistry.all`, and its examples.
public protocol Rule {
    static var description: RuleDescription { get }
    static func check(_ item: CheckItem, context: RuleContext) -> [Finding]
    static var examples: [RuleExample] { get }
}

extension Rule {
    /// A finding of this rule, at its default severity, about `file`.
    static func finding(_ message: String, _ file: FileFacts?, offset: Int64? = nil) -> Finding {
        Finding(rule: description.identifier, severity: description.severity, message: message, path: file?.path, offset: offset)
    }
}
