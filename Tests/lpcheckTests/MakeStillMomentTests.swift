import Foundation
import LivePhotoCodecProtocol
import LivePhotoTestSupport
import Testing

/// make's read-back of a still made from its movie: the still must show the frame shown at the
/// written movie's still-image-time (issue 50, item 4).
extension MakeClipTests {
    /// Two Live Photos made from one clip at two moments, in `work/early` and `work/late`.
    func twoMoments(_ clip: URL, in work: URL, early: String, late: String) throws -> (early: (still: URL, movie: URL), late: (still: URL, movie: URL)) {
        var made: [(URL, URL)] = []
        for (name, time) in [("early", early), ("late", late)] {
            let out = work.appendingPathComponent(name)
            let result = try lpcheck(["make", clip.path, "-o", out.path, "--time", time, "--no-progress"])
            try #require(result.status == 0, "\(result.text)\(result.stderr)")
            made.append((out.appendingPathComponent(try #require(contents(out).first { !$0.hasSuffix(".MOV") })),
                         out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))))
        }
        return (made[0], made[1])
    }

    @Test("the helper's comparison finds the frame a made still shows: on its own pair, the marked frame matches best at ≥ 38 dB, as ffmpeg and libheif find it (≥ 38 dB there too); the still of the next frame, put beside the movie, matches a neighbour better than the marked frame, and ffmpeg finds it further from the marked frame than its own movie's")
    func comparisonFindsTheFrame() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let clip = try sample(Self.h264)
        let pairs = try twoMoments(clip, in: work, early: "0.5", late: "0.55")
        let helper = try #require(Locations.lpcheckBinary).deletingLastPathComponent().appendingPathComponent("lpcheck-codec")
        func compare(_ still: URL, _ movie: URL) throws -> CodecAnswer.Comparison {
            let result = try ProcessResult.run(helper.path, ["compare", still.path, movie.path])
            try #require(result.status == 0, "\(result.stderr)")
            var reader = CodecAnswer.Reader()
            var found: CodecAnswer.Comparison?
            try reader.feed([UInt8](result.stdout)) { part in if case .comparison(let comparison) = part { found = comparison } }
            return try #require(found)
        }
        let ours = try compare(pairs.early.still, pairs.early.movie)
        #expect(ours.best?.frame == ours.marked && (ours.markedDecibels ?? 0) >= 38, "\(ours)")
        // ffmpeg's frame at the marked moment and libheif's still: the same frame, by their PSNR.
        func oracle(_ still: URL, _ movie: URL) throws -> Double {
            let moment = try #require(try stillMoment(movie))
            let frame = work.appendingPathComponent("frame.rgb"), decoded = work.appendingPathComponent("still.rgb")
            try ffmpegFrame(movie, at: String(moment), to: frame)
            let (width, height) = try decodedStill(still, to: decoded)
            return try psnr(decoded, frame, width: width, height: height)
        }
        let (own, crossedOracle) = (try oracle(pairs.early.still, pairs.early.movie), try oracle(pairs.late.still, pairs.early.movie))
        #expect(own >= 38 && crossedOracle < own - 3, "ffmpeg: the still at its own moment \(own) dB; the next frame's still there \(crossedOracle) dB")
        // The decode is held to the budget (checked before decoding, and by the decoder as pictures come).
        let starved = try ProcessResult.run(helper.path, ["compare", pairs.early.still.path, pairs.early.movie.path, "--max-total-pixels", "1000"])
        #expect(starved.status == 2 && starved.stderr.contains("--max-total-pixels") && starved.stdout.isEmpty, "\(starved.status) \(starved.stderr)")
        let crossed = try compare(pairs.late.still, pairs.early.movie)
        #expect(crossed.best.map { $0.frame != crossed.marked && $0.decibels > (crossed.markedDecibels ?? 0) + 0.5 } == true, "\(crossed)")
    }
}
