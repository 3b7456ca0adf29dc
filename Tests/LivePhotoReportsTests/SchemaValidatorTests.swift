import Foundation
import LivePhotoTestSupport
import Testing

/// The validator the schema tests use (Python's jsonschema) can fail on every keyword lpcheck's
/// schemas use, refuses a keyword it does not know, and finds the faults a sabotaged record or
/// report would carry.
struct SchemaValidatorTests {
    /// A schema of its own in a temporary file.
    static func validator(_ schema: String, knownKeywords: Bool = true) throws -> (SchemaValidator, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-schema-\(UUID().uuidString).json")
        try Data(schema.utf8).write(to: url)
        return (try SchemaValidator(schemaURL: url, knownKeywords: knownKeywords), url)
    }

    static let header = #""$schema": "https://json-schema.org/draft/2020-12/schema""#

    /// (keyword, schema body, a document it passes, a document it fails).
    static let keywords: [(String, String, String, String)] = [
        ("type", #""type": "integer""#, "3", "\"3\""),
        ("enum", #""enum": ["pass", "fail"]"#, "\"pass\"", "\"maybe\""),
        ("const", #""const": 1"#, "1", "2"),
        ("required", #""type": "object", "required": ["kind"]"#, #"{"kind": 1}"#, #"{"other": 1}"#),
        ("properties", #""type": "object", "properties": {"size": {"type": "integer"}}"#, #"{"size": 4}"#, #"{"size": "4"}"#),
        ("items", #""type": "array", "items": {"type": "string"}"#, #"["a"]"#, #"["a", 1]"#),
        ("minimum", #""type": "integer", "minimum": 0"#, "0", "-1"),
        ("maximum", #""type": "integer", "maximum": 3"#, "3", "5"),
        ("minItems", #""type": "array", "minItems": 2"#, "[1, 2]", "[1]"),
        ("maxItems", #""type": "array", "maxItems": 2"#, "[1, 2]", "[1, 2, 3]"),
        ("additionalProperties", #""type": "object", "additionalProperties": {"type": "string"}"#, #"{"a": "x"}"#, #"{"a": 1}"#),
        ("$ref", ##""$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n""##, "1", "1.5"),
        ("oneOf", #""oneOf": [{"type": "integer"}, {"minimum": 0}]"#, "-1", "2"),
        ("allOf", #""allOf": [{"type": "integer"}, {"minimum": 0}]"#, "2", "-1"),
        ("if/then", #""if": {"type": "object", "required": ["a"]}, "then": {"required": ["b"]}"#, #"{"a": 1, "b": 2}"#, #"{"a": 1}"#),
    ]

    @Test("each keyword the published schemas use passes a valid document and fails an invalid one", arguments: keywords.map(\.0))
    func keywordCanFail(_ name: String) throws {
        let (_, body, good, bad) = try #require(Self.keywords.first { $0.0 == name })
        let (validator, url) = try Self.validator("{\(Self.header), \(body)}")
        defer { try? FileManager.default.removeItem(at: url) }
        let answers = try validator.validate(documents: [Data(good.utf8), Data(bad.utf8)])
        #expect(answers[0].isEmpty, "\(name): \(answers[0])")
        #expect(!answers[1].isEmpty, "\(name) let \(bad) through")
    }

    @Test("every validation keyword of Reports/*.schema.json is one the test above makes fail")
    func publishedKeywordsCovered() throws {
        let tested = Set(Self.keywords.flatMap { $0.0.split(separator: "/").map(String.init) })
        let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
        for name in ["check", "convert", "dump", "export", "facts", "make"] {
            let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Locations.reports.appendingPathComponent("\(name).schema.json")))
            var pending: [Any] = [schema], used = Set<String>()
            while let node = pending.popLast() {
                if let array = node as? [Any] { pending += array; continue }
                guard let object = node as? [String: Any] else { continue }
                for (key, value) in object {
                    used.insert(key)
                    if key == "properties" || key == "$defs" { pending += ((value as? [String: Any]) ?? [:]).values.map { $0 } } else if key != "enum" && key != "const" && key != "required" { pending.append(value) }
                }
            }
            #expect(used.subtracting(annotations).subtracting(tested).isEmpty, "\(name).schema.json uses \(used.subtracting(annotations).subtracting(tested)) untested")
        }
    }

    @Test("a keyword the validator does not know (a misspelt maximum) refuses the schema instead of checking nothing")
    func unknownKeywordRefused() throws {
        let (validator, url) = try Self.validator("{\(Self.header), \"type\": \"integer\", \"maximun\": 3}")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: FixtureError.self) { try validator.validate(json: Data("5".utf8)) }
    }

    @Test("sabotaged documents fail the published schemas: quarterTurns 5 in a scan record, a report item of an unknown kind, a record's directory field that is no string")
    func sabotagedDocumentsFail() throws {
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built")
        let scan = try ProcessResult.run(binary.path, ["scan", Locations.samples.appendingPathComponent("camera-pair.jpg").path])
        let record = try #require(scan.text.split(separator: "\n").first { $0.contains("\"quarterTurns\"") }, "the camera still's record states its quarter turns")
        let facts = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("facts.schema.json"))
        let sabotaged = record.replacingOccurrences(of: #""quarterTurns":0"#, with: #""quarterTurns":5"#)
        try #require(sabotaged != String(record), "no quarterTurns 0 in \(record)")
        let answers = try facts.validate(documents: [Data(record.utf8), Data(sabotaged.utf8)])
        #expect(answers[0].isEmpty, "\(answers[0])")
        #expect(answers[1].contains { $0.contains("quarterTurns") && $0.contains("5") }, "\(answers[1])")

        let report = try ProcessResult.run(binary.path, ["check", Locations.samples.path, "--format", "json"]).text
        let check = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        let unknownKind = report.replacingOccurrences(of: #""kind": "pair""#, with: #""kind": "triple""#)
        try #require(unknownKind != report)
        let checked = try check.validate(documents: [Data(report.utf8), Data(unknownKind.utf8)])
        #expect(checked[0].isEmpty, "\(checked[0])")
        #expect(checked[1].contains { $0.contains("triple") }, "\(checked[1])")
    }
}
