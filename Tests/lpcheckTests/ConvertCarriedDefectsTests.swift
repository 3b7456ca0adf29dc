import Foundation
import LivePhotoTestSupport
import Testing

/// A writer never calls its output worse for a defect its input already had (issue 52, point 9):
/// the movie rules read a motion photo's embedded movie too, so `check` says what a conversion
/// carries over, and the conversion goes ahead.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ConvertCarriedDefectsTests {
    @Test("two cut Pixel motion photos whose embedded movie has a zero-duration frame (ExifTool shows its video stts: 1 of 38 frames with delta 0): check says so of the motion photo; convert --to live-photo writes them, and check finds the same on the movie it wrote")
    func zeroDurationCarried() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let root = try #require(Locations.sharedSamples)
        let binary = try #require(Locations.lpcheckBinary).path
        let exiftool = try #require(Locations.tool("exiftool"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-carried-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["pixel-motion-photo-shortened", "pixel-motion-photo-without-exif-shortened"] {
            let photo = root.appendingPathComponent("androidx__media/\(name).jpg").path
            // The oracle: the file's tail ExifTool's reading of the XMP directory names (the video
            // item's Length; ExifTool extracts no movie from these cut files) holds a video packet
            // ffprobe times at 0.
            let embedded = folder.appendingPathComponent(name + ".mp4")
            let record = try JSONSerialization.jsonObject(with: try ProcessResult.run(exiftool, ["-j", "-n", "-struct", "-XMP:Directory", photo]).stdout) as? [[String: Any]]
            let items = (record?.first?["Directory"] as? [[String: Any]])?.compactMap { $0["Item"] as? [String: Any] } ?? []
            let length = try #require(items.last { ($0["Mime"] as? String ?? "").hasPrefix("video/") }?["Length"] as? Int, "\(name): ExifTool reads no video item")
            let file = try Data(contentsOf: URL(fileURLWithPath: photo))
            try #require(length > 8 && length <= file.count)
            try file.suffix(length).write(to: embedded)
            // ffprobe reads no packet of these cut movies; ExifTool's -v4 dump shows the video
            // track's stts bytes (its first), read here as (count, delta) entries.
            let dump = try ProcessResult.run(exiftool, ["-v4", embedded.path]).text
            let block = try #require(dump.components(separatedBy: "Tag 'stts'").dropFirst().first, "\(name): ExifTool shows no stts")
            var bytes: [UInt8] = []
            for line in block.split(separator: "\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":"), String(line[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: " |")).allSatisfy(\.isHexDigit) else { break }
                let hex = line[line.index(after: colon)...].prefix(49).split(separator: " ")
                bytes += hex.compactMap { UInt8($0, radix: 16) }
            }
            func word(_ at: Int) -> Int { at + 4 <= bytes.count ? bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } : -1 }
            let entries = word(4)
            let pairs = (0..<max(0, entries)).map { (count: word(8 + $0 * 8), delta: word(12 + $0 * 8)) }
            #expect(entries > 0 && bytes.count == 8 + entries * 8, "\(name): \(bytes.count) bytes of stts for \(entries) entries")
            #expect(pairs.filter { $0.delta == 0 }.reduce(0) { $0 + $1.count } == 1 && pairs.reduce(0) { $0 + $1.count } == 38, "\(name): \(pairs)")
            let checked = try ProcessResult.run(binary, ["check", photo])
            #expect(checked.text.contains("zero-duration-frames: 1 of 38 video frames of the embedded movie have zero duration"), "\(name): \(checked.text)")
            let converted = try ProcessResult.run(binary, ["convert", photo, "--to", "live-photo", "-o", folder.path, "--allow-loss", "--allow-damaged"], timeout: 120)
            #expect(converted.status == 0 && !converted.text.contains("worse than its input"), "\(name): \(converted.text.suffix(400))")
            let written = folder.appendingPathComponent(name + ".MOV").path
            let again = try ProcessResult.run(binary, ["check", written])
            #expect(again.text.contains("zero-duration-frames: 1 of 38 video frames have zero duration"), "\(name): \(again.text)")
        }
    }
}
