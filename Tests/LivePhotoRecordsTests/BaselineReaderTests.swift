import Foundation
import LivePhotoCheck
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
