import Foundation
import LivePhotoCheck
import LivePhotoFormats
@testable import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// A target is one declaration (`Sources/LivePhotoCheck/Targets/`): everything that names
/// targets follows from `Target.allCases`, and the schema lists each one.
struct TargetTests {
    @Test("each target's place in allCases is its index, names are unique, and the verdicts fit their two bits a target")
    func declarations() {
        #expect(Target.allCases.count <= 16)
        #expect(Set(Target.allCases.map(\.rawValue)).count == Target.allCases.count)
        for (position, target) in Target.allCases.enumerated() {
            #expect(Target(rawValue: target.rawValue) == target)
            #expect(Target.allCases.firstIndex(of: target) == position)
            #expect(!target.summary.isEmpty)
            // Every target judges some kind of item and is judged by some rule.
            #expect(ItemKind.allCases.contains { target.judges($0) }, "\(target)")
            #expect(RuleRegistry.descriptions.contains { $0.targets.contains(target) }, "\(target)")
            // Setting one target's verdict leaves the others as they were.
            var verdicts = Verdicts()
            for other in Target.allCases { verdicts[other] = .uncertain }
            verdicts[target] = .pass
            #expect(verdicts.all.map(\.verdict) == Target.allCases.enumerated().map { $0.offset == position ? .pass : .uncertain })
            verdicts[target] = nil
            #expect(verdicts.all.count == Target.allCases.count - 1)
        }
    }

    /// A report whose one item has a verdict for every target (no real item is judged by all).
    static func report(_ verdict: Verdict) -> CheckReport {
        var item = Pairing.items([Example.still("shots/IMG_0001.JPG"), Example.movie("shots/IMG_0001.MOV")])[0]
        for target in Target.allCases { item.verdicts[target] = verdict }
        return CheckReport(version: "0.0.0-test", roots: ["shots"], items: [item], rules: RuleRegistry.descriptions, failOn: .error)
    }

    @Test("every target has its JSON field, plist key, HTML badge and text line, and the schema lists it where targets are named",
          arguments: Verdict.allCases)
    func outputsFollow(_ verdict: Verdict) throws {
        let report = Self.report(verdict)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(CheckJSON.render(report).utf8)) as? [String: Any])
        let item = try #require((json["items"] as? [[String: Any]])?.first)
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(CheckPlist.render(report).utf8), format: nil) as? [String: Any])
        let plistItem = try #require((plist["items"] as? [[String: Any]])?.first)
        let html = CheckHTML.render(report)
        let text = CheckText.render(report)
        let summary = try #require((json["summary"] as? [String: Any])?["verdicts"] as? [String: [String: Int]])
        for target in Target.allCases {
            #expect((item["verdicts"] as? [String: String])?[target.rawValue] == verdict.rawValue, "\(target)")
            #expect((plistItem["verdicts"] as? [String: String])?[target.rawValue] == verdict.rawValue, "\(target)")
            #expect(html.contains("<span class=\"verdict \(verdict.rawValue)\">\(target.rawValue): \(verdict.rawValue)</span>"), "\(target)")
            #expect(html.contains("<tr><td>\(target.rawValue)</td>"), "\(target)")
            #expect(text.contains("\(target.rawValue) 1 \(verdict.rawValue)"), "\(target)")
            #expect(summary[target.rawValue]?[verdict.rawValue] == 1, "\(target)")
        }
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        #expect(try validator.validate(json: Data(CheckJSON.render(report).utf8)).isEmpty)
    }

    @Test("the schema names every target: the summary's required verdicts, an item's verdicts (no others allowed), a rule's judges")
    func schemaNamesEveryTarget() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Locations.reports.appendingPathComponent("check.schema.json"))) as? [String: Any])
        func node(_ path: [String]) -> [String: Any]? {
            path.reduce(schema as [String: Any]?) { $0?[$1] as? [String: Any] }
        }
        let definitions = try #require(node(["definitions"]) ?? node(["$defs"]))
        func find(_ key: String, in value: Any, depth: Int = 0) -> [[String: Any]] {
            guard depth < 12 else { return [] }
            if let object = value as? [String: Any] {
                let here = (object[key] as? [String: Any]).map { [$0] } ?? []
                return here + object.filter { $0.key != key }.values.flatMap { find(key, in: $0, depth: depth + 1) }
            }
            if let array = value as? [Any] { return array.flatMap { find(key, in: $0, depth: depth + 1) } }
            return []
        }
        let verdictObjects = find("verdicts", in: schema)
        #expect(verdictObjects.count >= 2)
        let names = Target.allCases.map(\.rawValue)
        for object in verdictObjects {
            let properties = try #require(object["properties"] as? [String: Any])
            #expect(Set(properties.keys) == Set(names), "\(object["description"] ?? "")")
        }
        #expect(verdictObjects.contains { ($0["required"] as? [String]).map(Set.init) == Set(names) })
        #expect(verdictObjects.contains { $0["additionalProperties"] as? Bool == false })
        let judges = try #require(find("judges", in: definitions).first ?? find("judges", in: schema).first)
        let target = try #require(((judges["items"] as? [String: Any])?["properties"] as? [String: Any])?["target"] as? [String: Any])
        #expect((target["enum"] as? [String]).map(Set.init) == Set(names))
    }
}
