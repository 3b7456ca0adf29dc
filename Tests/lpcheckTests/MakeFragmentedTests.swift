import Foundation
import LivePhotoTestSupport
import Testing

/// Fragmented movies (as MediaRecorder, screen recorders and web encoders write them) made by
/// ffmpeg here, read by lpcheck, held to ffprobe's reading of the same file.
extension MakeClipTests {
    /// The ways of fragmenting the tests build: ffmpeg's arguments after `-i INPUT`, the output's
    /// extension, and whether the input is the iPhone movie (else a synthetic one with B-frames).
    static let fragmentings: [(name: String, arguments: [String], ext: String, camera: Bool)] = [
        ("keyframe fragments, explicit base offsets, AAC, the iPhone's rotation", ["-map", "0:v:0", "-map", "0:a:0", "-c:v", "copy", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov"], "mp4", true),
        ("keyframe fragments, default-base-is-moof, PCM sound, QuickTime", ["-map", "0:v:0", "-map", "0:a:0", "-c", "copy", "-movflags", "frag_keyframe+empty_moov+default_base_moof"], "mov", true),
        ("0.2 s fragments that start between sync samples", ["-map", "0:v:0", "-map", "0:a:0", "-c:v", "copy", "-c:a", "aac", "-frag_duration", "200000", "-movflags", "empty_moov+default_base_moof"], "mp4", true),
        ("H.264 with B-frames (composition offsets), AAC", ["-c:v", "libx264", "-g", "15", "-bf", "2", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof"], "mp4", false),
    ]

    /// A fragmented movie made by ffmpeg in `folder`.
    func fragmented(_ arguments: [String], ext: String, camera: Bool, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("fragmented.\(ext)")
        let input = camera ? ["-i", try sample("henteko__livephotoskit-react/test.mov").path]
            : ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "3"]
        let made = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-y"] + input + arguments + [url.path])
        try #require(made.status == 0, "\(made.stderr)")
        return url
    }

    /// ffprobe's packets of stream `index`: times, size, flags and an MD5 of the data.
    func packets(_ movie: URL, stream index: Int) throws -> [String] {
        let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "\(index)", "-show_entries", "packet=pts,dts,size,flags,data_hash",
                                                                  "-show_data_hash", "MD5", "-of", "csv=p=0", movie.path])
        return result.text.split(separator: "\n").map(String.init)
    }

    /// The top-level box types of a file, read here header by header (not by lpcheck).
    func topLevelTypes(_ file: URL) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: file))
        var (types, offset) = ([String](), 0)
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count { size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = bytes.count - offset }
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }

    @Test("a fragmented movie reads as ffprobe reads it: each track's samples (dump), its duration; make writes an ordinary movie (no moof, no mvex) whose every packet (times, size, key flag, MD5 of the data) is ffprobe's packet of the fragmented input, the rotation kept, the still ffmpeg's frame at the moment at ≥ 38 dB, and check finds nothing",
          arguments: MakeClipTests.fragmentings.indices)
    func fragmentedMovies(_ which: Int) throws {
        let way = Self.fragmentings[which]
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = try fragmented(way.arguments, ext: way.ext, camera: way.camera, in: work)
        let moofs = try topLevelTypes(input).filter { $0 == "moof" }.count
        #expect(moofs > 1, "\(way.name): ffmpeg wrote \(moofs) fragments")
        let dump = try lpcheck(["dump", "--format", "json", input.path])
        let object = try #require((try JSONSerialization.jsonObject(with: Data(dump.text.utf8)) as? [[String: Any]])?.first, "\(dump.text)\(dump.stderr)")
        #expect((object["fragments"] as? [String: Any])?["count"] as? Int == moofs, "\(way.name): \(object["fragments"] ?? "no fragments")")
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        for index in 0..<2 {
            let expected = try packets(input, stream: index).count
            #expect(tracks[index]["sampleCount"] as? Int == expected, "\(way.name): track \(index + 1) lists \(tracks[index]["sampleCount"] ?? "?") samples, ffprobe \(expected)")
        }
        let duration = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", input.path])
        // A rotated stream's line ends with its side data's empty field.
        let seconds = try #require(Double(duration.text.split(whereSeparator: { $0 == "," || $0.isNewline }).first ?? ""), "\(duration.text)")
        let track = try #require(tracks.first)
        let ours = Double(track["mediaDuration"] as? Int ?? 0) / Double(track["mediaTimescale"] as? Int ?? 1)
        #expect(abs(ours - seconds) < 0.002, "\(way.name): the video lasts \(ours) s, ffprobe says \(seconds) s")

        let out = work.appendingPathComponent("out")
        let made = try lpcheck(["make", input.path, "-o", out.path, "--no-progress"])
        #expect(made.status == 0 && made.text.contains("fragments (") && made.text.contains("no sample moves"), "\(made.text)\(made.stderr)")
        let written = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".MOV") }))
        let types = try topLevelTypes(written)
        #expect(!types.contains("moof") && !types.contains("mfra"), "\(way.name): \(types)")
        let moov = try lpcheck(["dump", written.path])
        #expect(!moov.text.contains("mvex") && !moov.text.contains("fragmented:"), "\(way.name): \(moov.text)")
        for index in 0..<2 {
            let (before, after) = (try packets(input, stream: index), try packets(written, stream: index))
            #expect(before == after, "\(way.name): stream \(index): \(before.count) packets before, \(after.count) after; first difference \(zip(before, after).first { $0 != $1 }.map { "\($0) → \($1)" } ?? "none")")
        }
        let rotation = { (file: URL) throws -> String in
            try ProcessResult.run(try self.tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", file.path]).text
        }
        #expect(try rotation(written) == rotation(input), "\(way.name)")
        try expectClean(out)
        let still = out.appendingPathComponent(try #require(contents(out).first { $0.hasSuffix(".HEIC") }))
        let moment = try #require(try stillMoment(written))
        let decoded = work.appendingPathComponent("still.rgb"), frame = work.appendingPathComponent("frame.rgb")
        let (width, height) = try decodedStill(still, to: decoded)
        try ffmpegFrame(input, at: String(moment), to: frame)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 38, "\(way.name): the still at \(quality) dB against ffmpeg's frame of the fragmented input at \(moment) s")
    }

    @Test("export from a fragmented movie: --as loop shows every frame three times (ffprobe counts 3 × the input's), as it does for the same movie unfragmented with no edit list (B-frames: the loop starts at the first shown frame, not media time 0); --as bounce and gif are written",
          arguments: [3, 0])
    func exportFromFragments(_ which: Int) throws {
        let way = Self.fragmentings[which]
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = try fragmented(way.arguments, ext: way.ext, camera: way.camera, in: work)
        let plain = work.appendingPathComponent("plain.mp4")
        let remux = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", input.path, "-c", "copy", "-use_editlist", "0", plain.path])
        try #require(remux.status == 0, "\(remux.stderr)")
        func frames(_ movie: URL) throws -> Int {
            let result = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", movie.path])
            return Int(result.text.split(whereSeparator: { $0 == "," || $0.isNewline }).first ?? "") ?? -1
        }
        let shown = try frames(input)
        for movie in [input, plain] {
            let out = work.appendingPathComponent("loop-\(movie.lastPathComponent)")
            let export = try lpcheck(["export", movie.path, "--as", "loop", "-o", out.path, "--no-progress"])
            #expect(export.status == 0, "\(export.text)\(export.stderr)")
            let loop = out.appendingPathComponent(try #require(contents(out).first))
            let looped = try frames(loop)
            #expect(looped == 3 * shown, "\(way.name), \(movie.lastPathComponent): the loop shows \(looped) frames, the movie \(shown)")
        }
        for form in ["bounce", "gif"] {
            let export = try lpcheck(["export", input.path, "--as", form, "-o", work.appendingPathComponent(form).path, "--no-progress"])
            #expect(export.status == 0 && export.text.contains("1 exported"), "\(form): \(export.text)\(export.stderr)")
        }
    }
}
