import Foundation
import LivePhotoFormats
import LivePhotoReports
import LivePhotoTestSupport
import Testing

struct DumpReportTests {
    static let schema = Locations.reports.appendingPathComponent("dump.schema.json")

    static func generatedFiles() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: Locations.samples, includingPropertiesForKeys: nil)) ?? [])
            .filter { ["jpg", "mov"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
    }

    @Test("dump JSON of our samples validates against Reports/dump.schema.json")
    func generatedValidate() throws {
        let validator = try SchemaValidator(schemaURL: Self.schema)
        let files = Self.generatedFiles().map { MediaFile.inspect(path: $0.path) }
        #expect(files.count >= 6)
        let problems = try validator.validate(json: Data(DumpJSON.render(files).utf8))
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("dump JSON of every real sample validates against the schema", .enabled(if: Locations.hasSharedSamples))
    func realValidate() throws {
        let validator = try SchemaValidator(schemaURL: Self.schema)
        let files = SharedSamples.mediaFiles().map { MediaFile.inspect(path: $0.path) }
        let problems = try validator.validate(json: Data(DumpJSON.render(files).utf8))
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("the schema validator rejects what the schema forbids")
    func validatorCanFail() throws {
        let validator = try SchemaValidator(schemaURL: Self.schema)
        let file = MediaFile.inspect(path: Locations.samples.appendingPathComponent("camera-pair.mov").path)
        var object = DumpJSON.object(file)
        guard case .object(var pairs) = object else { Issue.record("not an object"); return }
        pairs.removeAll { $0.0 == "contentIdentifier" }
        pairs = pairs.map { $0.0 == "kind" ? ("kind", .string("sculpture")) : $0 }
        object = .object(pairs)
        let problems = try validator.validate(json: Data(JSONValue.array([object]).serialized().utf8))
        #expect(problems.contains { $0.contains("contentIdentifier") })
        #expect(problems.contains { $0.contains("kind") })
    }

    @Test("movie objects carry the contract fields")
    func contractFields() throws {
        let file = MediaFile.inspect(path: Locations.samples.appendingPathComponent("camera-pair.mov").path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(DumpJSON.render([file]).utf8)) as? [[String: Any]]).first
        #expect(json?["kind"] as? String == "movie")
        #expect(json?["format"] as? String == "QuickTime")
        #expect(json?["contentIdentifier"] as? String == file.contentIdentifier)
        let still = try #require(json?["stillImageTime"] as? [String: Any])
        #expect(still["value"] as? Int == -1)
        #expect((still["seconds"] as? Double).map { abs($0 - 0.5) < 1e-9 } == true)
    }

    @Test("file text is escaped in JSON and made safe for terminals")
    func escaping() {
        let hostile = "<script>alert(1)</script>\u{1B}[31m\u{0}\"\\"
        let json = JSONValue.string(hostile).serialized()
        #expect(!json.contains("<script>"))
        #expect(!json.contains("\u{1B}"))
        #expect(json.contains("\\u003cscript\\u003e"))
        let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) as? String
        #expect(parsed == hostile)
        // Multi-byte text passes through; the line separators that break <script> are escaped.
        let mixed = "é\u{2028}x\u{2029}🎞\u{7F}\t\n&\u{E2}"
        let serialized = JSONValue.string(mixed).serialized()
        #expect(serialized == "\"é\\u2028x\\u2029🎞\\u007f\\t\\n\\u0026\u{E2}\"")
        #expect((try? JSONSerialization.jsonObject(with: Data(serialized.utf8), options: [.fragmentsAllowed])) as? String == mixed)
        #expect(!hostile.terminalSafe.contains("\u{1B}"))
        #expect(hostile.terminalSafe.contains("\\u{1b}"))
    }
}
