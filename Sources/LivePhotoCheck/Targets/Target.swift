/// Where a Live Photo or a motion photo is shown: a target lpcheck judges items for, and the
/// profile a check runs for (`--profile`, `profile:` in `.lpcheck.yml`).
///
/// A target is one declaration (a file in `Targets/` and a line in `Target.allCases`): its name,
/// the item kinds it judges, the rule categories that judge it, the rules its profile reports and
/// whether its verdict follows the platform's reader. Verdicts, the JSON and plist fields, the
/// HTML badges and the text summary follow from `allCases`; `Reports/check.schema.json` lists each
/// target, and `TargetTests` fails when a target lacks a schema entry, a JSON field or a badge.
public struct Target: Sendable, Hashable, CustomStringConvertible {
    /// The name reports, `--profile` and the configuration use.
    public let rawValue: String
    /// What a pass means, for `rules` and `--help`.
    public let summary: String
    /// The target's place in `allCases`: its bit in sets of targets and its slot in `Verdicts`.
    let index: Int
    /// The kinds of items that get a verdict for this target.
    let judgedKinds: [ItemKind]
    /// The rule categories whose rules decide this target's verdict unless a rule names its
    /// targets itself (`RuleDescription.targets`).
    let categories: Set<RuleCategory>
    /// Whether a check for this profile reports a rule's findings.
    let reportsRule: @Sendable (RuleDescription) -> Bool
    /// Whether the verdict follows the platform's reader: a rule decides it at its own confidence
    /// only when code the reader runs backs it (`Evidence.Backing.reader`); a rule backed by a
    /// checker's or a format page's letter decides it at medium confidence at most.
    public let followsReader: Bool

    init(index: Int, name: String, summary: String, judges: [ItemKind], categories: Set<RuleCategory>, followsReader: Bool = false,
         reports: @escaping @Sendable (RuleDescription) -> Bool) {
        (self.index, self.rawValue, self.summary, self.judgedKinds, self.categories, self.followsReader, self.reportsRule) =
            (index, name, summary, judges, categories, followsReader, reports)
    }

    /// Every target, in the order reports list them. A new target adds its line here.
    public static let allCases: [Target] = [.photos, .wallpaper, .googlePhotos]

    public init?(rawValue: String) {
        guard let target = Target.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = target
    }

    public static func == (lhs: Target, rhs: Target) -> Bool { lhs.index == rhs.index }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
    public var description: String { rawValue }

    /// One bit a target, for sets of targets held in an integer.
    var bit: UInt32 { 1 << UInt32(index) }

    /// Whether a check for this target reports a rule's findings.
    public func reports(_ rule: RuleDescription) -> Bool { reportsRule(rule) }

    /// Whether items of `kind` get a verdict for this target.
    public func judges(_ kind: ItemKind) -> Bool { judgedKinds.contains(kind) }

    /// The targets' names as a sentence: "photos, wallpaper or google-photos".
    public static var names: String {
        let names = allCases.map { $0.rawValue }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

/// Whether an item will work on a target: `fail` when a rule of that target of high or medium
/// confidence finds an error, `uncertain` when only rules of low confidence do, else `pass`.
public enum Verdict: String, Sendable, CaseIterable {
    case pass, fail, uncertain

    /// Two bits a verdict in `Verdicts` (0: no verdict).
    var code: UInt32 {
        switch self {
        case .pass: return 1
        case .fail: return 2
        case .uncertain: return 3
        }
    }
}

/// An item's verdict for each target that judges its kind: two bits a target, so that a check
/// of many items allocates nothing for them.
public struct Verdicts: Sendable, Equatable {
    var packed: UInt32 = 0

    public init() {}

    public subscript(target: Target) -> Verdict? {
        get {
            switch packed >> UInt32(2 * target.index) & 3 {
            case 1: return .pass
            case 2: return .fail
            case 3: return .uncertain
            default: return nil
            }
        }
        set {
            let shift = UInt32(2 * target.index)
            packed = packed & ~(3 << shift) | (newValue?.code ?? 0) << shift
        }
    }

    /// The targets with a verdict, in `Target.allCases` order.
    public var all: [(target: Target, verdict: Verdict)] { Target.allCases.compactMap { target in self[target].map { (target, $0) } } }
}
