import Foundation
import LivePhotoTestSupport
import Testing

/// `export --quality`: the re-timed movies' CRF.
extension ExportTests {
    @Test("--quality is the encoder's CRF: on train.mov's reverse, CRF 35 writes less than the default and CRF 10 more, the plan saying which; --quality with --as loop or gif, or out of 0–51, is refused as bad usage")
    func qualityOption() throws {
        let input = Self.inputs[1]
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, _) = try prepare(input, in: folder)
        var sizes: [String: Int] = [:]
        for (name, extra) in [("default", [String]()), ("35", ["--quality", "35"]), ("10", ["--quality", "10"])] {
            let output = folder.appendingPathComponent("out-\(name)")
            let export = try lpcheck(["export", inputs.path, "--as", "reverse", "--output", output.path, "--no-progress"] + extra)
            #expect(export.status == 0 && export.text.contains(extra.isEmpty ? "at most 1.3× the source's bit rate" : "CRF \(name)"), "\(export.text)\(export.stderr)")
            sizes[name] = (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("\(input.output).reverse.mov").path)[.size] as? Int) ?? nil
        }
        let (plain, small, large) = (try #require(sizes["default"]), try #require(sizes["35"]), try #require(sizes["10"]))
        #expect(small < plain && plain < large, "\(sizes)")
        for bad in [["--as", "loop", "--quality", "20"], ["--as", "gif", "--quality", "20"], ["--as", "reverse", "--quality", "52"]] {
            let refused = try lpcheck(["export", inputs.path, "--output", folder.appendingPathComponent("bad").path, "--no-progress"] + bad)
            #expect(refused.status == 2 && refused.stderr.contains("--quality"), "\(bad): \(refused.status) \(refused.stderr)")
        }
    }
}
