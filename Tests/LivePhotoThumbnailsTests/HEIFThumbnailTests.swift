import Foundation
@testable import LivePhotoThumbnails
import LivePhotoTestSupport
import Testing

/// HEIC thumbnails through libheif, and the PNG writer, checked with Pillow as an independent reader.
struct HEIFThumbnailTests {
    /// Pillow's reading of a PNG: "WIDTHxHEIGHT MODE sha256-of-pixels".
    static func pillow(_ png: [UInt8]) throws -> String? {
        try Locations.require(Locations.tool("python3") != nil, "python3")
        let python = try #require(Locations.tool("python3"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = "import sys,hashlib\nfrom PIL import Image\nim=Image.open(sys.argv[1]); im.load()\nprint(f'{im.size[0]}x{im.size[1]} {im.mode} ' + hashlib.sha256(im.tobytes()).hexdigest())"
        let result = try ProcessResult.run(python, ["-c", script, file.path])
        return result.status == 0 ? result.text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test("PNGWriter's pixels read back through Pillow, one stored block and many", arguments: [(7, 5), (200, 120)])
    func pngWriter(_ size: (Int, Int)) throws {
        let (width, height) = size
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        let png = PNGWriter.rgb(pixels, width: width, height: height)
        let read = try #require(try Self.pillow(png), "Pillow is not available (bootstrap installs pillow-heif, which brings it)")
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(UUID().uuidString).rgb")
        try Data(pixels).write(to: raw)
        defer { try? FileManager.default.removeItem(at: raw) }
        let digest = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", "import sys,hashlib; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", raw.path])
        #expect(read == "\(width)x\(height) RGB \(digest.text.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    @Test("a HEIC's thumbnail: a PNG of at most 160 pixels a side; a file libheif cannot read is an error, not a crash",
          .enabled(if: HEIFThumbnail.availability().available && Locations.hasSharedSamples, "needs libheif (apt install libheif1) and ../shared/samples"))
    func heicThumbnail() throws {
        let heics = SharedSamples.mediaFiles().filter { ["heic"].contains($0.pathExtension.lowercased()) && !$0.lastPathComponent.contains("truncated") }
        #expect(heics.count >= 5)
        var made = 0
        for url in heics {
            let result = HEIFThumbnail.png(path: url.path)
            // Debian 12's libheif 1.15 reads no HEIC of iOS 18 or later among the samples; an error, never a crash.
            if case .failure(let why) = result { #expect(why.message.hasPrefix("libheif"), "\(url.lastPathComponent): \(why)") }
            guard case .success(let png) = result else { continue }
            made += 1
            let read = try #require(try Self.pillow(png))
            let dimensions = try #require(read.split(separator: " ").first).split(separator: "x").compactMap { Int($0) }
            #expect(dimensions.count == 2 && max(dimensions[0], dimensions[1]) <= 160 && min(dimensions[0], dimensions[1]) >= 1, "\(url.lastPathComponent): \(read)")
        }
        #expect(made >= 15, "\(made) of \(heics.count)")
        // A file that is not HEIF: an error, not a crash.
        let readme = try #require(SharedSamples.url("README.md"))
        guard case .failure = HEIFThumbnail.png(path: readme.path) else { Issue.record("a README became a thumbnail"); return }
    }
}
