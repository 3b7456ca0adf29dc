import Foundation
import LivePhotoFormats

/// The active rules at their severities, the rule context and the baseline: findings for an item.
public struct RuleRun: Sendable {
    let active: [(rule: any Rule.Type, severity: Severity)]
    let context: RuleContext
    let baseline: Baseline?
    /// Rules whose errors decide verdicts but which the report does not run (another profile's,
    /// or switched off by the configuration): run for the verdicts alone.
    let unreported: [(rule: any Rule.Type, targets: UInt8, confidence: Confidence)]
    /// The rules whose errors decide verdicts (an error by default, a target): their targets and
    /// confidence. The configuration grades what fails the gate, not what a platform does.
    let judging: [String: (targets: UInt8, confidence: Confidence)]

    init(rules: [any Rule.Type], severity: (RuleDescription) -> Severity?, context: RuleContext, baseline: Baseline?) {
        var active: [(rule: any Rule.Type, severity: Severity)] = [], unreported: [(rule: any Rule.Type, targets: UInt8, confidence: Confidence)] = []
        var judging: [String: (targets: UInt8, confidence: Confidence)] = [:]
        for rule in rules {
            let description = RuleRegistry.describe(rule)
            let judges = description.severity == .error && !description.targets.isEmpty
            // Targets as bits: a set's hashing cost more than the rest of a verdict.
            let targets = description.targets.reduce(UInt8(0)) { $0 | $1.bit }
            if judges { judging[description.identifier] = (targets, description.confidence) }
            if let graded = severity(description) {
                active.append((rule, graded))
            } else if judges {
                unreported.append((rule, targets, description.confidence))
            }
        }
        (self.active, self.unreported, self.judging, self.context, self.baseline) = (active, unreported, judging, context, baseline)
    }

    /// Sets the item's findings and verdicts.
    public func check(_ item: inout CheckItem) {
        item.findings = findings(item)
        item.verdicts = verdicts(item, findings: item.findings)
    }

    /// The item's verdict for each target that judges its kind, from its findings (`findings`)
    /// and the unreported rules: fail on an error of a rule of high or medium confidence,
    /// uncertain on errors of low-confidence rules alone.
    public func verdicts(_ item: CheckItem, findings: [Finding]) -> Verdicts {
        // Every target judges Live Photos or motion photos, never both: no collection is made
        // for the targets of an item (this runs on every item of a check).
        let judged: (Target, Target?)
        switch item.kind {
        case .pair, .stillOnly, .movieOnly: judged = (.photos, .wallpaper)
        case .motionPhoto: judged = (.googlePhotos, nil)
        default: return Verdicts()
        }
        var worst: (Confidence?, Confidence?) = (nil, nil)
        func note(_ targets: UInt8, _ confidence: Confidence) {
            if targets & judged.0.bit != 0, worst.0.map({ confidence > $0 }) ?? true { worst.0 = confidence }
            if let second = judged.1, targets & second.bit != 0, worst.1.map({ confidence > $0 }) ?? true { worst.1 = confidence }
        }
        for finding in findings { if let rule = judging[finding.rule] { note(rule.targets, rule.confidence) } }
        for (rule, targets, confidence) in unreported where rule.fires(item, context: context) { note(targets, confidence) }
        func verdict(_ confidence: Confidence?) -> Verdict { confidence.map { $0 == .low ? .uncertain : .fail } ?? .pass }
        var verdicts = Verdicts()
        verdicts[judged.0] = verdict(worst.0)
        if let second = judged.1 { verdicts[second] = verdict(worst.1) }
        return verdicts
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
