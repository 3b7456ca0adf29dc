import Foundation
import LivePhotoTestSupport
import Testing

extension MakeClipTests {
    /// The still moment ffprobe finds in a movie: the time of the one packet of its data stream
    /// that holds a single packet (the still-image-time track), edit list applied.
    func stillMoment(_ movie: URL) throws -> Double? {
        var moment: Double?
        for stream in 0..<8 {
            let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "d:\(stream)", "-show_entries", "packet=pts_time", "-of", "csv=p=0", movie.path])
            let times = result.text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if times.count == 1 { moment = times[0] }
        }
        return moment
    }

    @Test("every camera movie of the shared samples, its still set aside, makes a Live Photo that keeps it: the new still's MakerApple identifier is the movie's (ExifTool), the still moment stays the camera's (ffprobe), the still is ffmpeg's frame there at ≥ 38 dB, no finding; --time replaces the moment, and the plan says so",
          arguments: ["gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV", "LycheeOrg__Lychee/train.mov", "henteko__livephotoskit-react/test.mov", "Bai-Mirror__pyheic_struct/apple.MOV"])
    func orphanKeepsItsMarkers(_ relative: String) throws {
        let source = try sample(relative)
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        // The movie alone, as an orphan in an export or a library.
        let movie = work.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: movie)
        let identifier = try exif("Keys:ContentIdentifier", movie)
        let moment = try #require(try stillMoment(movie), "ffprobe finds no still-image-time sample in \(relative)")
        #expect(identifier.count == 36, "\(relative): \(identifier)")
        let out = work.appendingPathComponent("out")
        let made = try lpcheck(["make", movie.path, "-o", out.path, "--no-progress"])
        #expect(made.status == 0 && made.text.contains("whose still is missing: its content identifier \(identifier) is kept"), "\(made.text)\(made.stderr)")
        try expectClean(out)
        let still = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".HEIC") }))
        let written = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))
        #expect(try exif("Apple:MediaGroupUUID", still) == identifier && exif("Keys:ContentIdentifier", written) == identifier)
        let kept = try #require(try stillMoment(written))
        #expect(abs(kept - moment) < 0.001, "\(relative): the camera's moment \(moment) s, the made movie's \(kept) s")
        let decoded = work.appendingPathComponent("still.rgb"), frame = work.appendingPathComponent("frame.rgb")
        let (width, height) = try decodedStill(still, to: decoded)
        try ffmpegFrame(written, at: String(moment), to: frame)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 38, "\(relative): the still at \(quality) dB against ffmpeg's frame at \(moment) s")
        // --time still overrides, and the plan says so.
        let asked = try lpcheck(["make", movie.path, "-o", work.appendingPathComponent("asked").path, "--time", "0.1", "--no-progress"])
        #expect(asked.status == 0 && asked.text.contains("is replaced as asked") && asked.text.contains("(as asked)"), "\(asked.text)\(asked.stderr)")
    }
}

extension MakeClipTests {
    @Test("--lossless-still where no coded picture can be the still as it is (an H.264 movie; a JPEG still): the moment stays where make puts it without the option (ffprobe), the still is encoded, and the plan says why")
    func losslessOnlyWhereItCanBe() throws {
        let cases: [(String, [String], String)] = [
            ("movies/Jsonize__jsonize-ffmpeg-task__tests_assets_iphone_rotated.mov", [], "the track is avc1"),
            (Self.camera, ["--still", "jpeg"], "a JPEG is always encoded"),
        ]
        for (relative, extra, reason) in cases {
            let movie = try sample(relative)
            let work = try scratch()
            defer { try? FileManager.default.removeItem(at: work) }
            let plain = try lpcheck(["make", movie.path, "-o", work.appendingPathComponent("plain").path, "--no-progress"] + extra)
            let asked = try lpcheck(["make", movie.path, "-o", work.appendingPathComponent("asked").path, "--lossless-still", "--no-progress"] + extra)
            #expect(plain.status == 0 && asked.status == 0, "\(plain.text)\(plain.stderr)\(asked.text)\(asked.stderr)")
            #expect(asked.text.contains("--lossless-still: \(reason)") && asked.text.contains("the still is decoded and encoded") && !asked.text.contains("sync-sample"), "\(asked.text)")
            let moments = try ["plain", "asked"].map { folder -> Double in
                let out = work.appendingPathComponent(folder)
                let written = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))
                return try #require(try stillMoment(written))
            }
            #expect(abs(moments[0] - moments[1]) < 0.001, "\(relative): \(moments)")
        }
    }
}
