import Foundation
import LivePhotoFormats

/// The active rules at their severities, the rule context and the baseline: findings for an item.
public struct RuleRun: Sendable {
    let active: [(rule: any Rule.Type, severity: Severity)]
    let context: RuleContext
    let baseline: Baseline?

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
