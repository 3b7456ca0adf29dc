import Foundation
import LivePhotoTestSupport
import Testing

/// Scratch folders and the tools the repair tests use as oracles.
enum Scratch {
    static func folder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies files into `folder` (writable copies; the shared originals stay read-only and in place).
    static func copy(_ urls: [URL], into folder: URL) throws -> [URL] {
        try urls.map { source in
            let target = folder.appendingPathComponent(source.lastPathComponent)
            try Data(contentsOf: source).write(to: target)
            return target
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.tool(tool), "\(tool) is not installed (Scripts/bootstrap.sh installs it)"), arguments)
    }

    /// ffmpeg's per-frame checksums of the video, without the header lines. ffmpeg must end
    /// well and give at least one frame: two empty outputs compare equal, and compare nothing
    /// (`Undecodable` throws; a test that expects it names the file, `ConvertTests.undecodableMovies`).
    static func frameChecksums(_ url: URL) throws -> String {
        let result = try run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"])
        let frames = result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        guard result.status == 0, !frames.isEmpty else {
            throw Undecodable(message: "ffmpeg decodes \(frames.count) frames of \(url.lastPathComponent) (exit \(result.status)): \(result.stderr.prefix(300))")
        }
        return frames.joined(separator: "\n")
    }

    /// A movie no decoder reads: ffmpeg fails on it or gives no frame.
    struct Undecodable: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// ffmpeg's checksum of every video packet as stored, with its timing, and of the decoder
    /// configuration (extradata), without decoding: equal for a movie whose video samples kept
    /// every byte and whose sample tables still find them. About 1/20 of `frameChecksums`'
    /// time on a camera movie (no HEVC decoding), for tests that rewrite many movies' metadata.
    static func packetChecksums(_ url: URL) throws -> String {
        let result = try run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text.split(separator: "\n").filter { !$0.hasPrefix("#software") }.joined(separator: "\n")
    }

    /// ExifTool's view of the three markers.
    static func exiftool(_ url: URL) throws -> [String: Any] {
        let result = try run("exiftool", ["-j", "-G1", "-a", "-n", "-ee", "-Apple:ContentIdentifier", "-Apple:MediaGroupUUID", "-Keys:ContentIdentifier", "-StillImageTime", url.path])
        return try #require((try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])?.first)
    }

    /// `exiftool(_:)` for many files in one ExifTool run (Perl starts once), keyed by path.
    static func exiftool(_ urls: [URL]) throws -> [String: [String: Any]] {
        guard !urls.isEmpty else { return [:] }
        let result = try run("exiftool", ["-j", "-G1", "-a", "-n", "-ee", "-Apple:ContentIdentifier", "-Apple:MediaGroupUUID", "-Keys:ContentIdentifier", "-StillImageTime"]
                             + urls.map(\.path))
        let records = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(records.count == urls.count, "\(result.stderr)")
        return Dictionary(records.compactMap { record in (record["SourceFile"] as? String).map { ($0, record) } }, uniquingKeysWith: { first, _ in first })
    }

    static func stillIdentifier(_ record: [String: Any]) -> String? { (record["Apple:ContentIdentifier"] ?? record["Apple:MediaGroupUUID"]) as? String }
    static func stillImageTime(_ record: [String: Any]) -> Int? { record.first { $0.key.hasSuffix(":StillImageTime") }?.value as? Int }

    static func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary, "lpcheck is not built").path, arguments, environment: environment)
    }

    static func sha(_ url: URL) throws -> Data {
        // A cheap content fingerprint: the bytes themselves are small enough here.
        try Data(contentsOf: url)
    }
}
