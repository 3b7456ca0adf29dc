import Foundation
import LivePhotoCheck

/// Reads an earlier `check --format json` report as a baseline (`--baseline`): each finding's rule
/// and path. Decoded through `JSONReader` (the records' reader: nesting bounded, every value
/// checked), so a file that is not such a report is refused by name.
public enum BaselineReader {
    struct Document: Decodable {
        struct Item: Decodable { var findings: [Finding] }
        struct Finding: Decodable {
            var rule: String
            var path: String?
        }
        var tool: String
        var items: [Item]
    }

    public static func read(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Configuration.Problem(description: "\(path): cannot read the baseline")
        }
        return try read(Array(data), path: path)
    }

    static func read(_ bytes: [UInt8], path: String) throws -> Baseline {
        let document: Document
        do {
            document = try JSONReader.decode(Document.self, from: bytes)
        } catch {
            throw Configuration.Problem(description: "\(path): not an lpcheck JSON report (\(error))")
        }
        guard document.tool == "lpcheck" else { throw Configuration.Problem(description: "\(path): a report of \(document.tool), not lpcheck") }
        var keys = Set<Baseline.Key>()
        for item in document.items {
            for finding in item.findings { keys.insert(Baseline.Key(rule: finding.rule, path: finding.path ?? "")) }
        }
        return Baseline(accepted: keys)
    }
}
