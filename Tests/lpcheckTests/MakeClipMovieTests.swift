import Foundation
import LivePhotoTestSupport
import Testing

/// make CLIP on every shared movie (windows, what is left for the rules), and a 10-bit movie.
extension MakeClipTests {
    @Test("every movie in ../shared/samples/movies makes a pair (the hev1 one is refused with its reason): a clip over 6 s shows 3 s around the moment (ffprobe), and the only finding left is irregular-frame-durations where the shown frames' durations (ffprobe) are more than 3x apart; --movie-seconds 0 keeps a long clip whole, movie-too-long said")
    func everyMovie() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let folder = try #require(SharedSamples.url("movies"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".tsv") }.sorted()
        #expect(names.count >= 4)
        /// ffprobe's duration of a movie and the durations of the frames it shows.
        func timing(_ movie: URL) throws -> (duration: Double, frames: [Double]) {
            let probe = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pkt_duration_time:format=duration", "-of", "csv=p=0", movie.path])
            let values = probe.text.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
            return (values.last ?? 0, Array(values.dropLast()))
        }
        for name in names {
            let out = try scratch()
            defer { try? FileManager.default.removeItem(at: out) }
            let movie = folder.appendingPathComponent(name)
            let made = try lpcheck(["make", movie.path, "-o", out.path])
            if name.contains("h265") {
                #expect(made.status == 2 && made.stderr.contains("hev1"), "\(name): \(made.stderr)")
                continue
            }
            #expect(made.status == 0, "\(name): \(made.text)\(made.stderr)")
            let movieName = try #require(contents(out).first { $0.hasSuffix(".MOV") } as String?)
            let written = out.appendingPathComponent(movieName)
            let source = try timing(movie), shown = try timing(written)
            #expect(source.duration <= 6 ? abs(shown.duration - source.duration) < 0.05 : abs(shown.duration - 3) < 0.05, "\(name): \(source.duration) s shown as \(shown.duration) s")
            let frames = shown.frames.dropLast().filter { $0 > 0 }
            let irregular = (frames.max() ?? 0) > 3 * (frames.min() ?? .infinity)
            let check = try lpcheck(["check", out.path, "--fail-on", "info", "--format", "json", "--no-progress"])
            let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
            let rules = Set(((report["items"] as? [[String: Any]]) ?? []).flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }.compactMap { $0["rule"] as? String })
            #expect(rules == (irregular ? ["irregular-frame-durations"] : []), "\(name): \(rules), the shown frames irregular: \(irregular)")
        }
        let gopro = try #require(names.first { $0.contains("gopro") })
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let whole = try lpcheck(["make", folder.appendingPathComponent(gopro).path, "-o", out.path, "--movie-seconds", "0"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let check = try lpcheck(["check", out.path, "--fail-on", "info", "--no-progress"])
        #expect(check.text.contains("movie-too-long"), "\(check.text)")
    }

    @Test("a 10-bit HEVC movie gives a 10-bit HEIC, decoded (an inter frame) or lossless (its sync sample); a JPEG from it is 8-bit and the plan says so")
    func tenBit() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let movie = work.appendingPathComponent("deep.mov")
        let made = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "1", "-pix_fmt", "yuv420p10le",
                                                              "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-y", movie.path])
        #expect(made.status == 0, "\(made.stderr)")
        for (extra, wanted) in [([String](), "10 10 10"), (["--lossless-still"], "10 10 10")] {
            let out = work.appendingPathComponent("out-\(extra.count)")
            let result = try lpcheck(["make", movie.path, "-o", out.path] + extra)
            #expect(result.status == 0, "\(result.text)\(result.stderr)")
            let still = out.appendingPathComponent("deep.HEIC")
            #expect(try exif("ImagePixelDepth", still) == wanted)
            #expect(try exif("BitDepthLuma", still) == "10")
            try expectClean(out)
        }
        let jpeg = try lpcheck(["make", movie.path, "-o", work.appendingPathComponent("jpeg").path, "--still", "jpeg"])
        #expect(jpeg.status == 0 && jpeg.text.contains("the movie is 10-bit; a JPEG holds 8 bits a channel"), "\(jpeg.text)")
        #expect(try exif("BitsPerSample", work.appendingPathComponent("jpeg/deep.JPG")) == "8")
    }
}
