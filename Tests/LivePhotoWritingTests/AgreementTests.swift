import Foundation
import LivePhotoTestSupport
import Testing

/// The agreement rules on real camera pairs of ../shared/samples, changed by ExifTool and
/// ffmpeg as users' tools change them: each change gives exactly the rule that names it, and
/// the untouched pairs give none.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.tool("exiftool") != nil && Locations.lpcheckBinary != nil,
                "needs ../shared/samples, exiftool and the lpcheck binary"))
struct AgreementTests {
    static let rules: Set<String> = ["capture-time-mismatch", "capture-zone-mismatch", "movie-header-time-mismatch", "capture-device-mismatch",
                                     "capture-software-mismatch", "capture-place-mismatch", "orientation-mismatch", "picture-aspect-mismatch",
                                     "sidecar-time-mismatch"]

    /// The agreement rules a check of `folder` reports, by rule, with their messages.
    static func agreementFindings(_ folder: URL) throws -> [String: [String]] {
        let report = folder.appendingPathComponent("report.json")
        _ = try Scratch.lpcheck(["check", folder.path, "--format", "json", "--output", report.path, "--quiet", "--fail-on", "never"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        try FileManager.default.removeItem(at: report)
        var found: [String: [String]] = [:]
        for item in json["items"] as? [[String: Any]] ?? [] {
            for finding in item["findings"] as? [[String: Any]] ?? [] {
                guard let rule = finding["rule"] as? String, rules.contains(rule) else { continue }
                found[rule, default: []].append(finding["message"] as? String ?? "")
            }
        }
        return found
    }

    /// A folder holding copies of a shared pair, with `change` applied to it.
    static func pair(_ still: String, _ movie: String, _ change: (URL, URL) throws -> Void) throws -> URL {
        let folder = try Scratch.folder("agreement")
        let files = try Scratch.copy([try #require(SharedSamples.url(still)), try #require(SharedSamples.url(movie))], into: folder)
        try change(files[0], files[1])
        return folder
    }

    static func exiftool(_ arguments: [String], _ file: URL) throws {
        let result = try Scratch.run("exiftool", ["-q", "-overwrite_original"] + arguments + [file.path])
        #expect(result.status == 0, "exiftool \(arguments): \(result.stderr)")
    }

    static let apple = ("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV")
    static let train = ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov")

    @Test("every real camera pair gets no agreement finding")
    func cameraPairsAgree() throws {
        let found = try Self.agreementFindings(try #require(Locations.sharedSamples))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("a movie dated a day later, the same instant in UTC, GPS moved 1.2 km, the matrix turned to 0°: exactly the rule that names each",
          arguments: [
              (["-Keys:CreationDate=2025:10:13 23:36:14+13:00"], "capture-time-mismatch"),
              (["-Keys:CreationDate=2025:10:12 10:36:14+00:00"], "capture-zone-mismatch"),
              (["-Keys:GPSCoordinates#=-37.80 175.2995 35"], "capture-place-mismatch"),
              (["-Rotation=0"], "orientation-mismatch"),
              (["-Keys:Model=iPhone 12"], "capture-device-mismatch"),
          ])
    func changedMovie(_ change: [String], rule: String) throws {
        let folder = try Self.pair(Self.apple.0, Self.apple.1) { _, movie in try Self.exiftool(change, movie) }
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try Self.agreementFindings(folder)
        #expect(Set(found.keys) == [rule], "\(change): \(found)")
    }

    @Test("a still cropped square (ffmpeg, its metadata copied back by ExifTool) and a still saved by an editor: exactly their rules")
    func changedStill() throws {
        try #require(Locations.tool("ffmpeg") != nil, "ffmpeg is not installed")
        let cropped = try Self.pair(Self.train.0, Self.train.1) { still, _ in
            let original = still.deletingLastPathComponent().appendingPathComponent("original.jpeg")
            try FileManager.default.moveItem(at: still, to: original)
            _ = try Scratch.run("ffmpeg", ["-v", "error", "-i", original.path, "-vf", "crop=3024:3024", "-q:v", "3", still.path])
            try Self.exiftool(["-tagsFromFile", original.path, "-all:all"], still)
            try FileManager.default.removeItem(at: original)
        }
        defer { try? FileManager.default.removeItem(at: cropped) }
        #expect(Set(try Self.agreementFindings(cropped).keys) == ["picture-aspect-mismatch"])
        let edited = try Self.pair(Self.train.0, Self.train.1) { still, _ in try Self.exiftool(["-Software=Adobe Photoshop Lightroom Classic 12.0"], still) }
        defer { try? FileManager.default.removeItem(at: edited) }
        #expect(Set(try Self.agreementFindings(edited).keys) == ["capture-software-mismatch"])
    }

    @Test("a still of another capture given the movie's identifier (lpcheck make): time, device, software, place and orientation all disagree")
    func stillOfAnotherCapture() throws {
        let folder = try Scratch.folder("agreement-make")
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = try #require(SharedSamples.url("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC"))
        let movie = try #require(SharedSamples.url(Self.apple.1))
        let made = try Scratch.lpcheck(["make", still.path, movie.path, "--output", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        let found = try Self.agreementFindings(folder)
        #expect(Set(found.keys) == ["capture-time-mismatch", "capture-device-mismatch", "capture-software-mismatch", "capture-place-mismatch", "orientation-mismatch"],
                "\(found)")
    }

    /// ExifTool's reading of the still's capture: the instant (Unix seconds, from
    /// SubSecDateTimeOriginal with its zone) and the local clock (`YYYY-MM-DDTHH:MM:SS`).
    static func stillCapture(_ still: URL) throws -> (instant: Int, clock: String) {
        let instant = try Scratch.run("exiftool", ["-s3", "-d", "%s", "-SubSecDateTimeOriginal", still.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let clock = try Scratch.run("exiftool", ["-s3", "-d", "%Y-%m-%dT%H:%M:%S", "-DateTimeOriginal", still.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (try #require(Int(instant.prefix { $0.isNumber })), clock)
    }

    @Test("Takeout .json and XMP sidecars: the still's own time passes; a day off, or 7 min off any zone, gives exactly sidecar-time-mismatch",
          arguments: [(0, 0, false), (86_400, 0, true), (0, 420, true)])
    func sidecars(takeoutShift: Int, xmpShift: Int, triggers: Bool) throws {
        let folder = try Self.pair(Self.train.0, Self.train.1) { still, _ in
            let capture = try Self.stillCapture(still)
            // Takeout's layout: photoTakenTime.timestamp, Unix seconds as a string.
            let takeout = "{\"title\": \"train.jpg\", \"photoTakenTime\": {\"timestamp\": \"\(capture.instant + takeoutShift)\", \"formatted\": \"\"}}"
            try Data(takeout.utf8).write(to: still.deletingLastPathComponent().appendingPathComponent("train.jpg.supplemental-metadata.json"))
            // An XMP sidecar's date without a zone: the still's clock (shifted by whole minutes).
            let clock = try #require(ISO8601DateFormatter().date(from: capture.clock + "Z")).addingTimeInterval(TimeInterval(xmpShift))
            let xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description "
                + "xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:DateTimeOriginal=\"\(String(ISO8601DateFormatter().string(from: clock).dropLast()))\"/></rdf:RDF></x:xmpmeta>"
            try Data(xmp.utf8).write(to: still.deletingLastPathComponent().appendingPathComponent("train.xmp"))
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try Self.agreementFindings(folder)
        #expect(Set(found.keys) == (triggers ? ["sidecar-time-mismatch"] : []), "\(found)")
        if triggers {
            #expect(found["sidecar-time-mismatch"]?.count == 1)
            #expect(found["sidecar-time-mismatch"]?.first?.contains(takeoutShift > 0 ? "train.jpg.supplemental-metadata.json" : "train.xmp") == true)
        }
    }
}
