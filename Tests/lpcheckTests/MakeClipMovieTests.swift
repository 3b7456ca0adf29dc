import Foundation
import LivePhotoTestSupport
import Testing

/// make CLIP on every shared movie (windows, what is left for the rules), and a 10-bit movie.
extension MakeClipTests {
    @Test("every movie in ../shared/samples/movies makes a pair (the hev1 one is refused with its reason): a clip over 6 s shows 3 s around the moment (ffprobe: the still-image-time sample at the moment's place in the window, the first frame shown the source's frame at the window's start), and the only finding left is irregular-frame-durations where the shown frames' durations (ffprobe) are more than 3x apart; --movie-seconds 0 keeps a long clip whole, movie-too-long said")
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
            if source.duration > 6 {
                try expectWindowAroundMoment(source: movie, written: written, duration: source.duration, name)
            }
            let frames = shown.frames.dropLast().filter { $0 > 0 }
            let irregular = (frames.max() ?? 0) > 3 * (frames.min() ?? .infinity)
            // The pair passes at --fail-on warning; a variable rate is an info and nothing else.
            let check = try lpcheck(["check", out.path, "--fail-on", "warning", "--format", "json", "--no-progress"])
            #expect(check.status == 0, "\(name): \(check.text)")
            let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
            let findings = ((report["items"] as? [[String: Any]]) ?? []).flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }
            let rules = Set(findings.compactMap { $0["rule"] as? String }), severities = Set(findings.compactMap { $0["severity"] as? String })
            #expect(rules == (irregular ? ["irregular-frame-durations"] : []) && severities.isSubset(of: ["info"]), "\(name): \(rules) \(severities), the shown frames irregular: \(irregular)")
        }
        let gopro = try #require(names.first { $0.contains("gopro") })
        let out = try scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let whole = try lpcheck(["make", folder.appendingPathComponent(gopro).path, "-o", out.path, "--movie-seconds", "0"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let check = try lpcheck(["check", out.path, "--fail-on", "info", "--no-progress"])
        #expect(check.text.contains("movie-too-long"), "\(check.text)")
    }

    /// A long clip's window, by ffprobe and ffmpeg alone: the moment is the source's middle shown
    /// frame (by count), the window 3 s around it (held inside the clip), the still-image-time
    /// sample at the moment's place in the window, and the first frame shown the source frame
    /// shown at the window's start (its decoded checksum).
    func expectWindowAroundMoment(source: URL, written: URL, duration: Double, _ name: String) throws {
        let ffprobe = try tool("ffprobe"), ffmpeg = try tool("ffmpeg")
        func starts(_ movie: URL) throws -> [Double] {
            try ProcessResult.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", movie.path]).text
                .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        }
        let sourceStarts = try starts(source).filter { $0 < duration }
        let moment = try #require(sourceStarts.isEmpty ? nil : sourceStarts[sourceStarts.count / 2])
        let windowStart = min(max(0, moment - 1.5), duration - 3)
        // The timed-metadata stream (mebx) and its one sample's time, the edit list applied.
        let streams = try ProcessResult.run(ffprobe, ["-v", "error", "-show_entries", "stream=index,codec_tag_string", "-of", "csv=p=0", written.path]).text.split(separator: "\n")
        let metadata = try #require(streams.first { $0.hasSuffix(",mebx") }.map { String($0.split(separator: ",")[0]) }, "\(name): no mebx stream in \(streams)")
        let marker = try ProcessResult.run(ffprobe, ["-v", "error", "-select_streams", metadata, "-show_entries", "packet=pts_time", "-of", "csv=p=0", written.path]).text
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        #expect(marker.count == 1 && abs((marker.first ?? -1) - (moment - windowStart)) < 0.002,
                "\(name): still-image-time at \(marker) s in the window, the moment \(moment) s is \(moment - windowStart) s after the window's start \(windowStart) s")
        // The first frame shown is the source's frame shown at the window's start.
        func checksums(_ movie: URL) throws -> [String] {
            // Every decoded frame once, as decoded (no frame dropped or repeated to a rate).
            let result = try ProcessResult.run(ffmpeg, ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"], timeout: 300)
            #expect(result.status == 0, "\(result.stderr)")
            return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        let sourceFrames = try checksums(source), writtenFrames = try checksums(written)
        let shownAtStart = try #require(sourceStarts.lastIndex { $0 <= windowStart + 1e-6 })
        // ffmpeg drops a frame the edit list starts inside of (its time is before the edit's
        // start) and shows the next: where the window starts inside a frame, either is right.
        let expected = sourceStarts[shownAtStart] < windowStart - 1e-6 ? [shownAtStart, shownAtStart + 1] : [shownAtStart]
        #expect(expected.contains { sourceFrames.indices.contains($0) && writtenFrames.first == sourceFrames[$0] },
                "\(name): the window's first frame is not the source frame \(expected) (shown from \(sourceStarts[shownAtStart]) s) at the window's start \(windowStart) s")
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
