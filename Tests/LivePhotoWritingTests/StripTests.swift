import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// `lpcheck strip`: motion photos and Live Photos made plain photos, held to outside readers:
/// the decoded pixels (libjpeg, libheif) equal the input's, ExifTool finds no motion tag and no
/// identifier, check calls the output a plain still, and the ledger's dropped list is the motion
/// and nothing of the still's own.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct StripTests {
    /// Every motion-photo and pairing tag ExifTool knows, asked by name.
    /// (GCamera holds other fields too: a Pixel's HDRPMakerNote stays.)
    static let motionTags = ["-XMP-GCamera:MotionPhoto*", "-XMP-GCamera:MicroVideo*", "-XMP-Container:all", "-XMP-GContainer:all", "-MotionPhotoVideo",
                             "-EmbeddedVideo", "-EmbeddedVideoFile", "-Samsung:all", "-Apple:ContentIdentifier", "-Apple:MediaGroupUUID", "-Keys:ContentIdentifier",
                             "-StillImageTime"]
    /// A still with no image data before its movie (nom-exif's synthetic file: no start of
    /// scan): cut there, it reads as truncated where the input's damage was its movie's, so even
    /// --force writes nothing.
    static let refusedEvenForced: Set<String> = ["motion_photo_pixel_synth.jpg"]

    /// The tags of `motionTags` ExifTool finds in `url`, by group and name.
    static func motionTagsFound(_ url: URL) throws -> [String] {
        let result = try Scratch.run("exiftool", ["-j", "-G1", "-a", "-n", "-ee", "-m"] + motionTags + [url.path])
        let record = try #require((try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])?.first)
        return record.keys.filter { $0 != "SourceFile" }.sorted()
    }

    /// What a ledger's dropped list may name: the movie (its tracks, keys and user data) and
    /// the XMP's motion-photo fields (Camera, GCamera, Container and its items).
    static func isMotion(_ entry: [String: Any]) -> Bool {
        let area = entry["area"] as? String ?? "", name = entry["name"] as? String ?? ""
        switch area {
        case "track", "key", "user-data": return true
        case "xmp": return ["http://ns.google.com/photos/1.0/camera/", "http://ns.google.com/photos/1.0/container/"].contains { name.hasPrefix($0) }
        case "maker-note": return name == "key 17"
        default: return false
        }
    }

    @Test("every motion photo with a movie strips to a plain still: the same pixels (libjpeg, libheif), no motion tag by ExifTool, not-live-photo by check, the ledger dropping only the motion; the schema holds the JSON")
    func motionPhotos() throws {
        let inputs = ConvertTests.motionPhotos()
        #expect(inputs.count >= 8, "motion photos with a movie: \(inputs.map(\.lastPathComponent))")
        let folder = try Scratch.folder("strip-motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("strip.schema.json"))
        var namedLosses = 0
        var refused = Set<String>()
        for (index, input) in inputs.enumerated() {
            let inFolder = folder.appendingPathComponent("in\(index)"), outFolder = folder.appendingPathComponent("out\(index)")
            try FileManager.default.createDirectory(at: inFolder, withIntermediateDirectories: true)
            let copy = try #require(try Scratch.copy([input], into: inFolder).first)
            let before = try Data(contentsOf: copy)
            // Without --force a plan that loses more than the motion waits, saying what.
            let plain = try Scratch.lpcheck(["strip", inFolder.path, "-o", outFolder.path, "--format", "json"])
            #expect(try validator.validate(json: plain.stdout).isEmpty)
            let document = try #require(try JSONSerialization.jsonObject(with: plain.stdout) as? [String: Any])
            let first = try #require((document["items"] as? [[String: Any]])?.first)
            let losses = first["losses"] as? [String] ?? [], damage = first["damage"] as? [String] ?? []
            if !losses.isEmpty || !damage.isEmpty {
                #expect(plain.status == 1 && first["status"] as? String == "failed" && losses.allSatisfy { $0.contains("not kept") }, "\(input.lastPathComponent): \(plain.text)")
                if !losses.isEmpty { namedLosses += 1 }
            }
            let run = losses.isEmpty && damage.isEmpty ? plain : try Scratch.lpcheck(["strip", inFolder.path, "-o", outFolder.path, "--format", "json", "--force"])
            if Self.refusedEvenForced.contains(input.lastPathComponent) {
                #expect(run.status == 1 && run.text.contains("reads as damaged: truncated-file") && !FileManager.default.fileExists(atPath: outFolder.appendingPathComponent(input.lastPathComponent).path),
                        "\(input.lastPathComponent): \(run.text)")
                refused.insert(input.lastPathComponent)
                continue
            }
            #expect(run.status == 0, "\(input.lastPathComponent): \(run.text) \(run.stderr)")
            #expect(try Data(contentsOf: copy) == before, "the input was written")
            let item = try #require(((try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["items"] as? [[String: Any]])?.first)
            #expect(item["status"] as? String == "stripped" && item["kind"] as? String == "motion-photo")
            let outputs = item["outputs"] as? [[String: Any]] ?? []
            try #require(outputs.count == 1, "\(input.lastPathComponent): \(run.text)")
            let still = URL(fileURLWithPath: try #require(outputs[0]["path"] as? String))
            #expect(!still.lastPathComponent.uppercased().contains(".MP."), "\(still.lastPathComponent): the .MP mark stays")
            // The ledger: what left is the motion, nothing of the still's own.
            let ledger = outputs[0]["ledger"] as? [String: Any] ?? [:]
            let dropped = ledger["dropped"] as? [[String: Any]] ?? []
            #expect(dropped.contains { $0["area"] as? String == "track" }, "\(input.lastPathComponent): the ledger names no track left out: \(dropped)")
            #expect(dropped.allSatisfy(Self.isMotion), "\(input.lastPathComponent) lost more than its motion: \(dropped.filter { !Self.isMotion($0) })")
            #expect((ledger["added"] as? [Any] ?? []).isEmpty, "\(input.lastPathComponent) gained \(ledger["added"] ?? [])")
            // ExifTool: no motion tag, no movie to extract.
            let found = try Self.motionTagsFound(still)
            #expect(found.isEmpty, "\(still.lastPathComponent): ExifTool finds \(found)")
            // check: a plain still, Google's reader's rules silent.
            let check = try Scratch.lpcheck(["check", outFolder.path, "--format", "json"])
            let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
            let items = report["items"] as? [[String: Any]] ?? []
            // A damaged input (forced) gives an output that reads as damaged as it did: unreadable.
            let kind = items.first?["kind"] as? String
            #expect(items.count == 1 && (kind == "not-live-photo" || (kind == "unreadable" && !damage.isEmpty)), "\(input.lastPathComponent): \(check.text)")
            let rules = (items.first?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            #expect(!rules.contains { $0.hasPrefix("motion-photo") }, "\(input.lastPathComponent): \(rules)")
            // The pixels: the input's primary image as libjpeg or libheif decodes it.
            if ConvertTests.undecodable.contains(input.lastPathComponent) {
                #expect(throws: FixtureError.self) { try ConvertTests.pixels(still) }
            } else {
                #expect(try ConvertTests.pixels(copy) == ConvertTests.pixels(still), "\(input.lastPathComponent)")
            }
        }
        #expect(namedLosses >= 2, "inputs with more than the motion to lose: \(namedLosses); the --force path went untried")
        #expect(refused == Self.refusedEvenForced, "\(refused)")
    }

    @Test("a camera pair strips to a still without MakerApple 0x0011, the same size, every other Apple tag as ExifTool reads the input's, the same pixels; --keep-movie writes its movie without the keys and still-image-time, the same frames (ffmpeg framemd5); check passes both as plain files")
    func cameraPairs() throws {
        let folder = try Scratch.folder("strip-pairs")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, pair) in ConvertTests.cameraPairs.enumerated() {
            let inFolder = folder.appendingPathComponent("in\(index)"), outFolder = folder.appendingPathComponent("out\(index)")
            try FileManager.default.createDirectory(at: inFolder, withIntermediateDirectories: true)
            let copies = try Scratch.copy([try #require(SharedSamples.url(pair.0)), try #require(SharedSamples.url(pair.1))], into: inFolder)
            let run = try Scratch.lpcheck(["strip", inFolder.path, "-o", outFolder.path, "--keep-movie"])
            #expect(run.status == 0, "\(pair.0): \(run.text) \(run.stderr)")
            #expect(run.text.contains("dropped: maker-note key 17"), "\(run.text)")
            let still = outFolder.appendingPathComponent(copies[0].lastPathComponent), movie = outFolder.appendingPathComponent(copies[1].lastPathComponent)
            let sizes = (try Data(contentsOf: still).count, try Data(contentsOf: copies[0]).count)
            #expect(sizes.0 == sizes.1, "\(pair.0): the still changed size")
            let found = try Self.motionTagsFound(still) + Self.motionTagsFound(movie)
            #expect(found.isEmpty, "ExifTool finds \(found)")
            // Every other Apple MakerNote tag as in the input.
            func apple(_ url: URL) throws -> [String: String] {
                let result = try Scratch.run("exiftool", ["-j", "-G1", "-a", "-n", "-Apple:all", url.path])
                let record = try #require((try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])?.first)
                return Dictionary(uniqueKeysWithValues: record.filter { $0.key != "SourceFile" }.map { ($0.key, "\($0.value)") })
            }
            var expected = try apple(copies[0])
            // Tag 0x0011 is ContentIdentifier in ExifTool 12.6x and later, MediaGroupUUID before.
            let removed = [expected.removeValue(forKey: "Apple:ContentIdentifier"), expected.removeValue(forKey: "Apple:MediaGroupUUID")].compactMap { $0 }
            #expect(removed.count == 1, "\(pair.0): the input's identifier as ExifTool reads it: \(removed)")
            #expect(try apple(still) == expected, "\(pair.0)")
            #expect(try ConvertTests.pixels(copies[0]) == ConvertTests.pixels(still), "\(pair.0)")
            #expect(try Scratch.frameChecksums(movie) == Scratch.frameChecksums(copies[1]), "\(pair.1)")
            let check = try Scratch.lpcheck(["check", outFolder.path, "--format", "json", "--fail-on", "warning"])
            #expect(check.status == 0, "\(check.text)")
            let kinds = ((try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == ["not-live-photo", "not-live-photo"], "\(kinds)")
        }
    }
}
