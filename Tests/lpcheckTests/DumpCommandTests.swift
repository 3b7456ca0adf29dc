import Foundation
import LivePhotoTestSupport
import Testing

/// The built binary on real inputs.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct DumpCommandTests {
    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments)
    }

    func sample(_ name: String) -> String { Locations.samples.appendingPathComponent(name).path }

    @Test("dump --format json: one object per file, an unreadable file gets an error and the rest go on")
    func jsonWithError() throws {
        let missing = Locations.samples.appendingPathComponent("no-such-file.mov").path
        let result = try lpcheck(["dump", "--format", "json", sample("camera-pair.jpg"), missing, sample("camera-pair.mov")])
        #expect(result.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(array.count == 3)
        #expect(array[0]["kind"] as? String == "still")
        #expect(array[0]["error"] is NSNull)
        let error = try #require(array[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "io")
        #expect(error["offset"] as? Int == 0)
        #expect(array[2]["kind"] as? String == "movie")
        #expect(array[0]["contentIdentifier"] as? String == array[2]["contentIdentifier"] as? String)
    }

    @Test("text dump shows the markers; --stats shows bytes read; exit 0 when all were read")
    func text() throws {
        let result = try lpcheck(["dump", "--stats", sample("camera-pair.mov")])
        #expect(result.status == 0)
        #expect(result.text.contains("content identifier: 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34"))
        #expect(result.text.contains("still-image-time: value -1, at 0.5 s"))
        #expect(result.text.contains("stsd mebx"))
        #expect(result.text.contains("stats: read "))
    }

    @Test("bad usage exits 2; --help lists dump")
    func usage() throws {
        #expect(try lpcheck(["dump"]).status == 2)
        #expect(try lpcheck(["--no-such-flag"]).status == 2)
        let help = try lpcheck(["--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("dump"))
    }
}
