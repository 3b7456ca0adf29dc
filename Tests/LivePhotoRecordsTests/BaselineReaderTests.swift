import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
@testable import LivePhotoRecords
import LivePhotoTestSupport
import Testing

/// The baseline is read by the records' JSON reader, which replaced Foundation's JSONDecoder
/// there: both give the same baseline from the same reports.
struct BaselineReaderTests {
    static func reports() -> [URL] {
        let root = Locations.packageRoot
        return ["Reports/examples/samples.json", "Tests/LivePhotoReportsTests/Golden/report.json"].map { root.appendingPathComponent($0) }
    }

    @Test("JSONReader and Foundation's JSONDecoder read the same baseline from lpcheck's own reports")
    func sameAsFoundation() throws {
        for url in Self.reports() {
            let bytes = [UInt8](try Data(contentsOf: url))
            let ours = try BaselineReader.read(bytes, path: url.path)
            let document = try JSONDecoder().decode(BaselineReader.Document.self, from: Data(bytes))
            let foundation = Set(document.items.flatMap { $0.findings.map { Baseline.Key(rule: $0.rule, path: $0.path ?? "") } })
            #expect(ours.accepted == foundation, "\(url.lastPathComponent)")
            #expect(!foundation.isEmpty, "\(url.lastPathComponent) has findings to compare")
        }
    }

    @Test("a file that is not an lpcheck report, or nests deeper than the reader's bound, is refused by name")
    func refusals() {
        for bytes in [Array("{\"tool\":\"other\",\"items\":[]}".utf8), Array("not json".utf8),
                      Array(String(repeating: "[", count: 10_000).utf8)] {
            #expect(throws: Configuration.Problem.self) { try BaselineReader.read(bytes, path: "b.json") }
        }
    }
}

extension BaselineReaderTests {
    @Test("a report naming a file whose name is not UTF-8 (\\udcXX, as reports write it) is a baseline whose path is the file's bytes again; another lone surrogate is refused")
    func nonUTF8Names() throws {
        let raw = PathBytes.string(Array("IMG_".utf8) + [0xE9] + Array(".JPG".utf8))
        struct Named: Decodable { var path: String }
        let read = try JSONReader.decode(Named.self, from: Array(#"{"path":"IMG_\udce9.JPG"}"#.utf8))
        #expect(read.path == raw)
        #expect(PathBytes.bytes(read.path) == Array("IMG_".utf8) + [0xE9] + Array(".JPG".utf8))
        #expect(throws: (any Error).self) { try JSONReader.decode(Named.self, from: Array(#"{"path":"IMG_\udc41.JPG"}"#.utf8)) }
        // What a report writes for such a path reads back as the same path.
        let written = JSONValue.object([("path", .string(raw))]).serialized(indent: nil)
        #expect(written.contains(#"\udce9"#))
        #expect(try JSONReader.decode(Named.self, from: Array(written.utf8)).path == raw)
    }
}
