import Foundation
import LivePhotoTestSupport
import Testing

/// Hundreds of truncated and byte-flipped copies of real (or, without them, our own) samples run
/// through the built binary: no crash, no hang, every damaged file reported with an offset.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct HostileCLITests {
    static func sources() -> [URL] {
        let real = ["LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov", "Bai-Mirror__pyheic_struct/apple.HEIC",
                    "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV", "androidx__media/pixel-motion-photo-shortened.jpg",
                    "drewnoakes__metadata-extractor-images/exif-at-eof.heic"].compactMap(SharedSamples.url)
        let own = ["camera-pair.jpg", "camera-pair.mov", "software-pair.mov"].map { Locations.samples.appendingPathComponent($0) }
        return real.filter { FileManager.default.fileExists(atPath: $0.path) } + own
    }

    @Test("dump and check on 300 damaged copies: no crash, no hang, offsets for all")
    func damagedCopies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SeededGenerator(seed: 2026)
        var paths: [String] = []
        let sources = Self.sources()
        for index in 0..<300 {
            let source = sources[index % sources.count]
            var bytes = try [UInt8](Data(contentsOf: source))
            // Metadata sits at the start (stills, faststart) or the end (camera movies).
            let window = min(bytes.count, 96 * 1024)
            let nearEnd = source.pathExtension.lowercased() == "mov"
            let region = nearEnd ? (bytes.count - window)..<bytes.count : 0..<window
            if index % 2 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: region, using: &generator)))
            } else {
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: region, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            let name = String(format: "damaged-%03d.%@", index, source.pathExtension)
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            paths.append(folder.appendingPathComponent(name).path)
        }
        let binary = try #require(Locations.lpcheckBinary).path
        for batch in stride(from: 0, to: paths.count, by: 100) {
            let dump = try ProcessResult.run(binary, ["dump", "--format", "json"] + Array(paths[batch..<min(batch + 100, paths.count)]), timeout: 120)
            #expect(dump.status == 0 || dump.status == 1, "dump ended with \(dump.status): \(dump.stderr.suffix(300))")
            let objects = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]])
            #expect(objects.count == min(100, paths.count - batch))
            for object in objects {
                if let error = object["error"] as? [String: Any] {
                    #expect(error["offset"] is Int && error["path"] is String && error["code"] is String)
                }
            }
        }
        let check = try ProcessResult.run(binary, ["check", folder.path, "--format", "json", "--fail-on", "never"], timeout: 120)
        #expect(check.status == 0, "check ended with \(check.status): \(check.stderr.suffix(300))")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        let placed = items.flatMap { [$0["still"] as? String, $0["movie"] as? String].compactMap { $0 } }
        #expect(placed.count == paths.count, "every damaged file is in the report")
        for item in items where item["kind"] as? String == "unreadable" {
            let findings = try #require(item["findings"] as? [[String: Any]])
            #expect(findings.contains { $0["offset"] is Int }, "\(item)")
        }
    }
}
