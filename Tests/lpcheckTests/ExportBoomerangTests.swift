import Foundation
import LivePhotoTestSupport
import Testing

extension ExportTests {
    @Test("--as boomerang (train's H.264 movie; a variable-rate movie made from a GIF): first to last, the last frame held until it has been shown at least 0.25 s, then back to the second; output frame k the source frame that order names at ≥ 38 dB mean luma PSNR, ≥ 35 dB at the worst frame (ffmpeg), each lasting, to the millisecond, the duration it had (ffprobe)")
    func boomerang() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inputs, movie) = try prepare(Self.inputs[1], in: folder)
        let gif = try #require(SharedSamples.url("gifs/python-pillow__Pillow__Tests_images_dispose_bgnd_transparency.gif"))
        let made = folder.appendingPathComponent("made")
        #expect(try lpcheck(["make", gif.path, "--output", made.path, "--no-progress"]).status == 0)
        let madeMovie = try #require(try FileManager.default.contentsOfDirectory(at: made, includingPropertiesForKeys: nil).first { $0.pathExtension == "MOV" })
        for (source, from, name) in [(movie, inputs, "train"), (madeMovie, made, madeMovie.deletingPathExtension().lastPathComponent)] {
            let output = folder.appendingPathComponent("out-\(name)")
            let export = try lpcheck(["export", from.path, "--as", "boomerang", "--output", output.path, "--no-progress"])
            #expect(export.status == 0 && export.text.contains("re-encoded") && export.text.contains("sound dropped"), "\(export.text)\(export.stderr)")
            let written = output.appendingPathComponent("\(name).boomerang.mov")
            // The GIF's variable rate is irregular-frame-durations' info: it passes at warning.
            let check = try lpcheck(["check", output.path, "--fail-on", "warning", "--no-progress"])
            #expect(check.status == 0, "\(name): \(check.text)")
            // The order, from ffprobe's durations of the source: the turn frame held for
            // ceil(0.25 s / its duration) showings in all.
            let times = try timeline(source)
            let count = times.count, last = try #require(times.last).duration
            let held = Int((0.25 / last).rounded(.up))
            let order = Array(0..<count) + Array(repeating: count - 1, count: held - 1) + Array((1..<(count - 1)).reversed())
            #expect(held > 1 || last >= 0.25)
            let shown = try timeline(written)
            #expect(shown.count == order.count, "\(name): \(shown.count) frames for \(order.count)")
            var start = 0.0
            for (frame, index) in zip(shown, order) {
                #expect(abs(frame.start - start) < 0.001 && abs(frame.duration - times[index].duration) < 0.001, "\(name): \(frame) for source frame \(index)")
                start += times[index].duration
            }
            let pause = zip(shown, order).filter { $0.1 == count - 1 }.reduce(0.0) { $0 + $1.0.duration }
            #expect(pause >= 0.25 - 0.001 && pause < 0.25 + last, "\(name): the turn held \(pause) s")
            let (before, after) = (try lumaFrames(source), try lumaFrames(written))
            #expect(after.frames.count == order.count && after.size == before.size)
            let scores = zip(after.frames, order).map { psnr($0, before.frames[$1]) }
            let (worst, mean) = (scores.min() ?? 0, scores.reduce(0, +) / Double(max(1, scores.count)))
            #expect(mean >= 38 && worst >= 35, "\(name): mean \(mean) dB, worst frame \(worst) dB")
        }
    }
}
