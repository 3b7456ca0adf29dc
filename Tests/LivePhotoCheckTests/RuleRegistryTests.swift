import Foundation
import LivePhotoCheck
import LivePhotoTestSupport
import Testing

/// Every registered rule's examples, run by one parameterised test: a new rule brings its tests.
struct RuleRegistryTests {
    static let rules = RuleRegistry.all.map { RuleCase(rule: $0) }

    struct RuleCase: CustomStringConvertible, @unchecked Sendable {
        let rule: any Rule.Type
        var description: String { rule.description.identifier }
    }

    @Test("each rule triggers on its failing examples and stays silent on its passing ones", arguments: rules)
    func examples(_ entry: RuleCase) {
        let rule = entry.rule
        let examples = rule.examples
        #expect(examples.contains { $0.triggers }, "\(entry): no failing example")
        #expect(examples.contains { !$0.triggers }, "\(entry): no passing example")
        for example in examples {
            let findings = rule.check(example.item, context: example.context)
            #expect(rule.fires(example.item, context: example.context) == !findings.isEmpty, "\(entry): fires disagrees with check on \(example.note)")
            #expect(findings.allSatisfy { $0.rule == rule.description.identifier && !$0.message.isEmpty })
            if example.triggers {
                #expect(!findings.isEmpty, "\(entry) should trigger on: \(example.note)")
            } else {
                #expect(findings.isEmpty, "\(entry) should not trigger on: \(example.note), got \(findings.map(\.message))")
            }
        }
    }

    @Test("the camera pair example raises nothing from any rule (but the wallpaper's: it is a JPEG pair)")
    func cleanPair() {
        for rule in RuleRegistry.all where rule.description.identifier != "wallpaper-still-not-heic" {
            #expect(rule.check(Example.pair(), context: RuleContext()).isEmpty, "\(rule.description.identifier)")
        }
    }

    @Test("identifiers are unique, stable-looking, and every rule is described")
    func descriptions() {
        let ids = RuleRegistry.descriptions.map(\.identifier)
        #expect(Set(ids).count == ids.count)
        for description in RuleRegistry.descriptions {
            #expect(description.identifier.allSatisfy { $0.isLowercase || $0 == "-" }, "\(description.identifier)")
            #expect(!description.title.isEmpty && !description.rationale.isEmpty && !description.fix.isEmpty)
        }
    }

    @Test("every rule states its confidence and its sources; a low-confidence rule's findings say what may happen, never that it will")
    func evidence() {
        for description in RuleRegistry.descriptions {
            #expect(!description.evidence.isEmpty, "\(description.identifier): no evidence")
            #expect(description.evidence.allSatisfy { $0.citation.count >= 8 }, "\(description.identifier): a citation that names nothing")
            // A measurement or a reference implementation backs what is high, or the bytes themselves.
            if description.confidence == .high {
                #expect(description.evidence.contains { $0.kind != .practitionerReports }, "\(description.identifier): high on reports alone")
            }
        }
        for rule in RuleRegistry.all where rule.description.confidence == .low {
            for example in rule.examples where example.triggers {
                for finding in rule.check(example.item, context: example.context) {
                    #expect([" may ", " probably ", " might "].contains { finding.message.contains($0) }, "\(rule.description.identifier): \(finding.message)")
                }
            }
        }
    }

    @Test("every file in Sources/LivePhotoCheck/Rules holds a registered rule")
    func everyRuleFileRegistered() throws {
        let folder = Locations.packageRoot.appendingPathComponent("Sources/LivePhotoCheck/Rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let names = Set(files.map { String($0.dropLast(".swift".count)) })
        #expect(names == Set(RuleRegistry.typeNames))
    }

    @Test("docs/rules.md is the current catalogue (`lpcheck rules --format markdown`)")
    func catalogueCurrent() throws {
        let binary = try #require(Locations.lpcheckBinary)
        let result = try ProcessResult.run(binary.path, ["rules", "--format", "markdown"])
        let stored = try String(contentsOf: Locations.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(result.text == stored, "regenerate with: lpcheck rules --format markdown > docs/rules.md")
    }
}
