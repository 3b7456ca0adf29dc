import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// docs/architecture.md's recipes, held to their counts. A rule is one file (this one stands in
/// for it) and its line in the registry (here `Checker.rules`): nothing else names it, yet every
/// report format, the catalogue and the gate carry it. A fact's record form, copies and access
/// follow from its declaration alone.
struct RecipeTests {
    /// A scratch rule, as a new rule file would declare it: every still's file is named.
    enum ScratchRule: Rule {
        static let description = RuleDescription(
            identifier: "scratch-recipe-rule", title: "Scratch rule of the recipe test", severity: .error, category: .structure,
            confidence: .high, evidence: [.fileContent("the still's name")], rationale: "Stands in for a new rule.", fix: "Nothing to fix.")

        static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
            item.still.map { [Finding(rule: description.identifier, severity: description.severity, message: "A still <named> \($0.fileName).", path: $0.path)] } ?? []
        }

        static let examples: [RuleExample] = [.triggers("a still", Example.pair()), .passes("a movie alone", CheckItem(kind: .movieOnly, movie: Example.movie()))]
    }

    @Test("a scratch rule in its own file and one registry line reaches every report format, the catalogue and the gate")
    func ruleRecipe() throws {
        let samples = Locations.samples.path
        var checker = Checker(roots: [samples])
        checker.rules = RuleRegistry.all + [ScratchRule.self]
        let report = checker.run()
        let stills = report.items.filter { $0.still != nil }.count
        #expect(stills > 0)
        #expect(report.items.flatMap(\.findings).filter { $0.rule == ScratchRule.description.identifier }.count == stills)
        #expect(report.rules.contains { $0.identifier == ScratchRule.description.identifier })
        #expect(!report.passed)
        for reporter in CheckReporters.all {
            let text = reporter.render(report)
            #expect(text.contains(ScratchRule.description.identifier), "\(reporter.identifier)")
            // The message's markup is escaped wherever the format needs it.
            if reporter.identifier == "html" || reporter.identifier == "junit" || reporter.identifier == "plist" {
                #expect(!text.contains("<named>"), "\(reporter.identifier)")
            }
        }
        let catalogue = RuleCatalogue.markdown(RuleRegistry.descriptions + [RuleRegistry.describe(ScratchRule.self)])
        #expect(catalogue.contains(ScratchRule.description.identifier) && catalogue.contains(ScratchRule.description.rationale))
        // Its examples hold as the registry test holds every rule's.
        for example in ScratchRule.examples {
            #expect(ScratchRule.check(example.item, context: RuleContext()).isEmpty != example.triggers, "\(example.note)")
        }
        // Without the registry line, nothing of it is there.
        let without = Checker(roots: [samples]).run()
        #expect(!CheckJSON.render(without).contains(ScratchRule.description.identifier))
    }

    @Test("a fact's record form follows from its declaration: every recorded field of the facts is a key of its record, with no coding written for it")
    func factRecipe() throws {
        let facts = Example.everyField()
        let record = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(facts)) as? [String: Any])
        let declared = Mirror(reflecting: facts.fields).children.compactMap { $0.label.map { String($0.trimmingPrefix("_")) } }
        #expect(declared.count > 10)
        // The fields only an HTML page shows (NotRecorded) are no key.
        let pageOnly: Set<String> = ["thumbnail", "thumbnailProblem", "thumbnailTurned", "preview"]
        #expect(Set(record.keys) == Set(declared).subtracting(pageOnly))
        // Read back, they are the same facts (the synthesized coding both ways), but for those.
        var expected = facts
        (expected.thumbnail, expected.thumbnailProblem, expected.thumbnailTurned, expected.preview) = (nil, nil, nil, nil)
        let back = try JSONDecoder().decode(FileFacts.self, from: JSONEncoder().encode(facts))
        #expect(try sortedJSON(back) == sortedJSON(expected))
    }
}
