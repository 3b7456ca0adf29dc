import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck export --as movie|loop`, held to ffmpeg's decoding (`framemd5` of every frame),
/// ffprobe's packet times and ExifTool's extraction of motion photos' movies.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
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

    @Test("a loop's sound loops with its video: IMG_3853's PCM sound (1.333 s a loop against 1.4 s of video) gets silence, each loop's first sound packet at 1.4 s and 2.8 s")
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
}
