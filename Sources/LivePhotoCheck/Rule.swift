/// What a rule judges; the raw value is the category reports and the catalogue show.
public enum RuleCategory: String, Sendable, CaseIterable, CustomStringConvertible {
    case damage, identifier, pairing, structure, timing
    /// A still and its movie disagree on the capture they are said to be of.
    case agreement
    case motionPhoto = "motion-photo"
    case stillImageTime = "still-image-time"
    /// What the lock screen's Live Photo wallpaper is reported to need beyond Photos.
    case wallpaper

    public var description: String { rawValue }

    /// The targets a rule of this category judges unless it says otherwise: those whose
    /// declaration names the category (`Target.categories`).
    var defaultTargets: Set<Target> { Set(Target.allCases.filter { $0.categories.contains(self) }) }
}

/// A rule's description: the stable identifier (it appears in reports, CI logs and
/// configuration, and never changes), its default severity and what a user needs to act.
public struct RuleDescription: Sendable, Equatable {
    public var identifier: String
    public var title: String
    public var severity: Severity
    public var rationale: String
    public var fix: String
    /// Whether `lpcheck repair` fixes what this rule finds: derived from the rule's conformance to
    /// `FixableRule` (`RuleRegistry.describe`), never declared by hand.
    public var autofixable: Bool = false
    public var category: RuleCategory
    /// How sure the rule is, and what backs it (`Evidence.swift`).
    public var confidence: Confidence
    public var evidence: [Evidence]
    /// The targets whose verdict the rule's errors decide (`Targets/`); none: the rule is
    /// reported for every profile and decides no verdict.
    public var targets: Set<Target>

    /// What backs the rule for a target whose verdict follows the reader (`Evidence.Backing`).
    public var backing: Evidence.Backing { Evidence.backing(evidence) }

    /// How sure the rule is for `target`'s verdict: its confidence, but at most medium for a
    /// target whose verdict follows the reader when no code the reader runs backs the rule.
    public func confidence(for target: Target) -> Confidence {
        target.followsReader && backing != .reader && confidence == .high ? .medium : confidence
    }

    /// Whether the rule finds damage to a file's bytes or structure: a writer does not write
    /// from such a file without `--force`.
    public var marksDamage: Bool { category == .damage }

    public init(identifier: String, title: String, severity: Severity, category: RuleCategory, confidence: Confidence, evidence: [Evidence],
                targets: Set<Target>? = nil, rationale: String, fix: String) {
        self.targets = targets ?? category.defaultTargets
        self.identifier = identifier
        self.confidence = confidence
        self.evidence = evidence
        self.title = title
        self.severity = severity
        self.category = category
        self.rationale = rationale
        self.fix = fix
    }
}

/// Settings the rules read.
public struct RuleContext: Sendable {
    /// Movies longer than this are reported (`movie-too-long`).
    public var maxMovieSeconds: Double = 6
    /// Frame durations (the last frame aside) whose longest is more than this many times the
    /// shortest are reported (`irregular-frame-durations`).
    public var frameDurationRatio: Double = 3

    /// Movies longer than this may not move as a lock-screen wallpaper (`wallpaper-movie-too-long`).
    public var wallpaperMaxMovieSeconds: Double = 3

    /// What every item should be (`--expect`, `expect:`): an item of another kind is an error
    /// (`unexpected-item`). Nil: any kind is fine.
    public var expect: Expectation?

    public init(maxMovieSeconds: Double = 6, frameDurationRatio: Double = 3, expect: Expectation? = nil) {
        self.maxMovieSeconds = maxMovieSeconds
        self.frameDurationRatio = frameDurationRatio
        self.expect = expect
    }
}

/// What a generator under test should have written, item by item.
public enum Expectation: String, Sendable, CaseIterable {
    /// A still and its movie, paired.
    case livePhoto = "live-photo"
    /// An Android motion photo: one still with its movie inside.
    case motionPhoto = "motion-photo"
}

/// An example a rule must trigger on, or must stay silent on. The registry-wide test runs them all.
public struct RuleExample: Sendable {
    public var item: CheckItem
    public var triggers: Bool
    public var note: String
    /// The settings the example runs with (a rule that acts only when a setting is given).
    public var context = RuleContext()

    public static func triggers(_ note: String, _ item: CheckItem, context: RuleContext = RuleContext()) -> RuleExample {
        RuleExample(item: item, triggers: true, note: note, context: context)
    }
    public static func passes(_ note: String, _ item: CheckItem, context: RuleContext = RuleContext()) -> RuleExample {
        RuleExample(item: item, triggers: false, note: note, context: context)
    }
}

/// One rule: a description, a pure check over an item's models, and examples. A new rule is
/// one file in `Rules/`, one line in `RuleRegistry.all`, and its examples.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    static func check(_ item: CheckItem, context: RuleContext) -> [Finding]
    static var examples: [RuleExample] { get }
    /// What repair does about the rule's findings, nil for nothing. Conform to `FixableRule` to
    /// set it (a protocol witness, so no dynamic cast is needed to ask).
    static var repairKind: FixKind? { get }
    /// Whether `check` finds something: what a verdict asks of a rule the report does not run.
    /// A rule whose messages cost more than its test says so in an implementation of its own.
    static func fires(_ item: CheckItem, context: RuleContext) -> Bool
}

/// What `lpcheck repair` does about a rule's findings. The planner acts on kinds, never on rule names.
public enum FixKind: String, Sendable, CaseIterable {
    /// Write one identifier into the still's MakerNote and the movie's `moov/meta`.
    case identifier
    /// Write a still-image-time track as cameras do, keeping the old track's keys and values.
    case stillImageTimeTrack = "still-image-time-track"
    /// Rewrite the still-image-time track with a `cdsc` reference, at its current moment.
    case cdscReference = "cdsc-reference"
    /// Make the movie's major brand QuickTime.
    case brand
    /// Write the still's capture instant into the movie (`creationdate` key, `mvhd`/`tkhd`/`mdhd`
    /// times): only with `repair --align-dates`, which changes what a library shows as the date.
    case captureTime = "capture-time"
}

/// A rule whose findings `lpcheck repair` fixes: its fix kind drives the planner.
public protocol FixableRule: Rule {
    static var fixKind: FixKind { get }
}

extension FixableRule {
    public static var repairKind: FixKind? { fixKind }
}

extension Rule {
    public static var repairKind: FixKind? { nil }

    public static func fires(_ item: CheckItem, context: RuleContext) -> Bool { !check(item, context: context).isEmpty }

    /// A finding of this rule, at its default severity, about `file`.
    static func finding(_ message: String, _ file: FileFacts?, offset: Int64? = nil) -> Finding {
        Finding(rule: description.identifier, severity: description.severity, message: message, path: file?.path, offset: offset)
    }
}
