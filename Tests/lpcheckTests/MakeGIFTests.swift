import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck make GIF`: the movie's frames and times against the GIF as Pillow composites it
/// and reads its delays (browsers' rule applied: under 2 cs shown as 10 cs), ffprobe's frame
/// times, ffmpeg's decoded frames and libheif's still; bad GIFs measured for time and memory.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct MakeGIFTests {
    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, timeout: 300)
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-gif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func contents(_ folder: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    func python(_ script: String, _ arguments: [String]) throws -> String {
        try Locations.require(Locations.pythonHas("PIL", "pillow_heif"), "Pillow and pillow-heif (PyPI)")
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    /// The oracle, in Python: Pillow's frames composited over white, its delays with the
    /// browsers' rule; ffprobe's frame times and ffmpeg's frames of the movie (passthrough, each
    /// reduced to the GIF's size by averaging its blocks); libheif's still. Prints JSON.
    static let oracle = """
    import json, math, subprocess, sys
    import pillow_heif
    from PIL import Image, ImageSequence
    pillow_heif.register_heif_opener()
    gif, movie, still, moment = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    image = Image.open(gif)
    width, height = image.size
    frames, delays = [], []
    for frame in ImageSequence.Iterator(image):
        rgba = frame.convert('RGBA')
        canvas = Image.new('RGBA', rgba.size, (255, 255, 255, 255))
        canvas.alpha_composite(rgba)
        frames.append(canvas.convert('RGB'))
        centiseconds = round(frame.info.get('duration', 0) / 10)
        delays.append(10 if centiseconds < 2 else centiseconds)
    size = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', movie],
                          capture_output=True, text=True).stdout.strip().split(',')
    movie_width, movie_height = int(size[0]), int(size[1])
    scale = max(1, movie_width // width)
    times = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', movie],
                           capture_output=True, text=True).stdout.split()
    times = [float(t.rstrip(',')) for t in times]
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', movie, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], capture_output=True).stdout
    count = len(raw) // (movie_width * movie_height * 3)
    def psnr(a, b):
        error = sum((x - y) ** 2 for x, y in zip(a.tobytes(), b.tobytes())) / (width * height * 3)
        return 99.0 if error == 0 else 10 * math.log10(255 ** 2 / error)
    def reduced(picture):
        return picture.crop((0, 0, width * scale, height * scale)).resize((width, height), Image.BOX)
    quality = []
    for index in range(min(count, len(frames))):
        piece = raw[index * movie_width * movie_height * 3:(index + 1) * movie_width * movie_height * 3]
        quality.append(psnr(reduced(Image.frombytes('RGB', (movie_width, movie_height), piece)), frames[index]))
    shown = reduced(Image.open(still).convert('RGB'))
    starts = [sum(delays[:i]) / 100 for i in range(len(delays))]
    print(json.dumps({'frames': len(frames), 'decoded': count, 'times': times, 'starts': starts, 'scale': scale,
                      'quality': quality, 'still': psnr(shown, frames[moment]), 'delays': delays,
                      'movie': [movie_width, movie_height], 'gif': [width, height]}))
    """

    struct Oracle: Decodable {
        var frames: Int, decoded: Int, times: [Double], starts: [Double], scale: Int, quality: [Double], still: Double, delays: [Int], movie: [Int], gif: [Int]
    }

    /// The frame shown at the middle of the GIF's timeline (make's default moment).
    static func middle(_ delays: [Int]) -> Int {
        let total = delays.reduce(0, +)
        var start = 0, shown = 0
        for (index, delay) in delays.enumerated() {
            if start * 2 <= total { shown = index }
            start += delay
        }
        return shown
    }

    /// Makes a pair from `gif` and holds it to the oracle; the findings lpcheck's check gives it.
    @discardableResult
    func makeAndCompare(_ gif: URL, extra: [String] = [], minimumQuality: Double = 35) throws -> (Oracle, String) {
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", gif.path, "-o", out.path] + extra)
        #expect(made.status == 0, "\(gif.lastPathComponent): \(made.text)\(made.stderr)")
        let base = gif.deletingPathExtension().lastPathComponent
        #expect(contents(out) == [base + ".HEIC", base + ".MOV"], "\(contents(out))")
        // Pillow's delays, to find the frame at the middle before asking the oracle.
        let delaysText = try python("""
        import sys
        from PIL import Image, ImageSequence
        print(' '.join(str(max(0, round(f.info.get('duration', 0) / 10))) for f in ImageSequence.Iterator(Image.open(sys.argv[1]))))
        """, [gif.path])
        let delays = delaysText.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map { $0 < 2 ? 10 : $0 }
        let text = try python(Self.oracle, [gif.path, out.appendingPathComponent(base + ".MOV").path, out.appendingPathComponent(base + ".HEIC").path, String(Self.middle(delays))])
        let oracle = try JSONDecoder().decode(Oracle.self, from: Data(text.utf8))
        #expect(oracle.decoded == oracle.frames && oracle.times.count == oracle.frames, "\(gif.lastPathComponent): \(oracle.frames) GIF frames, \(oracle.decoded) decoded, \(oracle.times.count) times")
        for (time, start) in zip(oracle.times, oracle.starts) {
            #expect(abs(time - start) <= 0.001, "\(gif.lastPathComponent): a frame at \(time) s where the GIF's delays put it at \(start) s")
        }
        for (index, quality) in oracle.quality.enumerated() {
            #expect(quality >= minimumQuality, "\(gif.lastPathComponent): frame \(index) at \(quality) dB")
        }
        #expect(oracle.still >= minimumQuality, "\(gif.lastPathComponent): the still at \(oracle.still) dB against the frame at the moment")
        // The still-image-time marks the frame the still is: where the frame shown at half the
        // GIF's duration starts (ffprobe: the one packet of the movie's timed-metadata stream).
        let probe = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-select_streams", "d", "-show_entries", "packet=pts_time",
                                                                                   "-of", "csv=p=0", out.appendingPathComponent(base + ".MOV").path])
        let marked = probe.text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let middle = Self.middle(delays)
        #expect(marked.count == 1 && oracle.starts.indices.contains(middle) && abs((marked.first ?? -1) - oracle.starts[middle]) < 0.001,
                "\(gif.lastPathComponent): the still-image-time at \(marked) s, the still's frame \(middle + 1) starts at \(oracle.starts.indices.contains(middle) ? oracle.starts[middle] : -1) s")
        // The pair passes at --fail-on warning, whatever the GIF's timing; what it says (every
        // finding listed at --fail-on info) is held below.
        let gate = try lpcheck(["check", out.path, "--fail-on", "warning", "--no-progress"])
        #expect(gate.status == 0, "\(gif.lastPathComponent): \(gate.text)")
        let check = try lpcheck(["check", out.path, "--fail-on", "info", "--no-progress"])
        return (oracle, check.text)
    }

    /// Only irregular-frame-durations, an info that decides no verdict, and only where the GIF's
    /// own shown delays (the last aside, as the rule reads them) are more than 3× apart: every
    /// other finding fails.
    func expectFindings(_ text: String, delays: [Int], _ name: String) {
        let considered = delays.count > 1 ? Array(delays.dropLast()) : delays
        let irregular = delays.count > 2 && (considered.max() ?? 0) > 3 * (considered.min() ?? 0)
        let findings = text.split(separator: "\n").filter { $0.hasPrefix("  error ") || $0.hasPrefix("  warning ") || $0.hasPrefix("  info ") }
        if irregular {
            #expect(findings.count == 1 && findings[0].hasPrefix("  info irregular-frame-durations") && findings[0].contains("by design in a GIF's")
                    && text.contains("0 errors, 0 warnings, 1 info:"), "\(name): \(text)")
        } else {
            #expect(findings.isEmpty && text.contains("0 errors, 0 warnings, 0 infos"), "\(name): \(text)")
        }
    }

    @Test("every real GIF in ../shared/samples/gifs makes a pair: its frames at the GIF's cumulative delays (1 ms), each within 35 dB of Pillow's composite, the still the frame at the moment, no finding but the durations the GIF has")
    func realGIFs() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let folder = try #require(SharedSamples.url("gifs"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gif") }.sorted()
        #expect(names.count >= 10)
        for name in names where !name.contains("truncated") && !name.contains("background-color") {
            let (oracle, findings) = try makeAndCompare(folder.appendingPathComponent(name))
            expectFindings(findings, delays: oracle.delays, name)
        }
    }

    @Test("crafted: delays 0/2/5/10/37 cs, disposal 2 and 3, transparency, a 33×21 screen; at --scale 1 the odd sides are padded; its variable timing an info that a configuration raises to a failing warning")
    func crafted() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let gif = work.appendingPathComponent("crafted.gif")
        // Five distinct frames; the transparent index is also the background index, so that a
        // reader painting the background colour on disposal 2 (Pillow) agrees with browsers.
        _ = try python("""
        import sys
        from PIL import Image, ImageDraw
        palette = [255, 255, 255, 200, 30, 30, 30, 160, 60, 40, 60, 210, 240, 200, 20] + [0] * (256 * 3 - 15)
        frames = []
        for index in range(5):
            frame = Image.new('P', (33, 21), 0)
            frame.putpalette(palette)
            draw = ImageDraw.Draw(frame)
            draw.rectangle([index * 5, 2, index * 5 + 9, 14], fill=1 + index % 4)
            draw.ellipse([20 - index * 2, 5, 30 - index, 19], fill=1 + (index + 2) % 4)
            frames.append(frame)
        frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=[0, 20, 50, 100, 370],
                       disposal=[1, 2, 3, 2, 1], transparency=0, background=0, loop=0, optimize=False)
        """, [gif.path])
        let (oracle, findings) = try makeAndCompare(gif)
        #expect(oracle.delays == [10, 2, 5, 10, 37], "\(oracle.delays)")
        #expect(oracle.starts == [0, 0.1, 0.12, 0.17, 0.27])
        #expect(oracle.movie == [66, 42] && oracle.scale == 2)
        expectFindings(findings, delays: oracle.delays, "crafted.gif")
        // Who gates constant-rate assets raises the rule's severity (README): then the pair fails.
        let made = work.appendingPathComponent("made")
        #expect(try lpcheck(["make", gif.path, "-o", made.path, "--no-progress"]).status == 0)
        let config = work.appendingPathComponent("constant-rate.yml")
        try "rules:\n  irregular-frame-durations: warning\n".write(to: config, atomically: true, encoding: .utf8)
        let gated = try lpcheck(["check", made.path, "--config", config.path, "--fail-on", "warning", "--no-progress"])
        #expect(gated.status == 1 && gated.text.contains("  warning irregular-frame-durations"), "\(gated.text)")
        // At its own size 4:2:0 halves the chroma of every colour edge: the reason for --scale 2.
        let (padded, _) = try makeAndCompare(gif, extra: ["--scale", "1"], minimumQuality: 15)
        #expect(padded.movie == [34, 22], "\(padded.movie)")
        #expect((oracle.quality.min() ?? 0) > (padded.quality.min() ?? 0) + 5, "2×: \(oracle.quality), 1×: \(padded.quality)")
    }

    @Test("disposal 2 clears to transparent, not to the background colour (wuffs' background-color.gif, worked out by hand from its bytes)")
    func backgroundColourIgnored() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let gif = try #require(SharedSamples.url("gifs/google__wuffs__test_data_artificial-gif_background-color.gif"))
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let made = try lpcheck(["make", gif.path, "-o", out.path, "--still", "jpeg"])
        #expect(made.status == 0, "\(made.stderr)")
        // 4×1 screen, palette (128,0,0) (128,0,193) (128,194,0) (128,195,195), background index 3.
        // Frame 1: indices 0 and 1 at x 0–1, disposal 2. Frame 2: index 2 at x 2. Over white:
        let expected: [[[Int]]] = [[[128, 0, 0], [128, 0, 193], [255, 255, 255], [255, 255, 255]],
                                   [[255, 255, 255], [255, 255, 255], [128, 194, 0], [255, 255, 255]]]
        let text = try python("""
        import json, subprocess, sys
        from PIL import Image
        movie = sys.argv[1]
        size = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', movie], capture_output=True, text=True).stdout.strip().split(',')
        w, h = int(size[0]), int(size[1])
        raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', movie, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], capture_output=True).stdout
        scale = w // 4
        frames = []
        for index in range(len(raw) // (w * h * 3)):
            picture = Image.frombytes('RGB', (w, h), raw[index * w * h * 3:(index + 1) * w * h * 3]).crop((0, 0, 4 * scale, scale)).resize((4, 1), Image.BOX)
            frames.append([list(picture.getpixel((x, 0))) for x in range(4)])
        print(json.dumps(frames))
        """, [out.appendingPathComponent("google__wuffs__test_data_artificial-gif_background-color.MOV").path])
        let frames = try JSONDecoder().decode([[[Int]]].self, from: Data(text.utf8))
        #expect(frames.count == 2)
        for (frame, wanted) in zip(frames, expected) {
            for (pixel, colour) in zip(frame, wanted) {
                #expect(zip(pixel, colour).allSatisfy { abs($0 - $1) <= 12 }, "\(frames) against \(expected)")
            }
        }
    }

    @Test("a make stopped at any step (LPCHECK_FAULT_STEP: each write, fsync, verification, rename) or killed there (SIGKILL, SIGINT while it waits at a step) leaves lpcheck's temporaries, which check names, and no output, a lone renamed half, which check fails, or the finished pair, which passes")
    func interrupted() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let gif = work.appendingPathComponent("run.gif")
        _ = try python("""
        import sys
        from PIL import Image, ImageDraw
        frames = []
        for index in range(12):
            frame = Image.new('P', (160, 120), 0)
            frame.putpalette([255, 255, 255, 200, 30, 30] + [0] * 762)
            ImageDraw.Draw(frame).rectangle([index * 10, 10, index * 10 + 30, 100], fill=1)
            frames.append(frame)
        frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=40, loop=0)
        """, [gif.path])
        let binary = try #require(Locations.lpcheckBinary).path
        /// What a stopped run left in `out`: writer's temporaries, which check names, and either
        /// nothing else, a lone half that check fails, or (stopped after the last rename) the
        /// finished pair, which passes.
        var seen: Set<String> = []
        func expectNoFinishedPair(_ out: URL, _ what: String) throws {
            let left = contents(out)
            guard !left.isEmpty else { return }
            if left.contains(where: { $0.hasPrefix(".") }) { seen.insert("temporary") }
            let check = try lpcheck(["check", out.path, "--format", "json", "--fail-on", "never", "--no-progress"])
            let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
            let named = ((report["summary"] as? [String: Any])?["leftOut"] as? [[String: Any]] ?? []).filter { ($0["reason"] as? String ?? "").contains("lpcheck's temporary file") }
                .compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
            let halves = left.filter { !$0.hasPrefix(".") }
            #expect(Set(left.filter { $0.hasPrefix(".") }) == Set(named), "\(what): \(left), named \(named)")
            let checked = try lpcheck(["check", out.path, "--no-progress", "--fail-on", "info"])
            if !halves.isEmpty { seen.insert("\(halves.count) renamed") }
            if halves.count == 2 {
                #expect(halves == ["run.HEIC", "run.MOV"] && checked.status == 0, "\(what): \(halves) \(checked.text)")
            } else if halves.count == 1 {
                #expect(checked.status == 1, "\(what): \(halves) \(checked.text)")
            }
        }
        var step = 1
        // Each of the movie's samples is a write as the helper sends it: 12 frames, some 30 steps.
        while step < 80 {
            let out = work.appendingPathComponent("step-\(step)")
            var environment = ProcessInfo.processInfo.environment
            environment["LPCHECK_FAULT_STEP"] = String(step)
            let run = try ProcessResult.run(binary, ["make", gif.path, "-o", out.path], environment: environment, timeout: 120)
            if run.status == 0 { break }
            #expect(run.status == 86, "step \(step): \(run.status) \(run.stderr)")
            try expectNoFinishedPair(out, "step \(step)")
            step += 1
        }
        #expect(step > 12 && step < 80, "the run finished after \(step) steps")
        // The steps reached each state a stop can leave.
        #expect(seen == ["temporary", "1 renamed", "2 renamed"], "\(seen)")
        // Signals sent while the writer waits at a step (a FIFO it reads): each lands mid-write.
        seen = []
        for (signal, at) in [(SIGKILL, 3), (SIGINT, step / 2), (SIGKILL, step - 1)] {
            let out = work.appendingPathComponent("signal-\(signal)-\(at)")
            let reached = try ProcessResult.interrupted(binary, ["make", gif.path, "-o", out.path], signal: signal, atStep: at)
            #expect(reached.reached && reached.signalled == signal, "make at step \(at): reached \(reached.reached), ended by signal \(String(describing: reached.signalled))")
            try expectNoFinishedPair(out, "signal \(signal) at step \(at)")
        }
        #expect(seen.contains("temporary"), "no signal left a temporary: \(seen)")
    }

    @Test("memory does not grow with the GIF's length: 1,000 frames peak within 1.25× of 100 (decoded frames streamed, the movie written sample by sample)")
    func memoryBounded() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        var peaks: [Int] = []
        for count in [100, 1000] {
            let gif = work.appendingPathComponent("frames-\(count).gif")
            _ = try python("""
            import sys
            from PIL import Image, ImageDraw
            frames = []
            for index in range(int(sys.argv[2])):
                frame = Image.new('P', (200, 150), 0)
                frame.putpalette([255, 255, 255, 200, 30, 30, 30, 120, 200] + [0] * 759)
                draw = ImageDraw.Draw(frame)
                draw.rectangle([index % 180, 10, index % 180 + 20, 140], fill=1 + index % 2)
                frames.append(frame)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=4, loop=0)
            """, [gif.path, String(count)])
            let run = try ProcessResult.measured(try #require(Locations.lpcheckBinary).path, ["make", gif.path, "-o", work.appendingPathComponent("out-\(count)").path],
                                                 in: work, timeout: 300)
            #expect(run.status == 0, "\(run.stderr)")
            peaks.append(run.kilobytes)
        }
        #expect(Double(peaks[1]) <= 1.25 * Double(peaks[0]), "peak \(peaks[0]) KiB for 100 frames, \(peaks[1]) KiB for 1000")
    }

    @Test("bad GIFs exit 2 naming the file and the fault, within 20 s and 500 MB, leaving the folder empty: a 65535×65535 screen, 20,000 frames, LZW data overrunning its frame, a truncated GIF")
    func badGIFs() throws {
        let work = try scratch(), out = try scratch()
        defer { for url in [work, out] { try? FileManager.default.removeItem(at: url) } }
        func le(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let header = Array("GIF89a".utf8)
        let palette: [UInt8] = [0, 0, 0, 255, 255, 255]
        // One 1×1 frame: minimum code size 2, codes clear (4), 0, end (5) in 3-bit codes.
        let pixel: [UInt8] = [0x2C] + le(0) + le(0) + le(1) + le(1) + [0, 2, 2, 0x44, 0x01, 0]
        let huge = header + le(65535) + le(65535) + [0x80, 0, 0] + palette + pixel + [0x3B]
        var many = header + le(1) + le(1) + [0x80, 0, 0] + palette
        for _ in 0..<20_000 { many += [0x21, 0xF9, 4, 0, 2, 0, 0, 0] + pixel }
        many.append(0x3B)
        // A 1×1 frame whose data gives four pixels: clear, 0, 0, 0, 0, end.
        let overrun = header + le(1) + le(1) + [0x80, 0, 0] + palette + [0x2C] + le(0) + le(0) + le(1) + le(1) + [0, 2, 3, 0x04, 0x00, 0x0A, 0] + [0x3B]
        let cases: [(String, [UInt8], String)] = [("huge.gif", huge, "65535×65535"), ("many.gif", many, "more than 10000 frames"),
                                                  ("overrun.gif", overrun, "more pixels than the frame")]
        var inputs: [(URL, String)] = []
        for (name, bytes, words) in cases {
            let url = work.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            inputs.append((url, words))
        }
        if let truncated = SharedSamples.url("gifs/google__wuffs__test_data_hippopotamus.interlaced.truncated.gif"), Locations.hasSharedSamples {
            inputs.append((truncated, "truncated"))
        }
        let binary = try #require(Locations.lpcheckBinary).path
        for (gif, words) in inputs {
            let run = try ProcessResult.measured(binary, ["make", gif.path, "-o", out.path], in: work, timeout: 20)
            #expect(run.status == 2, "\(gif.lastPathComponent): exit \(run.status): \(run.stderr)")
            #expect(run.stderr.contains(gif.lastPathComponent) && run.stderr.contains(words), "\(gif.lastPathComponent): \(run.stderr)")
            #expect(run.kilobytes < 500_000 && run.cpu < 20, "\(gif.lastPathComponent): \(run.kilobytes) KiB, \(run.cpu) s")
            #expect(contents(out).isEmpty, "\(gif.lastPathComponent) left \(contents(out))")
        }
    }
}

extension MakeGIFTests {
    @Test("a long GIF whose window around the moment would show one frame (20 s, 1 s, 1 s: the still is the first frame, at 0 s) is kept whole, 22 s by ffprobe, and the plan names movie-too-long; ten frames of 3 s keep a 3 s window that shows two frames")
    func longGIFShowsMotion() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        for (name, delays) in [("first", [20_000, 1_000, 1_000]), ("slow", Array(repeating: 3_000, count: 10))] {
            let gif = work.appendingPathComponent("\(name).gif")
            _ = try python("""
            import sys, json
            from PIL import Image, ImageDraw
            delays = json.loads(sys.argv[2])
            frames = []
            for index in range(len(delays)):
                frame = Image.new('RGB', (64, 48), (index * 20, 100, 200 - index * 15))
                ImageDraw.Draw(frame).rectangle([index * 5, 10, index * 5 + 10, 30], fill=(255, 255, 0))
                frames.append(frame)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=delays, loop=0)
            """, [gif.path, "\(delays)"])
            let out = work.appendingPathComponent(name)
            let made = try lpcheck(["make", gif.path, "-o", out.path, "--no-progress"])
            #expect(made.status == 0, "\(made.text)\(made.stderr)")
            let probe = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                                                       out.appendingPathComponent("\(name).MOV").path])
            let duration = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            if name == "first" {
                #expect(abs(duration - 22) < 0.01 && made.text.contains("would show one frame of it") && made.text.contains("movie-too-long"), "\(duration) s: \(made.text)")
            } else {
                #expect(abs(duration - 3) < 0.01 && !made.text.contains("would show one frame"), "\(duration) s: \(made.text)")
            }
        }
    }
}
