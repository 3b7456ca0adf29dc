import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck export` on hostile movies, in every form that reads them differently (loop copies
/// samples, bounce and gif decode): a clear error naming the file, bounded time and memory
/// (getrusage of lpcheck and the codec helper), and nothing left in the output folder; and
/// exports stopped at every step or killed, which leave nothing check does not report.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ExportHostileTests {
    let exports = ExportTests()

    /// Our own camera-shaped movie with its video sample entry claiming 30000×30000 frames.
    func hugeClaim(in folder: URL) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let walk = BoxWalk(bytes: bytes)
        var range = 0..<bytes.count
        for type in ["moov", "trak", "mdia", "minf", "stbl", "stsd"] {
            range = try #require(walk.children(range).first { $0.type == type }).body
        }
        // stsd: version and flags, entry count, then the entry: 8 bytes of header, 6 reserved,
        // the data reference index, 16 bytes, then width and height.
        let width = range.lowerBound + 8 + 8 + 24
        bytes.replaceSubrange(width..<(width + 4), with: [0x75, 0x30, 0x75, 0x30])
        let url = folder.appendingPathComponent("huge.mov")
        try Data(bytes).write(to: url)
        return url
    }

    /// 100,000 frames of 16×16 (x264, one key frame each 250), made by ffmpeg.
    func manyFrames(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("many.mov")
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "color=c=red:size=16x16:rate=1000:duration=100",
                                                                       "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", "-y", url.path], timeout: 120)
        #expect(made.status == 0, "\(made.stderr)")
        return url
    }

    /// Our camera-shaped movie with its media data cut to 16 bytes, the boxes left saying the
    /// samples are there.
    func outside(in folder: URL) throws -> URL {
        let camera = [UInt8](try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let walk = BoxWalk(bytes: camera)
        let moov = try #require(walk.children(0..<camera.count).first { $0.type == "moov" })
        let mdat = try #require(walk.children(0..<camera.count).first { $0.type == "mdat" })
        var cut: [UInt8]
        if mdat.body.lowerBound < moov.body.lowerBound {
            cut = Array(camera[0..<(mdat.body.lowerBound + 16)]) + Array(camera[(moov.body.lowerBound - 8)...])
            cut.replaceSubrange((mdat.body.lowerBound - 8)..<(mdat.body.lowerBound - 4), with: [0, 0, 0, 24])
        } else {
            cut = Array(camera[0..<(mdat.body.lowerBound + 16)])
        }
        let url = folder.appendingPathComponent("outside.mov")
        try Data(cut).write(to: url)
        return url
    }

    @Test("hostile movies exported as loop, bounce and gif: a 30000×30000 claim and 100,000 frames are refused before any decoding where pixels are needed, a sample outside the file everywhere; each names the file and the fault, exits 1 under 20 s of CPU and 500 MB, and leaves nothing")
    func hostileMovies() throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(make: (URL) throws -> URL, words: [String: String])] = [
            (hugeClaim, ["bounce": "30000×30000", "gif": "30000×30000"]),
            (manyFrames, ["bounce": "100000 frames, more than the 10000", "gif": "100000 GIF frames, more than the 10000"]),
            (outside, ["loop": "outside", "bounce": "outside", "gif": "outside"]),
        ]
        for (make, words) in cases {
            let inputs = folder.appendingPathComponent("in-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            let movie = try make(inputs)
            for form in ["loop", "bounce", "gif"] {
                let output = folder.appendingPathComponent("out-\(UUID().uuidString)")
                let measured = try ProcessResult.measured(try #require(Locations.lpcheckBinary).path, ["export", inputs.path, "--as", form, "--output", output.path + "-measured", "--no-progress"], in: folder, timeout: 120)
                #expect(measured.cpu < 20 && measured.kilobytes < 500_000, "\(movie.lastPathComponent) \(form): \(measured)")
                let result = try exports.lpcheck(["export", inputs.path, "--as", form, "--output", output.path, "--no-progress"])
                let said = result.text + result.stderr
                guard let expected = words[form] else {
                    // Nothing to refuse where no pixel is decoded (a loop lists samples): it is written whole.
                    #expect(result.status == 0, "\(movie.lastPathComponent) \(form): \(said)")
                    continue
                }
                #expect(result.status == 1 && said.contains(movie.lastPathComponent) && said.contains(expected), "\(movie.lastPathComponent) \(form): \(said)")
                let left = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
                #expect(left.isEmpty, "\(movie.lastPathComponent) \(form) left \(left)")
            }
        }
    }

    @Test("a movie whose H.264 stream changes size mid-way (new parameter sets: 64×48 then 320×240, and the other way) becomes a GIF of every frame ffprobe decodes, at the planned size (Pillow), each frame ffmpeg's scaled to that size (PSNR); a bounce refuses it by name, nothing written")
    func sizeChangesMidStream() throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try exports.tool("ffmpeg")
        for (first, second) in [("64x48", "320x240"), ("320x240", "64x48")] {
            let inputs = folder.appendingPathComponent("in-\(first)")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            var parts: [URL] = []
            for size in [first, second] {
                let part = folder.appendingPathComponent("\(first)-\(size).h264")
                let made = try ProcessResult.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=10:duration=1", "-c:v", "libx264", "-bf", "0", "-f", "h264", "-y", part.path])
                #expect(made.status == 0, "\(made.stderr)")
                parts.append(part)
            }
            let joined = folder.appendingPathComponent("\(first).h264")
            try (try Data(contentsOf: parts[0]) + Data(contentsOf: parts[1])).write(to: joined)
            let movie = inputs.appendingPathComponent("changing.mov")
            let muxed = try ProcessResult.run(ffmpeg, ["-v", "error", "-r", "10", "-i", joined.path, "-c", "copy", "-y", movie.path])
            #expect(muxed.status == 0, "\(muxed.stderr)")
            let output = folder.appendingPathComponent("out-\(first)")
            let gif = try exports.lpcheck(["export", inputs.path, "--as", "gif", "--output", output.path, "--no-progress"])
            #expect(gif.status == 0, "\(first) then \(second): \(gif.text)\(gif.stderr)")
            let read = try ExportGIFTests().pillow(output.appendingPathComponent("changing.gif"))
            let planned = first == "64x48" ? (64, 48) : (320, 240)
            let decoded = try ProcessResult.run(try exports.tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width", "-of", "csv=p=0", movie.path])
                .text.split(separator: "\n").filter { !$0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")).isEmpty }
            #expect(Set(decoded.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }).count == 2, "ffprobe decodes \(Set(decoded)) widths")
            #expect(read.frames.count == decoded.count && read.width == planned.0 && read.height == planned.1, "\(read.frames.count) frames of \(read.width)×\(read.height) for ffprobe's \(decoded.count)")
            // Each frame is the picture ffmpeg decodes at its time, scaled to the GIF's size
            // (ffmpeg's scale filter follows the stream's change of size; no B-frames, so that
            // the raw stream's frames keep their order and times).
            let quality = ExportGIFTests().psnr(read, against: try ExportGIFTests().sourceFrames(movie, width: read.width, height: read.height))
            #expect(quality.worst >= 30, "\(first) then \(second): \(quality)")
            let bounce = try exports.lpcheck(["export", inputs.path, "--as", "bounce", "--output", folder.appendingPathComponent("bounce-\(first)").path, "--no-progress"])
            #expect(bounce.status == 1 && bounce.text.contains("picture in a"), "\(bounce.text)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("bounce-\(first)").path)) ?? []).isEmpty)
        }
    }

    /// What a stopped export left in `output`: the writer's temporaries, each named by check as
    /// lpcheck's temporary file, and at most the finished output, which reads clean.
    func expectOnlyTemporaries(_ output: URL, finished: String, _ what: String) throws -> Set<String> {
        let left = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        guard !left.isEmpty else { return [] }
        let check = try exports.lpcheck(["check", output.path, "--format", "json", "--fail-on", "never", "--no-progress"])
        let report = try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any]
        let named = ((report?["summary"] as? [String: Any])?["leftOut"] as? [[String: Any]] ?? []).filter { ($0["reason"] as? String ?? "").contains("lpcheck's temporary file") }
            .compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        let temporaries = left.filter { $0.hasPrefix(".") }
        #expect(Set(temporaries) == Set(named), "\(what): \(left), check names \(named)")
        let others = left.filter { !$0.hasPrefix(".") }
        #expect(others.isEmpty || others == [finished], "\(what): \(others)")
        if others == [finished] {
            let clean = try exports.lpcheck(["check", output.path, "--fail-on", "warning", "--no-progress"])
            #expect(clean.status == 0, "\(what): \(clean.text)")
        }
        return Set((temporaries.isEmpty ? [] : ["temporary"]) + (others.isEmpty ? [] : ["finished"]))
    }

    @Test("an export stopped at any step (LPCHECK_FAULT_STEP: each piece written, fsync, verification, rename) or killed there (SIGKILL, SIGINT while it waits at a step) leaves only lpcheck's temporaries, which check names, or the finished output, which reads clean: a loop (samples copied) and a GIF (the helper's bytes)",
          arguments: ["loop", "gif"])
    func interrupted(_ form: String) throws {
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, _) = try exports.prepare(ExportTests.inputs[1], in: folder)
        let finished = form == "gif" ? "train.gif" : "train.loop.mov"
        let binary = try #require(Locations.lpcheckBinary).path
        let arguments = ["export", inputs.path, "--as", form, "--width", "160", "--no-progress", "--output"]
        var seen: Set<String> = []
        var step = 1
        while step < 60 {
            let output = folder.appendingPathComponent("step-\(step)")
            var environment = ProcessInfo.processInfo.environment
            environment["LPCHECK_FAULT_STEP"] = String(step)
            let run = try ProcessResult.run(binary, arguments + [output.path], environment: environment, timeout: 120)
            if run.status == 0 { break }
            #expect(run.status == 86, "step \(step): \(run.status) \(run.stderr)")
            seen.formUnion(try expectOnlyTemporaries(output, finished: finished, "step \(step)"))
            step += 1
        }
        #expect(step > 2 && step < 60, "the export finished after \(step) steps")
        #expect(seen.contains("temporary"), "\(seen)")
        // Signals sent while the writer waits at a step (a FIFO it reads): each lands mid-write.
        var signalled: Set<String> = []
        for (signal, at) in [(SIGKILL, 1), (SIGINT, step / 2), (SIGKILL, step - 1)] {
            let output = folder.appendingPathComponent("signal-\(signal)-\(at)")
            let reached = try ProcessResult.interrupted(binary, arguments + [output.path], signal: signal, atStep: at)
            #expect(reached.reached && reached.signalled == signal, "the export at step \(at): reached \(reached.reached), ended by signal \(String(describing: reached.signalled))")
            signalled.formUnion(try expectOnlyTemporaries(output, finished: finished, "signal \(signal) at step \(at)"))
        }
        #expect(signalled.contains("temporary"), "no signal left a temporary: \(signalled)")
    }
}

extension ExportHostileTests {
    @Test("a motion photo whose movie's times list samples its size and chunk tables do not hold (androidx's shortened Pixel photo): reverse and gif fail with one line naming the file and the tables, the helper exits 2 and does not crash, nothing written")
    func timesBeyondTables() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let photo = try #require(SharedSamples.url("androidx__media/pixel-motion-photo-shortened.jpg"))
        let folder = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        for form in ["reverse", "gif"] {
            let output = folder.appendingPathComponent(form)
            let export = try exports.lpcheck(["export", photo.path, "--as", form, "-o", output.path, "--no-progress"])
            let failed = export.text.split(separator: "\n").filter { $0.contains("FAILED") }
            #expect(export.status == 1 && failed.count == 1 && failed[0].contains(photo.path) && failed[0].contains("times list sample 1")
                    && failed[0].contains("tables hold 0 samples") && !export.text.contains("crashed"), "\(form): \(export.text)\(export.stderr)")
            #expect(HostileInputs.left(output).isEmpty, "\(form): \(HostileInputs.left(output))")
        }
    }
}
