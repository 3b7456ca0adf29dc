import Foundation
import LivePhotoFormats

/// The active rules at their severities, the rule context and the baseline: findings for an item.
public struct RuleRun: Sendable {
    let active: [(rule: any Rule.Type, severity: Severity)]
    let context: RuleContext
    let baseline: Baseline?
    /// Rules whose errors decide verdicts but which the report does not run (another profile's,
    /// or switched off by the configuration): run for the verdicts alone.
    let unreported: [any Rule.Type]
    /// The rules whose errors decide verdicts (an error by default, a target): their targets and
    /// confidence. The configuration grades what fails the gate, not what a platform does.
    let judging: [String: (targets: Set<Target>, confidence: Confidence)]

    init(rules: [any Rule.Type], severity: (RuleDescription) -> Severity?, context: RuleContext, baseline: Baseline?) {
        var active: [(rule: any Rule.Type, severity: Severity)] = [], unreported: [any Rule.Type] = []
        var judging: [String: (targets: Set<Target>, confidence: Confidence)] = [:]
        for rule in rules {
            let description = RuleRegistry.describe(rule)
            let judges = description.severity == .error && !description.targets.isEmpty
            if judges { judging[description.identifier] = (description.targets, description.confidence) }
            if let graded = severity(description) { active.append((rule, graded)) } else if judges { unreported.append(rule) }
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
        var verdicts = Verdicts()
        let judged = Target.allCases.filter { $0.judges(item.kind) }
        guard !judged.isEmpty else { return verdicts }
        var worst: [Target: Confidence] = [:]
        func note(_ identifier: String) {
            guard let rule = judging[identifier] else { return }
            for target in judged where rule.targets.contains(target) {
                if worst[target].map({ rule.confidence > $0 }) ?? true { worst[target] = rule.confidence }
            }
        }
        for finding in findings { note(finding.rule) }
        for rule in unreported where !rule.check(item, context: context).isEmpty { note(rule.description.identifier) }
        for target in judged {
            switch worst[target] {
            case nil: verdicts[target] = .pass
            case .low?: verdicts[target] = .uncertain
            default: verdicts[target] = .fail
            }
        }
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
