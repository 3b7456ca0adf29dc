import Foundation
import LivePhotoFormats

/// The active rules at their severities, the rule context and the baseline: findings for an item.
public struct RuleRun: Sendable {
    let active: [(rule: any Rule.Type, severity: Severity)]
    let context: RuleContext
    let baseline: Baseline?
    /// Rules whose errors decide verdicts but which the report does not run (another profile's,
    /// or switched off by the configuration): run for the verdicts alone.
    let unreported: [(rule: any Rule.Type, effect: VerdictEffect)]
    /// The rules whose errors decide verdicts (an error by default, a target): the targets each
    /// fails and those it makes uncertain. The configuration grades what fails the gate, not
    /// what a platform does.
    let judging: [String: VerdictEffect]
    /// The targets that judge each kind of item, as bits (`Target.bit`).
    let judgedKinds: [(kind: ItemKind, targets: UInt32)]

    /// What an error of a rule does to verdicts: the targets it fails (its confidence for them
    /// high or medium) and those it makes uncertain (low), as bits.
    struct VerdictEffect {
        var fails: UInt32 = 0
        var uncertain: UInt32 = 0

        init(_ description: RuleDescription) {
            for target in description.targets {
                if description.confidence(for: target) == .low { uncertain |= target.bit } else { fails |= target.bit }
            }
        }
    }

    init(rules: [any Rule.Type], severity: (RuleDescription) -> Severity?, context: RuleContext, baseline: Baseline?) {
        var active: [(rule: any Rule.Type, severity: Severity)] = [], unreported: [(rule: any Rule.Type, effect: VerdictEffect)] = []
        var judging: [String: VerdictEffect] = [:]
        for rule in rules {
            let description = RuleRegistry.describe(rule)
            let judges = description.severity == .error && !description.targets.isEmpty
            if judges { judging[description.identifier] = VerdictEffect(description) }
            if let graded = severity(description) {
                active.append((rule, graded))
            } else if judges {
                unreported.append((rule, VerdictEffect(description)))
            }
        }
        judgedKinds = ItemKind.allCases.map { kind in (kind, Target.allCases.filter { $0.judges(kind) }.reduce(UInt32(0)) { $0 | $1.bit }) }
        (self.active, self.unreported, self.judging, self.context, self.baseline) = (active, unreported, judging, context, baseline)
    }

    /// Sets the item's findings, verdicts and the reasons for those other than pass.
    public func check(_ item: inout CheckItem) {
        item.findings = findings(item)
        (item.verdicts, item.verdictReasons) = judged(item, findings: item.findings)
    }

    /// The item's verdict for each target that judges its kind, from its findings (`findings`)
    /// and the unreported rules: fail on an error of a rule of high or medium confidence for the
    /// target, uncertain on errors of low confidence alone.
    public func verdicts(_ item: CheckItem, findings: [Finding]) -> Verdicts { judged(item, findings: findings).verdicts }

    /// The verdicts and, for each other than pass, the rules whose errors decided it (for a fail,
    /// rules of high or medium confidence for the target; for uncertain, of low confidence), in
    /// one pass: each rule the report does not show runs once, as before.
    public func judged(_ item: CheckItem, findings: [Finding]) -> (verdicts: Verdicts, reasons: [VerdictReason]) {
        // Bits, not collections: this runs on every item of a check.
        var judged: UInt32 = 0
        for entry in judgedKinds where entry.kind == item.kind { judged = entry.targets }
        guard judged != 0 else { return (Verdicts(), []) }
        var fails: UInt32 = 0, uncertain: UInt32 = 0
        var deciding: [(rule: String, effect: VerdictEffect, reported: Bool)] = []
        for finding in findings {
            if let effect = judging[finding.rule] {
                (fails, uncertain) = (fails | effect.fails, uncertain | effect.uncertain)
                deciding.append((finding.rule, effect, true))
            }
        }
        for (rule, effect) in unreported where (effect.fails | effect.uncertain) & judged & ~fails != 0 && rule.fires(item, context: context) {
            (fails, uncertain) = (fails | effect.fails, uncertain | effect.uncertain)
            deciding.append((RuleRegistry.describe(rule).identifier, effect, false))
        }
        var verdicts = Verdicts()
        for index in 0..<Target.names.count {
            let bit = UInt32(1) << UInt32(index)
            if judged & bit != 0 { verdicts[slot: index] = fails & bit != 0 ? .fail : uncertain & bit != 0 ? .uncertain : .pass }
        }
        guard verdicts.anyNotPassing else { return (verdicts, []) }
        var reasons: [VerdictReason] = []
        for (rule, effect, reported) in deciding {
            for target in Target.allCases {
                let decides = switch verdicts[target] {
                case .fail?: effect.fails & target.bit != 0
                case .uncertain?: effect.uncertain & target.bit != 0
                default: false
                }
                let reason = VerdictReason(target: target, rule: rule, reported: reported)
                if decides && !reasons.contains(reason) { reasons.append(reason) }
            }
        }
        return (verdicts, reasons)
    }

    /// Every active rule's findings on `item`, graded and checked against the baseline.
    public func findings(_ item: CheckItem) -> [Finding] {
        var found: [Finding] = []
        for (rule, severity) in active {
            for var finding in rule.check(item, context: context) {
                finding.severity = severity
                finding.baselined = baseline?.accepts(finding) ?? false
                found.append(finding)
            }
        }
        return found
    }

    /// The descriptions of the active rules, at their configured severities.
    var descriptions: [RuleDescription] {
        active.map { rule, severity in
            var description = RuleRegistry.describe(rule)
            description.severity = severity
            return description
        }
    }
}
