import Foundation
import LivePhotoTestPixels
import LivePhotoTestSupport
import Testing

/// `lpcheck export --as movie|loop`, held to ffmpeg's decoding (`framemd5` of every frame),
/// ffprobe's packet times and ExifTool's extraction of motion photos' movies.
// Not serialized: its tests share nothing (each its own scratch folder), and run two at a time
// its long re-encodes leave less of the run waiting on it alone.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ExportTests {
    /// Each input: the files to export from (copied into a scratch folder) and the movie
    /// the loop is made from, as an outside tool gives it: the pair's movie, or ExifTool's
    /// extraction of the motion photo's (`-b -ee -EmbeddedVideo` for a JPEG, `-b -MotionPhotoVideo`
    /// for a HEIF mpvd box).
    static let inputs: [(files: [String], output: String, embedded: String?)] = [
        (["gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"], "IMG_3853", nil),
        (["LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"], "train", nil),
        (["henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"], "test", nil),
        (["Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV"], "apple", nil),
        (["googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"], "PXL_20200710_061629144", "EmbeddedVideo"),
        (["ente-io__motion_photos/motionphoto.heic"], "motionphoto", "MotionPhotoVideo"),
    ]

    func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, environment: environment, timeout: 300)
    }

    func tool(_ name: String) throws -> String {
        let path = Locations.tool(name)
        try Locations.require(path != nil, name)
        return try #require(path)
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The input's files copied into `folder/in`, and its source movie as an outside tool gives it.
    func prepare(_ input: (files: [String], output: String, embedded: String?), in folder: URL) throws -> (inputs: URL, movie: URL) {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for file in input.files {
            let url = try #require(SharedSamples.url(file))
            try Data(contentsOf: url).write(to: inputs.appendingPathComponent(url.lastPathComponent))
        }
        guard let tag = input.embedded else { return (inputs, inputs.appendingPathComponent((input.files[1] as NSString).lastPathComponent)) }
        let still = inputs.appendingPathComponent((input.files[0] as NSString).lastPathComponent)
        let extracted = try ProcessResult.run(try tool("exiftool"), ["-b", "-ee", "-" + tag, still.path])
        #expect(extracted.stdout.count > 1000, "ExifTool extracts no movie from \(still.lastPathComponent)")
        let movie = folder.appendingPathComponent("embedded.mp4")
        try extracted.stdout.write(to: movie)
        return (inputs, movie)
    }

    /// ffmpeg's checksum of every decoded video frame (the first video stream), in order,
    /// each frame as decoded (`-fps_mode passthrough`: none repeated or dropped).
    func frames(_ movie: URL) throws -> [String] {
        let result = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// ffprobe's packets of a stream: presentation time and whether it is a key frame.
    func packets(_ movie: URL, stream: String) throws -> [(time: Double, key: Bool)] {
        let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", movie.path])
        return result.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard let time = fields.first.flatMap({ Double($0) }) else { return nil }
            return (time, fields.count > 1 && fields[1].contains("K"))
        }
    }

    @Test("--as loop --count 3: every decoded frame is the source's, three times over, in a file under 1.2× the source movie",
          arguments: inputs.indices)
    func loop(_ index: Int) throws {
        let input = Self.inputs[index]
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(input, in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "loop", "--count", "3", "--output", output.path, "--no-progress"])
        #expect(export.status == 0, "\(export.text)\(export.stderr)")
        let written = output.appendingPathComponent("\(input.output).loop.mov")
        let source = try frames(movie)
        #expect(!source.isEmpty)
        #expect(try frames(written) == source + source + source)
        let sizes = try [written, movie].map { try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) }
        #expect(Double(sizes[0]) < 1.2 * Double(sizes[1]), "\(sizes)")
        // Writers obey the readers: check finds nothing in the loop (samples listed again add up
        // to more than the file holds, legitimately; no long frame between loops).
        let check = try lpcheck(["check", output.path, "--fail-on", "info", "--no-progress"])
        #expect(check.status == 0 && check.text.contains("0 errors, 0 warnings, 0 infos"), "\(check.text)")
        // Inputs are never written.
        for file in input.files {
            let original = try Data(contentsOf: try #require(SharedSamples.url(file)))
            #expect(try Data(contentsOf: inputs.appendingPathComponent((file as NSString).lastPathComponent)) == original)
        }
    }

    @Test("--start still on IMG_3853 and train: the loop opens on the last key frame (ffprobe's K) at or before the still-image-time sample's time (ffprobe, edit list applied), then runs the clip around")
    func startStill() throws {
        for input in Self.inputs.prefix(2) {
            let folder = try scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (inputs, movie) = try prepare(input, in: folder)
            let output = folder.appendingPathComponent("out")
            let export = try lpcheck(["export", inputs.path, "--as", "loop", "--start", "still", "--output", output.path, "--no-progress"])
            #expect(export.status == 0, "\(export.text)\(export.stderr)")
            // The still's moment: the one-tick still-image-time sample, as ffprobe places it
            // (the data stream whose single packet is not at 0 s, or the last one).
            var moment: Double?
            for stream in 0..<8 {
                let data = try packets(movie, stream: "d:\(stream)")
                if data.count == 1 { moment = data[0].time }
            }
            let still = try #require(moment, "ffprobe finds no single-sample data stream in \(movie.lastPathComponent)")
            let video = try packets(movie, stream: "v:0").sorted { $0.time < $1.time }
            let opening = try #require(video.lastIndex { $0.key && $0.time <= still + 1e-6 })
            let source = try frames(movie)
            let written = try frames(output.appendingPathComponent("\(input.output).loop.mov"))
            #expect(opening > 0, "the still moment \(still) s is at the first key frame")
            #expect(written == Array(source[opening...]) + source + source + Array(source[..<opening]), "\(input.output): opening \(opening) at \(still) s")
        }
    }

    @Test("a loop's sound loops with its video: IMG_3853's PCM sound (1.333 s a loop against 1.4 s of video) gets silence, each loop's first sound packet at 1.4 s and 2.8 s; --audio drop leaves it out (ffprobe: video alone); --audio keep is refused for a bounce")
    func soundLoops() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[0], in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--no-progress"])
        #expect(export.status == 0 && export.text.contains("samples of silence"), "\(export.text)")
        let written = output.appendingPathComponent("IMG_3853.loop.mov")
        let video = try packets(movie, stream: "v:0").map(\.time)
        let loopLength = try #require(video.max()) + 1.0 / 30
        let sound = try packets(written, stream: "a:0").map(\.time)
        for loop in 1...2 {
            let start = Double(loop) * loopLength
            #expect(sound.contains { abs($0 - start) < 0.001 }, "no sound packet at \(start) s")
        }
        let sourceSound = try packets(movie, stream: "a:0").map(\.time)
        #expect(sourceSound.count > 0 && sound.count > 3 * sourceSound.count - 1)
        // --audio drop: the loop's video alone, the plan naming the sound track; keep is refused for a bounce.
        let silent = folder.appendingPathComponent("silent")
        let dropped = try lpcheck(["export", inputs.path, "--as", "loop", "--audio", "drop", "--output", silent.path, "--no-progress"])
        #expect(dropped.status == 0 && dropped.text.contains("(sound") && dropped.text.contains("--audio drop"), "\(dropped.text)")
        let streams = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", silent.appendingPathComponent("IMG_3853.loop.mov").path]).text
        #expect(streams.trimmingCharacters(in: .whitespacesAndNewlines) == "video", "\(streams)")
        let keep = try lpcheck(["export", inputs.path, "--as", "bounce", "--audio", "keep", "--output", silent.path])
        #expect(keep.status == 2 && keep.stderr.contains("--audio keep"), "\(keep.stderr)")
    }

    @Test("--as movie: the movie alone, every frame the source's, no data stream and no content identifier left (ExifTool), so that it pairs with nothing")
    func movieAlone() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[1], in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "movie", "--output", output.path, "--no-progress"])
        #expect(export.status == 0, "\(export.text)")
        let written = output.appendingPathComponent("train.movie.mov")
        #expect(try frames(written) == frames(movie))
        let streams = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", written.path]).text
        #expect(!streams.contains("data") && streams.contains("video") && streams.contains("audio"), "\(streams)")
        let sourceIdentifier = try ProcessResult.run(try tool("exiftool"), ["-s3", "-Keys:ContentIdentifier", movie.path]).text
        let identifier = try ProcessResult.run(try tool("exiftool"), ["-s3", "-Keys:ContentIdentifier", written.path]).text
        #expect(!sourceIdentifier.isEmpty && identifier.isEmpty, "\(identifier)")
        let check = try lpcheck(["check", output.path, "--format", "json", "--fail-on", "never", "--no-progress"])
        let items = try #require((try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.map { $0["kind"] as? String } == ["not-live-photo"], "\(check.text)")
    }

    @Test("an existing output is refused without --force (left as it was) and replaced with it; --dry-run writes nothing; the JSON document validates against Reports/export.schema.json")
    func refusalsAndJSON() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, _) = try prepare(Self.inputs[1], in: folder)
        let output = folder.appendingPathComponent("out")
        let dry = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--dry-run", "--format", "json"])
        #expect(dry.status == 0 && !FileManager.default.fileExists(atPath: output.path), "\(dry.text)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("export.schema.json"))
        #expect(try validator.validate(json: dry.stdout).isEmpty)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let existing = output.appendingPathComponent("train.loop.mov")
        try Data("keep me".utf8).write(to: existing)
        let refused = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--format", "json"])
        let refusedProblems = try validator.validate(json: refused.stdout)
        #expect(refused.status == 1 && refusedProblems.isEmpty, "\(refusedProblems)")
        let item = try #require(((try JSONSerialization.jsonObject(with: refused.stdout) as? [String: Any])?["items"] as? [[String: Any]])?.first)
        #expect(item["status"] as? String == "blocked" && (item["problems"] as? [String])?.first?.contains("exists") == true, "\(item)")
        // A blocked item writes nothing: no output, size, length or frame count is claimed for it.
        #expect(["output", "bytes", "seconds", "frames", "failure"].allSatisfy { item[$0] is NSNull }, "\(item)")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))
        let forced = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--force", "--format", "json"])
        let forcedProblems = try validator.validate(json: forced.stdout)
        #expect(forced.status == 0 && forcedProblems.isEmpty, "\(forced.text)\(forcedProblems)")
        #expect(try Data(contentsOf: existing).count > 1_000_000)
    }

    @Test("a pair whose movie is cut short is refused by name, nothing written; so is --count 0")
    func badInput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[1], in: folder)
        let bytes = try Data(contentsOf: movie)
        try bytes.prefix(bytes.count / 2).write(to: movie)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--no-progress"])
        #expect(export.status == 1 && export.stderr.contains("train.mov") && export.stderr.contains("truncated"), "\(export.text)\(export.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).isEmpty)
        let zero = try lpcheck(["export", inputs.path, "--as", "loop", "--count", "0", "--output", output.path])
        #expect(zero.status == 2 && zero.stderr.contains("--count"), "\(zero.stderr)")
    }

    @Test("hostile times: a video edit list claiming 2^32−1 or 10^9 ticks (so the sound would need 7×10^10 samples of silence a loop) is refused by file and box, under 5 s of CPU and 200 MB, nothing written",
          arguments: [UInt32.max, 1_000_000_000])
    func hostileTimes(_ ticks: UInt32) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[0], in: folder)
        var bytes = [UInt8](try Data(contentsOf: movie))
        // The first elst (the video track's): version and flags, count, then the first segment's duration.
        let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(Array("elst".utf8)) })
        bytes.replaceSubrange((at + 12)..<(at + 16), with: [UInt8(ticks >> 24), UInt8(ticks >> 16 & 0xFF), UInt8(ticks >> 8 & 0xFF), UInt8(ticks & 0xFF)])
        try Data(bytes).write(to: movie)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "loop", "--output", output.path, "--no-progress"])
        #expect(export.status == 1 && export.text.contains("cannot export: \(movie.path)") && export.text.contains("moov/trak"), "\(export.text)")
        let measured = try ProcessResult.measured(try #require(Locations.lpcheckBinary).path, ["export", inputs.path, "--as", "loop", "--output", output.path, "--no-progress"], in: folder)
        #expect(measured.status == 1 && measured.cpu < 5 && measured.kilobytes < 200_000, "\(measured)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).isEmpty)
    }

    /// The luma planes of every decoded video frame (ffmpeg, as decoded), and the frame size.
    func lumaFrames(_ movie: URL) throws -> (frames: [[UInt8]], size: Int) {
        let probe = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", movie.path])
        let sides = probe.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let size = try #require(sides.count == 2 ? sides[0] * sides[1] : nil)
        let raw = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"], timeout: 300)
        #expect(raw.status == 0 && raw.stdout.count % size == 0, "\(raw.stderr)")
        let bytes = [UInt8](raw.stdout)
        return (stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<($0 + size)]) }, size)
    }

    /// Luma PSNR of two planes.
    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double { PixelMath.decibels(PixelMath.meanSquaredError(a, b)) }

    /// ffprobe's frame start times and each frame's duration (to the next start; the last its packet's).
    func timeline(_ movie: URL) throws -> [(start: Double, duration: Double)] {
        let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", movie.path])
        let packets = result.text.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }.sorted { $0.0 < $1.0 }
        return packets.indices.map { index in (packets[index].0, index + 1 < packets.count ? packets[index + 1].0 - packets[index].0 : packets[index].1) }
    }

    /// Source frame indices a re-timed export shows: reverse N−1…0, bounce 0…N−1 then N−2…1.
    static func order(_ form: String, count: Int) -> [Int] {
        form == "reverse" ? Array((0..<count).reversed()) : Array(0..<count) + Array((1..<(count - 1)).reversed())
    }

    /// A movie's video stream: its bytes over its seconds (ffprobe's packets).
    func videoBytesPerSecond(_ movie: URL) throws -> Double {
        // ffprobe writes a packet's fields in its own order: duration_time, then size.
        let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration_time,size", "-of", "csv=p=0", movie.path])
        var (bytes, seconds) = (0.0, 0.0)
        for line in result.text.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            if fields.count == 2 { (seconds, bytes) = (seconds + fields[0], bytes + fields[1]) }
        }
        return seconds > 0 ? bytes / seconds : 0
    }

    @Test("--as reverse (IMG_3853, train, the Pixel's movie) and bounce (train, the Pixel's movie): N and 2N − 2 frames, output frame k the source frame the order names (reverse N−1−k; bounce k, then 2N−2−k) at ≥ 38 dB mean luma PSNR and ≥ 35 dB at the worst frame (ffmpeg decodes both), so the bounce's seam shows frame 1 then frame 0, none twice; the video takes at most 1.5× the source's bytes a second (ffprobe's packets)",
          arguments: [0, 1, 4])
    func reversedAndBounced(_ index: Int) throws {
        let input = Self.inputs[index]
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(input, in: folder)
        let source = try lumaFrames(movie)
        let sourceRate = try videoBytesPerSecond(movie)
        #expect(source.frames.count > 2)
        // IMG_3853 (the camera's 1920×1440 HEVC) is reversed only: its bounce (82 pictures
        // through x265, 41 s of CPU here) proves nothing its reverse and the H.264 bounces do not.
        for form in index == 0 ? ["reverse"] : ["reverse", "bounce"] {
            let output = folder.appendingPathComponent("out-\(form)")
            let export = try lpcheck(["export", inputs.path, "--as", form, "--output", output.path, "--no-progress"])
            #expect(export.status == 0 && export.text.contains("re-encoded") && export.text.contains("sound dropped"), "\(export.text)\(export.stderr)")
            let check = try lpcheck(["check", output.path, "--fail-on", "warning", "--no-progress"])
            #expect(check.status == 0, "\(form): \(check.text)")
            let file = output.appendingPathComponent("\(input.output).\(form).mov")
            let written = try lumaFrames(file)
            let order = Self.order(form, count: source.frames.count)
            #expect(written.size == source.size && written.frames.count == order.count, "\(form): \(written.frames.count) frames for \(order.count)")
            let scores = zip(written.frames, order).map { psnr($0, source.frames[$1]) }
            let (worst, mean) = (scores.min() ?? 0, scores.reduce(0, +) / Double(max(1, scores.count)))
            #expect(mean >= 38 && worst >= 35, "\(input.output) \(form): mean \(mean) dB, worst frame \(worst) dB")
            let rate = try videoBytesPerSecond(file)
            #expect(sourceRate > 100_000 && rate <= 1.5 * sourceRate, "\(input.output) \(form): \(rate) bytes a second, the source \(sourceRate)")
        }
    }

    @Test("--container mp4: a loop (the Pixel motion photo's movie; train.mov with --audio drop) and a bounce are MP4 (ffprobe: major brand isom), every looped frame the source's three times over; train.mov's PCM sound is refused by name without --audio drop")
    func containerMP4() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        func brand(_ url: URL) throws -> String {
            try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-show_entries", "format_tags=major_brand", "-of", "csv=p=0", url.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for (index, extra) in [(4, [String]()), (1, ["--audio", "drop"])] {
            let input = Self.inputs[index]
            let (inputs, movie) = try prepare(input, in: folder.appendingPathComponent(input.output))
            let output = folder.appendingPathComponent("out-\(input.output)")
            let export = try lpcheck(["export", inputs.path, "--as", "loop", "--container", "mp4", "--output", output.path, "--no-progress"] + extra)
            #expect(export.status == 0, "\(export.text)")
            let written = output.appendingPathComponent("\(input.output).loop.mp4")
            #expect(try brand(written) == "isom")
            let source = try frames(movie)
            #expect(try frames(written) == source + source + source, "\(input.output)")
            if index == 1 {
                let refused = try lpcheck(["export", inputs.path, "--as", "loop", "--container", "mp4", "--output", folder.appendingPathComponent("refused").path, "--no-progress"])
                #expect(refused.status == 1 && refused.text.contains("lpcm sound") && refused.text.contains("--audio drop"), "\(refused.text)")
                let bounce = try lpcheck(["export", inputs.path, "--as", "bounce", "--container", "mp4", "--output", output.path, "--no-progress"])
                #expect(bounce.status == 0, "\(bounce.text)\(bounce.stderr)")
                let bounced = output.appendingPathComponent("train.bounce.mp4")
                #expect(try brand(bounced) == "isom" && frames(bounced).count == 2 * source.count - 2)
            }
        }
    }

    @Test("a portrait movie (test.mov, a quarter turn in its track matrix) reversed stays turned as it was (ffprobe's rotation), its frames upright: the first is the source's last at ≥ 38 dB, ffmpeg turning both")
    func reversedKeepsTurn() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[2], in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try lpcheck(["export", inputs.path, "--as", "reverse", "--output", output.path, "--no-progress"])
        #expect(export.status == 0, "\(export.text)\(export.stderr)")
        let written = output.appendingPathComponent("test.reverse.mov")
        func rotation(_ url: URL) throws -> String {
            try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", url.path]).text
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let turns = (try rotation(movie), try rotation(written))
        #expect(turns.0 == "-90" && turns.1 == "-90", "\(turns)")
        let (source, reversed) = (try lumaFrames(movie), try lumaFrames(written))
        #expect(source.size == reversed.size && reversed.frames.count == source.frames.count)
        if let first = reversed.frames.first, let last = source.frames.last { #expect(psnr(first, last) >= 38) }
    }

    @Test("a variable-rate movie (make's movie of a GIF shown 10/20/50/200 cs) reversed and bounced: each frame lasts, to the millisecond, the duration it had (ffprobe), so the timeline is mirrored")
    func mirroredTimeline() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let gif = try #require(SharedSamples.url("gifs/python-pillow__Pillow__Tests_images_dispose_bgnd_transparency.gif"))
        let pair = folder.appendingPathComponent("pair")
        let make = try lpcheck(["make", gif.path, "--output", pair.path, "--no-progress"])
        #expect(make.status == 0, "\(make.text)\(make.stderr)")
        let movie = try #require(try FileManager.default.contentsOfDirectory(at: pair, includingPropertiesForKeys: nil).first { $0.pathExtension.lowercased() == "mov" })
        let source = try timeline(movie)
        #expect(Set(source.map { ($0.duration * 100).rounded() }).count >= 3, "\(source)")
        for form in ["reverse", "bounce"] {
            let output = folder.appendingPathComponent("out-\(form)")
            let export = try lpcheck(["export", pair.path, "--as", form, "--output", output.path, "--no-progress"])
            #expect(export.status == 0, "\(export.text)\(export.stderr)")
            let written = try timeline(try #require(try FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil).first))
            let order = Self.order(form, count: source.count)
            #expect(written.count == order.count)
            var start = 0.0
            for (frame, index) in zip(written, order) {
                #expect(abs(frame.start - start) < 0.001 && abs(frame.duration - source[index].duration) < 0.001, "\(form): \(frame) for source frame \(index) \(source[index]) at \(start)")
                start += source[index].duration
            }
        }
    }
}
