import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck keyphoto`: a new key photo for each camera pair of the shared samples, held to
/// ffprobe (the still-image-time where asked), ffmpeg and libheif or libjpeg (the still is the
/// frame shown there, as displayed), ExifTool (one identifier in both files, the old still's
/// Exif carried, its size the new picture's) and lpcheck's own check.
extension MakeClipTests {
    static let cameraPairs = [
        ("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"),
        ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"),
        ("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"),
        ("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV"),
    ]

    /// The identifier ExifTool reads in a still's MakerApple (0x0011: ContentIdentifier in
    /// ExifTool 12.6x and later, MediaGroupUUID before).
    func stillIdentifier(_ still: URL) throws -> String {
        let named = try exif("Apple:ContentIdentifier", still)
        return named.isEmpty ? try exif("Apple:MediaGroupUUID", still) : named
    }

    @Test("keyphoto --time 0.4 on every camera pair: ffprobe's still-image-time at 0.4 s, the still ffmpeg's frame there as displayed at ≥ 38 dB, one identifier in both files by ExifTool, the old still's capture date and model carried with its size made the new picture's; no finding; the inputs untouched",
          arguments: MakeClipTests.cameraPairs.map { [$0.0, $0.1] })
    func newKeyPhoto(_ pair: [String]) throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let copies = try pair.map { relative -> URL in
            let copy = work.appendingPathComponent((relative as NSString).lastPathComponent)
            try FileManager.default.copyItem(at: try sample(relative), to: copy)
            return copy
        }
        let (oldStill, movie) = (copies[0], copies[1])
        let before = try copies.map { try Data(contentsOf: $0) }
        let identifier = try exif("Keys:ContentIdentifier", movie)
        let oldIdentifier = try stillIdentifier(oldStill)
        #expect(identifier.count == 36 && oldIdentifier == identifier, "\(pair): not one Live Photo to begin with")
        let out = work.appendingPathComponent("out")
        let made = try lpcheck(["keyphoto", oldStill.path, movie.path, "--time", "0.4", "-o", out.path])
        #expect(made.status == 0 && made.text.contains("a new key photo for"), "\(made.text)\(made.stderr)")
        #expect(try copies.map { try Data(contentsOf: $0) } == before, "an input was written")
        try expectClean(out)
        let still = out.appendingPathComponent(try #require(contents(out).first { !$0.hasSuffix(".MOV") }))
        let written = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))
        #expect(still.pathExtension.lowercased() == oldStill.pathExtension.lowercased() || (oldStill.pathExtension.lowercased() == "jpg" && still.pathExtension == "JPG"),
                "\(still.lastPathComponent): not the old still's format")
        // One identifier: the pair's, in both.
        let identifiers = (try stillIdentifier(still), try exif("Keys:ContentIdentifier", written))
        #expect(identifiers.0 == identifier && identifiers.1 == identifier, "\(identifiers)")
        let moment = try #require(try stillMoment(written))
        #expect(abs(moment - 0.4) < 0.001, "\(pair): the still-image-time at \(moment) s, not 0.4 s")
        // The still shows the frame at the moment, both as displayed.
        let decoded = work.appendingPathComponent("still.rgb"), frame = work.appendingPathComponent("frame.rgb")
        let (width, height) = try decodedStill(still, to: decoded, transposed: true)
        try ffmpegFrame(written, at: "0.4", to: frame)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 38, "\(pair): the still at \(quality) dB against ffmpeg's frame at 0.4 s")
        // The old still's Exif is carried, its size made the new picture's.
        for tag in ["ExifIFD:DateTimeOriginal", "IFD0:Model", "IFD0:Make"] {
            let values = (try exif(tag, still), try exif(tag, oldStill))
            #expect(values.0 == values.1 && !values.1.isEmpty, "\(pair): \(tag) \(values)")
        }
        let stored = try exif("ExifIFD:ExifImageWidth", still) + "x" + exif("ExifIFD:ExifImageHeight", still)
        let pixels = try ProcessResult.run(try tool("exiftool"), ["-s3", "-ImageWidth", "-ImageHeight", still.path]).text.split(separator: "\n").joined(separator: "x")
        #expect(stored == pixels, "\(pair): Exif says \(stored), the picture is \(pixels)")
    }

    @Test("keyphoto --percent 50 marks the frame at half the video's duration (ffprobe's frames); --dry-run --format json plans it (make's schema) and writes nothing; a still and a movie of two Live Photos are refused with exit 2, naming both identifiers, and nothing is written")
    func percentAndRefusal() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let (stillPath, moviePath) = Self.cameraPairs[0]
        let still = try sample(stillPath), movie = try sample(moviePath)
        let out = work.appendingPathComponent("half")
        let made = try lpcheck(["keyphoto", still.path, movie.path, "--percent", "50", "-o", out.path])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        let frames = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time,pkt_duration_time", "-of", "csv=p=0", movie.path])
        let rows = frames.text.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }.filter { $0.count == 2 }
        let end = try #require(rows.last.map { $0[0] + $0[1] })
        let written = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))
        let moment = try #require(try stillMoment(written))
        #expect(abs(moment - end / 2) < 0.001, "the still-image-time at \(moment) s; half of \(end) s is \(end / 2)")
        // --dry-run: the same plan as JSON (the make schema, command keyphoto), nothing written.
        let dry = work.appendingPathComponent("dry")
        let planned = try lpcheck(["keyphoto", still.path, movie.path, "--percent", "50", "-o", dry.path, "--dry-run", "--format", "json"])
        #expect(planned.status == 0 && !FileManager.default.fileExists(atPath: dry.path), "\(planned.text)\(planned.stderr)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("make.schema.json"))
        #expect(try validator.validate(json: planned.stdout).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: planned.stdout) as? [String: Any])
        #expect(document["command"] as? String == "keyphoto" && document["dryRun"] as? Bool == true && (document["outputs"] as? [Any])?.count == 2, "\(document)")
        // Two Live Photos' halves.
        let other = try sample(Self.cameraPairs[1].1)
        let refused = try lpcheck(["keyphoto", still.path, other.path, "--time", "0.2", "-o", work.appendingPathComponent("mixed").path])
        let left = contents(work.appendingPathComponent("mixed"))
        #expect(refused.status == 2 && refused.stderr.contains("are not one Live Photo") && left.isEmpty,
                "\(refused.text)\(refused.stderr)")
    }
}

extension MakeClipTests {
    @Test("keyphoto in place (no --output): refused with exit 2 without --force, both files untouched; with --force the still's own path holds the movie's frame at the moment (its size, ExifTool's identifier the movie's), the movie's still-image-time moves there, owner mode 0640 is kept on both, the old files are in .lpcheck-backup/ byte for byte, and check passes; --still of another format is refused in place")
    func keyPhotoInPlace() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let (stillPath, moviePath) = Self.cameraPairs[1]
        let still = work.appendingPathComponent("train.jpg"), movie = work.appendingPathComponent("train.mov")
        try FileManager.default.copyItem(at: try sample(stillPath), to: still)
        try FileManager.default.copyItem(at: try sample(moviePath), to: movie)
        for file in [still, movie] { try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path) }
        let before = (try Data(contentsOf: still), try Data(contentsOf: movie))
        let identifier = try exif("Keys:ContentIdentifier", movie)
        let refused = try lpcheck(["keyphoto", still.path, movie.path, "--time", "0.5"])
        #expect(refused.status == 2 && refused.stderr.contains("--force"), "\(refused.text)\(refused.stderr)")
        let otherFormat = try lpcheck(["keyphoto", still.path, movie.path, "--time", "0.5", "--force", "--still", "heic"])
        #expect(otherFormat.status == 2 && otherFormat.stderr.contains("-o DIR"), "\(otherFormat.text)\(otherFormat.stderr)")
        #expect((try Data(contentsOf: still), try Data(contentsOf: movie)) == before, "a refused keyphoto wrote")
        let made = try lpcheck(["keyphoto", still.path, movie.path, "--time", "0.5", "--force"])
        #expect(made.status == 0 && made.text.contains("replaces the old one in place"), "\(made.text)\(made.stderr)")
        #expect(contents(work) == [".lpcheck-backup", "train.jpg", "train.mov"], "\(contents(work))")
        // The still is the movie's frame: its size, and the pair's one identifier.
        let frameSize = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x", movie.path]).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stillSize = try exif("File:ImageWidth", still) + "x" + exif("File:ImageHeight", still)
        #expect(stillSize == frameSize, "the still is \(stillSize), the movie's frame \(frameSize)")
        #expect(try stillIdentifier(still) == identifier && exif("Keys:ContentIdentifier", movie) == identifier)
        let moment = try #require(try stillMoment(movie))
        #expect(abs(moment - 0.5) < 0.001, "the still-image-time at \(moment) s")
        for file in [still, movie] {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o640, "\(file.lastPathComponent): mode \(String(mode ?? 0, radix: 8))")
        }
        let backups = work.appendingPathComponent(".lpcheck-backup")
        #expect(try Data(contentsOf: backups.appendingPathComponent("train.jpg")) == before.0)
        #expect(try Data(contentsOf: backups.appendingPathComponent("train.mov")) == before.1)
        try expectClean(work)
    }
}
