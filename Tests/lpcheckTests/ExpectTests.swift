import Foundation
import LivePhotoTestSupport
import Testing

/// `--expect`: a generator's output gated on what it should be. A plain JPEG and a one-frame
/// GIF (what video2livephoto writes) pass a check that expects nothing, and fail one that
/// expects Live Photos, each named.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ExpectTests {
    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments)
    }

    /// The smallest GIF: one transparent pixel.
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x21, 0xF9, 4, 1, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0,
                                                      1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]

    func folder(samples: [String], gif: Bool) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-expect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in samples {
            try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent(name), to: url.appendingPathComponent(name))
        }
        if gif { try Data(Self.gif).write(to: url.appendingPathComponent("live.gif")) }
        return url
    }

    /// The unexpected-item findings of a JSON report, by file name.
    func unexpected(_ report: ProcessResult) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: report.stdout) as? [String: Any])
        var found: [String: String] = [:]
        for item in json["items"] as? [[String: Any]] ?? [] {
            for finding in item["findings"] as? [[String: Any]] ?? [] where finding["rule"] as? String == "unexpected-item" {
                found[((finding["path"] as? String) ?? "") .split(separator: "/").last.map(String.init) ?? ""] = finding["message"] as? String
            }
        }
        return found
    }

    @Test("a plain JPEG and a one-frame GIF: PASS without --expect; --expect live-photo (or expect: in the configuration) exits 1 naming each")
    func plainStills() throws {
        let dir = try folder(samples: ["plain-frame.jpg"], gif: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try lpcheck(["check", dir.path]).status == 0)
        let expecting = try lpcheck(["check", dir.path, "--expect", "live-photo", "--format", "json"])
        #expect(expecting.status == 1)
        let found = try unexpected(expecting)
        #expect(Set(found.keys) == ["plain-frame.jpg", "live.gif"], "\(found)")
        #expect(found["live.gif"]?.contains("a still (GIF) with no content identifier") == true, "\(found)")
        #expect(found["plain-frame.jpg"]?.contains("(JPEG)") == true)
        let config = dir.appendingPathComponent("lpcheck.yml")
        try Data("expect: live-photo\n".utf8).write(to: config)
        let configured = try lpcheck(["check", dir.path, "--config", config.path])
        #expect(configured.status == 1)
        #expect(configured.text.contains("unexpected-item"), "\(configured.text)")
        try Data("expect: live-photos\n".utf8).write(to: config)
        #expect(try lpcheck(["check", dir.path, "--config", config.path]).status == 2)
    }

    @Test("a camera pair passes --expect live-photo and fails --expect motion-photo")
    func pair() throws {
        let dir = try folder(samples: ["camera-pair.jpg", "camera-pair.mov"], gif: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try lpcheck(["check", dir.path, "--expect", "live-photo"]).status == 0)
        let motion = try lpcheck(["check", dir.path, "--expect", "motion-photo", "--format", "json"])
        #expect(motion.status == 1)
        #expect(try unexpected(motion).values.first?.contains("a Live Photo pair") == true)
    }
}
