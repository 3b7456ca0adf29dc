/// Where a Live Photo or a motion photo is shown: a target lpcheck judges items for, and the
/// profile a check runs for (`--profile`, `profile:` in `.lpcheck.yml`).
///
/// A target is one declaration (a file in `Targets/` and a line in `Target.allCases`): its name,
/// the item kinds it judges, the rule categories that judge it, the rules its profile reports and
/// whether its verdict follows the platform's reader. Verdicts, the JSON and plist fields, the
/// HTML badges and the text summary follow from `allCases`; `Reports/check.schema.json` lists each
/// target, and `TargetTests` fails when a target lacks a schema entry, a JSON field or a badge.
public struct Target: Sendable, Hashable, CustomStringConvertible {
    /// What a declaration says, held once: a target is copied on every item of a check, so it is
    /// an index and one reference.
    final class Declaration: Sendable {
        let name: String, summary: String
        let judgedKinds: [ItemKind]
        let categories: Set<RuleCategory>
        let reportsRule: @Sendable (RuleDescription) -> Bool
        let followsReader: Bool

        init(name: String, summary: String, judgedKinds: [ItemKind], categories: Set<RuleCategory>, reportsRule: @escaping @Sendable (RuleDescription) -> Bool, followsReader: Bool) {
            (self.name, self.summary, self.judgedKinds, self.categories, self.reportsRule, self.followsReader) = (name, summary, judgedKinds, categories, reportsRule, followsReader)
        }
    }

    /// The target's place in `allCases`: its bit in sets of targets and its slot in `Verdicts`.
    let index: Int
    let declaration: Declaration

    /// The name reports, `--profile` and the configuration use.
    public var rawValue: String { declaration.name }
    /// What a pass means, for `--help`.
    public var summary: String { declaration.summary }
    /// The rule categories whose rules decide this target's verdict unless a rule names its
    /// targets itself (`RuleDescription.targets`).
    var categories: Set<RuleCategory> { declaration.categories }
    /// Whether the verdict follows the platform's reader: a rule decides it at its own confidence
    /// only when code the reader runs backs it (`Evidence.Backing.reader`); a rule backed by a
    /// checker's or a format page's letter decides it at medium confidence at most.
    public var followsReader: Bool { declaration.followsReader }

    /// A target: `index` its place in `allCases`, `judges` the kinds of items that get a verdict
    /// for it, `categories` the rule categories that judge it by default, `reports` the rules a
    /// check for its profile reports.
    init(index: Int, name: String, summary: String, judges: [ItemKind], categories: Set<RuleCategory>, followsReader: Bool = false,
         reports: @escaping @Sendable (RuleDescription) -> Bool) {
        self.index = index
        declaration = Declaration(name: name, summary: summary, judgedKinds: judges, categories: categories, reportsRule: reports, followsReader: followsReader)
    }

    /// Every target, in the order reports list them. A new target adds its line here.
    public static let allCases: [Target] = [.photos, .wallpaper, .googlePhotos]
    /// Their names, by index: what reports write for each verdict slot.
    static let names: [String] = allCases.map { $0.rawValue }

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
    public func reports(_ rule: RuleDescription) -> Bool { declaration.reportsRule(rule) }

    /// Whether items of `kind` get a verdict for this target.
    public func judges(_ kind: ItemKind) -> Bool { declaration.judgedKinds.contains(kind) }

    /// The targets' names as a sentence: "photos, wallpaper or google-photos".
    public static var sentence: String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
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

/// A rule whose error decided a verdict other than pass: `reported` false when the report does
/// not show its finding (a rule of another profile, or switched off by the configuration, run
/// for the verdict alone).
public struct VerdictReason: Sendable, Equatable {
    public var target: Target
    public var rule: String
    public var reported: Bool
    public init(target: Target, rule: String, reported: Bool) { (self.target, self.rule, self.reported) = (target, rule, reported) }
}

/// An item's verdict for each target that judges its kind: two bits a target, so that a check
/// of many items allocates nothing for them.
public struct Verdicts: Sendable, Equatable {
    var packed: UInt32 = 0

    public init() {}

    public subscript(target: Target) -> Verdict? {
        get { self[slot: target.index] }
        set { self[slot: target.index] = newValue }
    }

    /// The verdict in a target's slot (`Target.index`): what loops over every item read, with no
    /// target copied.
    subscript(slot index: Int) -> Verdict? {
        get {
            switch packed >> UInt32(2 * index) & 3 {
            case 1: return .pass
            case 2: return .fail
            case 3: return .uncertain
            default: return nil
            }
        }
        set {
            let shift = UInt32(2 * index)
            packed = packed & ~(3 << shift) | (newValue?.code ?? 0) << shift
        }
    }

    /// Whether any verdict is other than pass (the items whose reasons are kept).
    public var anyNotPassing: Bool {
        var rest = packed
        while rest != 0 {
            if rest & 3 > 1 { return true }
            rest >>= 2
        }
        return false
    }

    /// The targets with a verdict, in `Target.allCases` order.
    public var all: [(target: Target, verdict: Verdict)] { Target.allCases.compactMap { target in self[target].map { (target, $0) } } }

    /// Each verdict given as its target's index and its place in `Verdict.allCases` (pass, fail,
    /// uncertain: its code less one), for the report's totals.
    func counting(_ body: (_ row: Int, _ column: Int) -> Void) {
        var rest = packed, row = 0
        while rest != 0 {
            let code = Int(rest & 3)
            if code != 0 { body(row, code - 1) }
            (rest, row) = (rest >> 2, row + 1)
        }
    }

    /// Each verdict given, by target name, in `Target.allCases` order.
    public func forEach(_ body: (_ target: String, _ verdict: Verdict) -> Void) {
        guard packed != 0 else { return }
        for index in Target.names.indices { if let verdict = self[slot: index] { body(Target.names[index], verdict) } }
    }
}
