import Foundation
import LivePhotoCheck

extension CheckJSON {
    /// What a baseline needs of an earlier `check --format json` report: each finding's rule and
    /// path. Decoded with `Codable`, so a file that is not such a report is refused by name.
    struct BaselineDocument: Decodable {
        struct Item: Decodable { var findings: [Finding] }
        struct Finding: Decodable {
            var rule: String
            var path: String?
        }
        var tool: String
        var items: [Item]
    }

    /// Reads an earlier JSON report as a baseline (`--baseline`).
    public static func baseline(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Configuration.Problem(description: "\(path): cannot read the baseline")
        }
        let document: BaselineDocument
        do {
            document = try JSONDecoder().decode(BaselineDocument.self, from: data)
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
