import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck make CLIP`: a Live Photo from one movie, held to the oracles: lpcheck's own check
/// at `--fail-on info`, ExifTool for the identifiers and dates, libheif (pillow-heif) and
/// ffmpeg for the pictures (ffmpeg's `psnr` filter), ffprobe for where the sync sample is.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct MakeClipTests {
    static let camera = "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"
    static let h264 = "LycheeOrg__Lychee/train.mov"
    static let hev1 = "movies/Vanilagy__mediabunny__test_public_video-h265.mp4"

    func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, environment: environment, timeout: 300)
    }

    func sample(_ relative: String) throws -> URL {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        return try #require(SharedSamples.url(relative))
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-clip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func tool(_ name: String) throws -> String {
        let path = Locations.tool(name)
        try Locations.require(path != nil, name)
        return try #require(path)
    }

    func contents(_ folder: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    /// The written pair passes lpcheck's check at --fail-on info with no finding at all.
    func expectClean(_ folder: URL) throws {
        let check = try lpcheck(["check", folder.path, "--fail-on", "info", "--no-progress"])
        #expect(check.status == 0, "\(check.text)")
        #expect(check.text.contains("1 pair") && check.text.contains("0 errors, 0 warnings, 0 infos"), "\(check.text)")
    }

    /// ExifTool's reading of one tag (`-s3`).
    func exif(_ tag: String, _ file: URL) throws -> String {
        let result = try ProcessResult.run(try tool("exiftool"), ["-s3", "-" + tag, file.path])
        return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The frame ffmpeg shows at `seconds` (the last whose presentation time, as ffprobe gives
    /// it, is at or before it), as packed RGB, written to `output`.
    func ffmpegFrame(_ movie: URL, at seconds: String, to output: URL) throws {
        let moment = try #require(Double(seconds))
        let frames = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", movie.path])
        let times = frames.text.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
        let index = try #require(times.lastIndex { $0 <= moment + 1e-6 }, "ffprobe shows no frame at \(seconds) s")
        let result = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", output.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// A still's pixels as libheif (pillow-heif) or Pillow decode them, packed RGB; its size.
    /// `transposed`: turned by its EXIF Orientation first (Pillow's exif_transpose), as viewers
    /// show a JPEG.
    func decodedStill(_ still: URL, to output: URL, transposed: Bool = false) throws -> (Int, Int) {
        try Locations.require(Locations.pythonHas("PIL", "pillow_heif"), "Pillow and pillow-heif (PyPI)")
        let script = """
        import sys, pillow_heif
        from PIL import Image, ImageOps
        pillow_heif.register_heif_opener()
        image = Image.open(sys.argv[1])
        if sys.argv[3] == 'yes':
            image = ImageOps.exif_transpose(image)
        image = image.convert('RGB')
        open(sys.argv[2], 'wb').write(image.tobytes())
        print(image.size[0], image.size[1])
        """
        let result = try ProcessResult.run(try tool("python3"), ["-c", script, still.path, output.path, transposed ? "yes" : "no"])
        let size = result.text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(result.status == 0 && size.count == 2, "\(result.stderr)")
        return (size.first ?? 0, size.last ?? 0)
    }

    /// ffmpeg's PSNR of two packed RGB pictures of one size.
    func psnr(_ a: URL, _ b: URL, width: Int, height: Int) throws -> Double {
        let size = "\(width)x\(height)"
        let result = try ProcessResult.run(try tool("ffmpeg"), ["-v", "info", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-i", a.path,
                                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-i", b.path, "-lavfi", "psnr", "-f", "null", "-"])
        // `[Parsed_psnr_0 @ …] PSNR r:… g:… b:… average:47.12 min:… max:…` ("inf" when equal).
        guard let line = result.stderr.split(separator: "\n").first(where: { $0.contains("average:") }),
              let field = line.split(separator: " ").first(where: { $0.hasPrefix("average:") }) else {
            Issue.record("ffmpeg printed no PSNR: \(result.stderr)")
            return 0
        }
        let value = field.dropFirst("average:".count)
        return value == "inf" ? .infinity : Double(value) ?? 0
    }

    /// The primary item's bytes of a HEIF, read through the test's own box walk (pitm, iloc).
    func primaryItemBytes(_ heif: URL) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: heif))
        let walk = BoxWalk(bytes: bytes)
        let meta = try #require(walk.children(0..<bytes.count).first { $0.type == "meta" })
        let children = walk.children((meta.body.lowerBound + 4)..<meta.body.upperBound)
        let pitm = try #require(children.first { $0.type == "pitm" })
        let primary = walk.be(pitm.body.lowerBound + 4, 2)
        let iloc = try #require(children.first { $0.type == "iloc" })
        var at = iloc.body.lowerBound
        let version = bytes[at]
        at += 4
        let offsetSize = Int(bytes[at] >> 4), lengthSize = Int(bytes[at] & 15), baseSize = Int(bytes[at + 1] >> 4)
        let indexSize = version >= 1 ? Int(bytes[at + 1] & 15) : 0
        at += 2
        let idWidth = version == 2 ? 4 : 2
        let count = Int(walk.be(at, version == 2 ? 4 : 2))
        at += version == 2 ? 4 : 2
        for _ in 0..<count {
            let id = walk.be(at, idWidth)
            at += idWidth + (version >= 1 ? 2 : 0) + 2
            let base = walk.be(at, baseSize)
            at += baseSize
            let extents = Int(walk.be(at, 2))
            at += 2
            var data: [UInt8] = []
            for _ in 0..<extents {
                at += indexSize
                let offset = Int(base + walk.be(at, offsetSize))
                at += offsetSize
                let length = Int(walk.be(at, lengthSize))
                at += lengthSize
                if offset + length <= bytes.count { data += bytes[offset..<(offset + length)] }
            }
            if id == primary { return data }
        }
        Issue.record("no iloc entry for the primary item \(primary)")
        return []
    }

    @Test("IMG_3853.MOV (HEVC) --lossless-still: the HEIC's primary item is a sync sample's coded picture byte for byte, libheif decodes it within 45 dB of ffmpeg's frame, the pair has no finding, ExifTool reads one identifier and the movie's date")
    func losslessHEVC() throws {
        let movie = try sample(Self.camera)
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", movie.path, "--output", out.path, "--lossless-still"])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        #expect(contents(out) == ["IMG_3853.HEIC", "IMG_3853.MOV"])
        try expectClean(out)
        let still = out.appendingPathComponent("IMG_3853.HEIC"), written = out.appendingPathComponent("IMG_3853.MOV")

        // ffprobe's packets: the sync samples' places in the source; the item must be one of them.
        let probe = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,pos,size,flags", "-of", "csv=p=0", movie.path])
        let item = try primaryItemBytes(still)
        let source = try FileHandle(forReadingFrom: movie)
        defer { try? source.close() }
        var matched: String?
        for line in probe.text.split(separator: "\n") {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 4, fields[3].hasPrefix("K"), let size = Int(fields[1]), let position = UInt64(fields[2]), size == item.count else { continue }
            try source.seek(toOffset: position)
            if [UInt8](try source.read(upToCount: size) ?? Data()) == item { matched = fields[0] }
        }
        let time = try #require(matched, "the primary item (\(item.count) bytes) is no sync sample of the movie")

        let frame = out.appendingPathComponent("frame.rgb"), decoded = out.appendingPathComponent("still.rgb")
        defer { for file in [frame, decoded] { try? FileManager.default.removeItem(at: file) } }
        try ffmpegFrame(movie, at: time, to: frame)
        let (width, height) = try decodedStill(still, to: decoded)
        #expect(width == 1920 && height == 1440)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 45, "PSNR \(quality) dB")

        let identifier = try exif("ContentIdentifier", written)
        #expect(try identifier.count == 36 && exif("MediaGroupUUID", still) == identifier)
        // The movie says 2025:01:01 11:06:46+09:00 (Keys CreationDate).
        #expect(try exif("CreationDate", written) == "2025:01:01 11:06:46+09:00")
        #expect(try exif("DateTimeOriginal", still) == "2025:01:01 11:06:46")
        #expect(try exif("OffsetTimeOriginal", still) == "+09:00")
        #expect(try exif("Model", still) == exif("Model", written))
    }

    @Test("train.mov (H.264) --still jpeg --time 0.7: no finding, the JPEG within 38 dB of the frame ffmpeg decodes at 0.7 s, ExifTool's identifiers equal")
    func h264JPEG() throws {
        let movie = try sample(Self.h264)
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", movie.path, "-o", out.path, "--still", "jpeg", "--time", "0.7"])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        #expect(contents(out) == ["train.JPG", "train.MOV"])
        try expectClean(out)
        let still = out.appendingPathComponent("train.JPG")
        let frame = out.appendingPathComponent("frame.rgb"), decoded = out.appendingPathComponent("still.rgb")
        defer { for file in [frame, decoded] { try? FileManager.default.removeItem(at: file) } }
        try ffmpegFrame(movie, at: "0.7", to: frame)
        let (width, height) = try decodedStill(still, to: decoded)
        #expect(width == 1440 && height == 1080)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 38, "PSNR \(quality) dB")
        #expect(try exif("MediaGroupUUID", still) == exif("ContentIdentifier", out.appendingPathComponent("train.MOV")))
        #expect(try exif("DateTimeOriginal", still) == "2021:04:10 11:43:59")
    }

    @Test("a decoded frame becomes a HEIC by default: within 40 dB of ffmpeg's frame, no finding")
    func h264HEIC() throws {
        let movie = try sample(Self.h264)
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", movie.path, "-o", out.path, "--time", "0.7"])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        #expect(contents(out) == ["train.HEIC", "train.MOV"])
        try expectClean(out)
        let frame = out.appendingPathComponent("frame.rgb"), decoded = out.appendingPathComponent("still.rgb")
        defer { for file in [frame, decoded] { try? FileManager.default.removeItem(at: file) } }
        try ffmpegFrame(movie, at: "0.7", to: frame)
        let (width, height) = try decodedStill(out.appendingPathComponent("train.HEIC"), to: decoded)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 40, "PSNR \(quality) dB")
    }

    @Test("a movie turned 90° (test.mov, an iPhone's, stored 1440×1080) gives a still shown turned: HEIF irot (libheif shows it portrait), JPEG Orientation 6 over pixels stored as the movie codes them; shown, each is ffmpeg's turned frame at the moment (PSNR)")
    func rotation() throws {
        // A camera's picture, not a smooth gradient: a still stored flipped or turned twice
        // is far from ffmpeg's frame (12 dB), where on iphone_rotated.mov it stays at 38 dB.
        let movie = try sample("henteko__livephotoskit-react/test.mov")
        for format in ["heic", "jpeg"] {
            let out = try scratch()
            defer { try? FileManager.default.removeItem(at: out) }
            let made = try lpcheck(["make", movie.path, "-o", out.path, "--still", format, "--time", "0.5"])
            #expect(made.status == 0, "\(made.text)\(made.stderr)")
            try expectClean(out)
            let still = out.appendingPathComponent(try #require(contents(out).first { !$0.hasSuffix(".MOV") }))
            if format == "jpeg" {
                // Turned once, by the tag: the pixels stored as coded (a still stored already
                // turned and tagged 6 would be shown turned twice).
                #expect(try exif("Orientation#", still) == "6")
                let stored = try exif("File:ImageWidth", still) + "×" + exif("File:ImageHeight", still)
                #expect(stored == "1440×1080", "stored \(stored)")
            }
            // Shown as a viewer shows it (libheif applies irot; Pillow's exif_transpose the
            // Orientation) against ffmpeg's frame at the moment, which ffmpeg turns by the matrix.
            let decoded = out.appendingPathComponent("still.rgb"), frame = out.appendingPathComponent("frame.rgb")
            let (width, height) = try decodedStill(still, to: decoded, transposed: format == "jpeg")
            #expect(width == 1080 && height == 1440, "shown \(width)×\(height)")
            try ffmpegFrame(movie, at: "0.5", to: frame)
            let quality = try psnr(decoded, frame, width: width, height: height)
            #expect(quality >= 35, "\(format): PSNR \(quality) dB against ffmpeg's turned frame")
            try? FileManager.default.removeItem(at: decoded)
            try? FileManager.default.removeItem(at: frame)
        }
    }

    @Test("--to motion-photo writes one file, a JPEG or HEIC motion photo, that passes every motion-photo rule at --fail-on info; libheif and Pillow decode its still")
    func motionPhoto() throws {
        for (clip, extra, name) in [(Self.camera, ["--lossless-still"], "IMG_3853.MP.heic"), (Self.h264, ["--still", "jpeg"], "train.MP.jpg")] {
            let out = try scratch()
            defer { try? FileManager.default.removeItem(at: out) }
            let made = try lpcheck(["make", try sample(clip).path, "-o", out.path, "--to", "motion-photo"] + extra)
            #expect(made.status == 0, "\(made.text)\(made.stderr)")
            #expect(contents(out) == [name], "\(contents(out))")
            let check = try lpcheck(["check", out.path, "--profile", "google-photos", "--fail-on", "info", "--no-progress"])
            #expect(check.status == 0 && check.text.contains("1 motion-photo") && check.text.contains("0 errors, 0 warnings, 0 infos"), "\(check.text)")
            let decoded = out.appendingPathComponent("still.rgb")
            let (width, height) = try decodedStill(out.appendingPathComponent(name), to: decoded)
            #expect(width > 0 && height > 0)
        }
    }

    @Test("--format json: one document of what was written, valid against Reports/make.schema.json, for make STILL MOVIE, make CLIP and --to motion-photo; the outputs it names are the files in the folder")
    func jsonDocument() throws {
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("make.schema.json"))
        let runs: [[String]] = [
            [Locations.samples.appendingPathComponent("camera-pair.jpg").path, Locations.samples.appendingPathComponent("camera-pair.mov").path],
            [try sample(Self.h264).path, "--still", "jpeg", "--time", "0.7"],
            [try sample(Self.camera).path, "--lossless-still", "--to", "motion-photo"],
        ]
        for arguments in runs {
            let out = try scratch()
            defer { try? FileManager.default.removeItem(at: out) }
            let made = try lpcheck(["make"] + arguments + ["-o", out.path, "--format", "json"])
            #expect(made.status == 0, "\(made.stderr)")
            let problems = try validator.validate(json: made.stdout)
            #expect(problems.isEmpty, "\(problems)")
            let document = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: Any])
            let outputs = (document["outputs"] as? [[String: Any]] ?? []).compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
            #expect(outputs.sorted() == contents(out), "\(outputs) against \(contents(out))")
            if arguments.contains("--time") {
                let moment = document["moment"] as? [String: Any]
                #expect(moment?["origin"] as? String == "requested" && moment?["seconds"] as? Double == 0.7)
            }
        }
    }

    @Test("an hev1 movie is refused with its reason; nothing is written")
    func hev1Refused() throws {
        let movie = try sample(Self.hev1)
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", movie.path, "-o", out.path])
        #expect(made.status == 2)
        #expect(made.stderr.contains("hev1") && made.stderr.contains("Apple's players refuse"), "\(made.stderr)")
        #expect(contents(out).isEmpty)
    }

    @Test("bad clips exit non-zero naming the file and what is wrong, and leave the folder empty: no video track, a 30000×30000 claim, a sample outside the file, a truncated movie")
    func badClips() throws {
        let out = try scratch(), work = try scratch()
        defer { for url in [out, work] { try? FileManager.default.removeItem(at: url) } }
        let audio = work.appendingPathComponent("audio.mov")
        let made = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", "-y", audio.path])
        #expect(made.status == 0, "\(made.stderr)")

        let camera = [UInt8](try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let walk = BoxWalk(bytes: camera)
        let moov = try #require(walk.children(0..<camera.count).first { $0.type == "moov" })
        let trak = try #require(walk.children(moov.body).first { $0.type == "trak" })
        let tkhd = try #require(walk.children(trak.body).first { $0.type == "tkhd" })
        // tkhd ends with width and height in 16.16.
        var huge = camera
        huge.replaceSubrange((tkhd.body.upperBound - 8)..<tkhd.body.upperBound, with: [0x75, 0x30, 0, 0, 0x75, 0x30, 0, 0])
        let hugeURL = work.appendingPathComponent("huge.mov")
        try Data(huge).write(to: hugeURL)
        // The media data cut short, the boxes left saying it is there.
        let mdat = try #require(walk.children(0..<camera.count).first { $0.type == "mdat" })
        var outside = camera
        if mdat.body.lowerBound < moov.body.lowerBound {
            // mdat first: keep the moov, drop the mdat's bytes after its first 16 and say it is that short.
            outside = Array(camera[0..<(mdat.body.lowerBound + 16)]) + Array(camera[(moov.body.lowerBound - 8)...])
            let size = UInt32(16 + 8)
            outside.replaceSubrange((mdat.body.lowerBound - 8)..<(mdat.body.lowerBound - 4), with: withUnsafeBytes(of: size.bigEndian) { Array($0) })
        } else {
            outside = Array(camera[0..<(mdat.body.lowerBound + 16)])
        }
        let outsideURL = work.appendingPathComponent("outside.mov")
        try Data(outside).write(to: outsideURL)
        let truncatedURL = work.appendingPathComponent("truncated.mov")
        try Data(camera.prefix(camera.count / 2)).write(to: truncatedURL)

        let cases: [(URL, String)] = [(audio, "no video track"), (hugeURL, "30000×30000"), (outsideURL, "outside"), (truncatedURL, "truncated.mov")]
        for (clip, words) in cases {
            for format in ["heic", "jpeg"] {
                let result = try lpcheck(["make", clip.path, "-o", out.path, "--still", format])
                #expect(result.status != 0 && result.status < 128, "\(clip.lastPathComponent): \(result.status)")
                #expect(result.stderr.contains(clip.lastPathComponent) && result.stderr.contains(words), "\(clip.lastPathComponent): \(result.stderr)")
                #expect(contents(out).isEmpty, "\(clip.lastPathComponent) left \(contents(out))")
            }
        }
    }

    @Test("without the codec helper, a decoded still exits 2 naming FFmpeg's Debian packages; the lossless HEVC still needs no helper")
    func withoutHelper() throws {
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_CODEC"] = "/nonexistent/lpcheck-codec"
        let decoded = try lpcheck(["make", try sample(Self.h264).path, "-o", out.path, "--still", "jpeg"], environment: environment)
        #expect(decoded.status == 2)
        #expect(decoded.stderr.contains("libavcodec59") && decoded.stderr.contains("apt install"), "\(decoded.stderr)")
        #expect(contents(out).isEmpty)
        let lossless = try lpcheck(["make", try sample(Self.camera).path, "-o", out.path, "--lossless-still"], environment: environment)
        #expect(lossless.status == 0, "\(lossless.stderr)")
        #expect(contents(out) == ["IMG_3853.HEIC", "IMG_3853.MOV"])
    }
}
