import Foundation
import LivePhotoFormats
import LivePhotoTestPixels
import LivePhotoTestSupport
import Testing

/// `lpcheck export --as gif`, held to Pillow's reading of the GIF (its loop, delays and
/// composited frames), ffprobe's times and duration of the source movie, ffmpeg's decoding of
/// its frames (scaled with the same Lanczos filter), and FFmpeg's own two-pass GIF recipe.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ExportGIFTests {
    let exports = ExportTests()

    /// A GIF as Pillow reads it: loop count, size, each frame's delay (ms) and its RGB pixels as shown.
    struct PillowGIF {
        var loop: Int?
        var width: Int, height: Int
        var delays: [Int]
        var frames: [[UInt8]]
    }

    func pillow(_ gif: URL) throws -> PillowGIF {
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let script = """
        import sys, json
        from PIL import Image, ImageSequence
        im = Image.open(sys.argv[1])
        delays, frames = [], []
        for frame in ImageSequence.Iterator(im):
            delays.append(frame.info.get("duration", 0))
            frames.append(frame.convert("RGB").tobytes())
        head = json.dumps({"loop": im.info.get("loop"), "width": im.size[0], "height": im.size[1], "delays": delays})
        sys.stdout.buffer.write(head.encode() + b"\\n" + b"".join(frames))
        """
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, gif.path], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](result.stdout)
        let newline = try #require(bytes.firstIndex(of: 10))
        let head = try #require(try JSONSerialization.jsonObject(with: Data(bytes[..<newline])) as? [String: Any])
        let (width, height) = (try #require(head["width"] as? Int), try #require(head["height"] as? Int))
        let delays = try #require(head["delays"] as? [Int])
        let size = width * height * 3
        let pixels = bytes[(newline + 1)...]
        #expect(pixels.count == size * delays.count)
        let frames = stride(from: pixels.startIndex, to: pixels.endIndex, by: size).map { Array(pixels[$0..<min($0 + size, pixels.endIndex)]) }
        return PillowGIF(loop: head["loop"] as? Int, width: width, height: height, delays: delays, frames: frames)
    }

    /// ffmpeg's frames of the movie (turned as shown), scaled to `width` × `height` with Lanczos's
    /// filter into RGB, with ffprobe's start time of each (seconds from the first) and the video
    /// stream's duration.
    func sourceFrames(_ movie: URL, width: Int, height: Int) throws -> (frames: [[UInt8]], starts: [Double], duration: Double) {
        let raw = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                                                      "-vf", "scale=\(width):\(height):flags=lanczos", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], timeout: 300)
        #expect(raw.status == 0, "\(raw.stderr)")
        let size = width * height * 3
        let bytes = [UInt8](raw.stdout)
        let frames = stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<($0 + size)]) }
        let probe = try ProcessResult.run(try exports.tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", movie.path])
        let times = probe.text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        let stream = try ProcessResult.run(try exports.tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", movie.path])
        let duration = try #require(Double(stream.text.trimmingCharacters(in: CharacterSet(charactersIn: ", \n"))))
        #expect(times.count == frames.count, "ffprobe \(times.count) frames, ffmpeg \(frames.count)")
        let first = times.first ?? 0
        return (frames, times.map { $0 - first }, duration)
    }

    /// RGB PSNR of GIF frames against the source frames: each against the frame shown at its
    /// time (the last to start by then: within half a centisecond, as a GIF's times are rounded
    /// to centiseconds, or exactly for a GIF `sampled` at a rate, whose times are), or, `bestMatch`,
    /// against whichever source frame it is nearest. The PSNR of the mean squared error, and the
    /// worst frame's.
    func psnr(_ gif: PillowGIF, against source: (frames: [[UInt8]], starts: [Double], duration: Double), sampled: Bool = false, bestMatch: Bool = false) -> (mean: Double, worst: Double) {
        let slack = sampled ? 0.000_001 : 0.005
        var (total, worst, time) = (0.0, Double.infinity, 0.0)
        for (frame, delay) in zip(gif.frames, gif.delays) {
            let candidates = bestMatch ? Array(source.frames.indices) : [source.starts.lastIndex { $0 <= time + slack } ?? 0]
            let error = candidates.map { meanSquaredError(frame, source.frames[$0]) }.min() ?? .infinity
            total += error
            worst = min(worst, decibels(error))
            time += Double(delay) / 1000
        }
        return (decibels(total / Double(max(1, gif.frames.count))), worst)
    }

    func meanSquaredError(_ a: [UInt8], _ b: [UInt8]) -> Double { PixelMath.meanSquaredError(a, b) }

    func decibels(_ error: Double) -> Double { PixelMath.decibels(error) }

    func exportedGIF(_ index: Int, in folder: URL, options: [String] = []) throws -> (gif: URL, movie: URL, text: String) {
        let input = ExportTests.inputs[index]
        let (inputs, movie) = try exports.prepare(input, in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try exports.lpcheck(["export", inputs.path, "--as", "gif", "--output", output.path, "--no-progress"] + options)
        #expect(export.status == 0 && export.text.contains("loops forever") && export.text.contains("sound dropped"), "\(export.text)\(export.stderr)")
        // The plan says which dithering wins where against FFmpeg's usual recipe (BENCHMARKS.md).
        if !options.contains("--dither") || options.contains("none") {
            #expect(export.text.contains("FFmpeg's usual bayer recipe"), "\(export.text)")
        }
        return (output.appendingPathComponent("\(input.output).gif"), movie, export.text)
    }

    @Test("--as gif: loops forever (Pillow), delays of at least 2 cs summing to the movie's duration (ffprobe) within 1 cs, every frame the source frame shown at its time (ffmpeg, Lanczos-scaled) at ≥ 30 dB",
          arguments: ExportTests.inputs.indices)
    func gif(_ index: Int) throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (gifURL, movie, _) = try exportedGIF(index, in: folder)
        let gif = try pillow(gifURL)
        let source = try sourceFrames(movie, width: gif.width, height: gif.height)
        #expect(gif.loop == 0, "loop \(String(describing: gif.loop))")
        #expect(gif.width == min(480, gif.width) && !gif.frames.isEmpty)
        #expect(gif.delays.allSatisfy { $0 >= 20 }, "\(gif.delays)")
        let total = Double(gif.delays.reduce(0, +)) / 1000
        #expect(abs(total - source.duration) <= 0.01, "delays sum to \(total) s, the movie lasts \(source.duration) s")
        let quality = psnr(gif, against: source)
        #expect(quality.worst >= 30, "\(ExportTests.inputs[index].output): \(quality)")
    }

    @Test("--as gif against FFmpeg's two-pass recipe (fps=10, scale=320:-1:flags=lanczos, palettegen, paletteuse) at the same width and rate: PSNR no worse by more than 0.5 dB (FFmpeg's frames each held to the source frame nearest it; ours to the frame shown at its time), size at most 1.1×",
          arguments: [0, 1, 2])
    func againstFFmpeg(_ index: Int) throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (gifURL, movie, _) = try exportedGIF(index, in: folder, options: ["--width", "320", "--fps", "10"])
        let theirs = folder.appendingPathComponent("ffmpeg.gif")
        let recipe = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-vf", "fps=10,scale=320:-1:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse", theirs.path], timeout: 300)
        #expect(recipe.status == 0, "\(recipe.stderr)")
        let ours = try pillow(gifURL), reference = try pillow(theirs)
        #expect(ours.width == reference.width && ours.height == reference.height)
        let source = try sourceFrames(movie, width: ours.width, height: ours.height)
        let (ourQuality, theirQuality) = (psnr(ours, against: source, sampled: true), psnr(reference, against: source, bestMatch: true))
        let (ourSize, theirSize) = (try fileSize(gifURL), try fileSize(theirs))
        print("GIF \(ExportTests.inputs[index].output): lpcheck \(ourQuality.mean) dB (worst \(ourQuality.worst)), \(ourSize) bytes; FFmpeg \(theirQuality.mean) dB (worst \(theirQuality.worst)), \(theirSize) bytes")
        #expect(ourQuality.mean >= theirQuality.mean - 0.5, "lpcheck \(ourQuality), FFmpeg \(theirQuality)")
        #expect(Double(ourSize) <= 1.1 * Double(theirSize), "lpcheck \(ourSize) bytes, FFmpeg \(theirSize)")
    }

    @Test("--start still on IMG_3853: the GIF opens on the frame shown at the still-image-time sample's time (ffprobe) and runs the clip around, still summing to its duration; the JSON document validates against Reports/export.schema.json")
    func startStillAndJSON() throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try exports.prepare(ExportTests.inputs[0], in: folder)
        let output = folder.appendingPathComponent("out")
        let export = try exports.lpcheck(["export", inputs.path, "--as", "gif", "--start", "still", "--width", "240", "--output", output.path, "--format", "json"])
        #expect(export.status == 0, "\(export.text)\(export.stderr)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("export.schema.json"))
        let problems = try validator.validate(json: export.stdout)
        #expect(problems.isEmpty, "\(problems)")
        let document = try #require(try JSONSerialization.jsonObject(with: export.stdout) as? [String: Any])
        let item = try #require((document["items"] as? [[String: Any]])?.first)
        #expect(document["width"] as? Int == 240 && document["dither"] as? String == "sierra-lite" && item["status"] as? String == "exported", "\(document)")
        let gif = try pillow(output.appendingPathComponent("IMG_3853.gif"))
        let source = try sourceFrames(movie, width: gif.width, height: gif.height)
        // The still's moment: the data stream of one packet, as ExportTests.startStill finds it.
        var moment: Double?
        for stream in 0..<8 {
            let data = try exports.packets(movie, stream: "d:\(stream)")
            if data.count == 1 { moment = data[0].time }
        }
        let still = try #require(moment, "ffprobe finds no single-sample data stream")
        let opening = try #require(source.starts.lastIndex { $0 <= still + 1e-6 })
        #expect(opening > 0 && item["frames"] as? Int == source.frames.count)
        // Frame k of the GIF is source frame (opening + k) mod N: each nearest its planned frame.
        for (k, frame) in gif.frames.enumerated() {
            let errors = source.frames.map { meanSquaredError(frame, $0) }
            let nearest = try #require(errors.indices.min { errors[$0] < errors[$1] })
            #expect(nearest == (opening + k) % source.frames.count, "GIF frame \(k) is nearest source frame \(nearest), not \((opening + k) % source.frames.count)")
        }
        #expect(abs(Double(gif.delays.reduce(0, +)) / 1000 - source.duration) <= 0.01)
    }

    @Test("on a terminal (a pseudo-terminal from Python's pty) a GIF export draws a progress bar of frames on standard error, to 100%, and clears it; --no-progress and a pipe draw none")
    func progressBar() throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try exports.prepare(ExportTests.inputs[0], in: folder)
        let binary = try #require(Locations.lpcheckBinary).path
        let python = try #require(Locations.tool("python3"))
        // The frames ffprobe decodes (edit list applied), each read twice.
        let probe = try ProcessResult.run(try exports.tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", movie.path])
        let frames = try #require(Int(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe: \(probe.text)\(probe.stderr)")
        let spawn = "import pty, sys\npty.spawn(sys.argv[1:])"
        let terminal = try ProcessResult.run(python, ["-c", spawn, binary, "export", inputs.path, "--as", "gif", "--width", "120", "--output", folder.appendingPathComponent("a").path], timeout: 300)
        #expect(terminal.text.contains("\r[") && terminal.text.contains("100% \(2 * frames)/\(2 * frames) frames read (two passes)") && terminal.text.contains("\u{1B}[K"), "\(terminal.text)")
        let quiet = try ProcessResult.run(python, ["-c", spawn, binary, "export", inputs.path, "--as", "gif", "--width", "120", "--no-progress", "--output", folder.appendingPathComponent("b").path], timeout: 300)
        #expect(quiet.text.contains("exported") && !quiet.text.contains("\r["), "\(quiet.text)")
        let piped = try exports.lpcheck(["export", inputs.path, "--as", "gif", "--width", "120", "--output", folder.appendingPathComponent("c").path])
        #expect(piped.status == 0 && !piped.stderr.contains("\r["), "\(piped.stderr)")
    }

    @Test("--palette frame on IMG_3853 (240 px): a local palette per frame gives a higher PSNR against the source's frames than the clip's one palette (measured +1.2 dB at 320 px), each frame still the one shown at its time")
    func framePalettes() throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try exports.prepare(ExportTests.inputs[0], in: folder)
        var quality: [String: Double] = [:]
        for palette in ["clip", "frame"] {
            let output = folder.appendingPathComponent(palette)
            let export = try exports.lpcheck(["export", inputs.path, "--as", "gif", "--width", "240", "--palette", palette, "--output", output.path, "--no-progress"])
            #expect(export.status == 0 && export.text.contains(palette == "clip" ? "for the clip" : "for each frame"), "\(export.text)")
            let gif = try pillow(output.appendingPathComponent("IMG_3853.gif"))
            let measured = psnr(gif, against: try sourceFrames(movie, width: gif.width, height: gif.height))
            #expect(measured.worst >= 30, "\(palette): \(measured)")
            quality[palette] = measured.mean
        }
        let (clip, frame) = (try #require(quality["clip"]), try #require(quality["frame"]))
        #expect(frame > clip, "per frame \(frame) dB, one palette \(clip) dB")
    }

    @Test("GIFWriter's LZW as Pillow decodes it: every index back, across code-width changes and table clears (a 640×480 frame of noise and runs), a frame of one colour, a single pixel")
    func lzwReadByPillow() throws {
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let seed = SeededGenerator.seed(40)
        var generator = SeededGenerator(seed: seed)
        var noise: [UInt8] = []
        while noise.count < 640 * 480 {
            let value = UInt8.random(in: 0...255, using: &generator)
            noise += [UInt8](repeating: value, count: Bool.random(using: &generator) ? 1 : Int.random(in: 2...40, using: &generator))
        }
        noise = Array(noise.prefix(640 * 480))
        var palette: [UInt8] = []
        for value in 0..<256 { palette += [UInt8(value), UInt8(255 - value), UInt8(value / 2)] }
        let cases: [(width: Int, height: Int, indices: [UInt8])] = [(640, 480, noise), (300, 200, [UInt8](repeating: 7, count: 60_000)), (1, 1, [200])]
        for (number, frame) in cases.enumerated() {
            let url = folder.appendingPathComponent("\(number).gif")
            var bytes = try GIFWriter.head(width: frame.width, height: frame.height, palette: palette)
            bytes += try GIFWriter.frame(left: 0, top: 0, width: frame.width, height: frame.height, indices: frame.indices, delay: 10, transparent: nil)
            bytes += GIFWriter.trailer
            try Data(bytes).write(to: url)
            let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1]); im.load()\nsys.stdout.buffer.write(bytes([im.info.get('loop', 99)]) + (im.tobytes() if im.mode == 'P' else b''))"
            let read = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, url.path])
            #expect(read.status == 0, "\(read.stderr)")
            let same = [UInt8](read.stdout) == [0] + frame.indices
            #expect(same, "case \(number) (LPCHECK_TEST_SEED=\(seed)): Pillow reads loop \(read.stdout.first.map(String.init) ?? "none") and \(read.stdout.count - 1) indices for \(frame.indices.count), not all equal")
        }
    }

    func fileSize(_ url: URL) throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) }
}
