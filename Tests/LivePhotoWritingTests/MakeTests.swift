import Foundation
import LivePhotoFormats
import LivePhotoWriting
import LivePhotoTestSupport
import Testing

@Suite(.enabled(if: Locations.lpcheckBinary != nil && Locations.tool("ffmpeg") != nil, "needs lpcheck and ffmpeg"))
struct MakeTests {
    @Test("make on an ffmpeg JPEG frame and H.264 MP4: ExifTool and check accept the pair; same decoded frames", arguments: [false, true])
    func makePair(faststart: Bool) throws {
        let folder = try Scratch.folder("make")
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("clip.mp4")
        let frame = folder.appendingPathComponent("frame.jpg")
        var arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
                         "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"]
        if faststart { arguments += ["-movflags", "+faststart"] }
        #expect(try Scratch.run("ffmpeg", arguments + [movie.path]).status == 0)
        #expect(try Scratch.run("ffmpeg", ["-v", "error", "-ss", "1", "-i", movie.path, "-frames:v", "1", frame.path]).status == 0)
        let framesBefore = try Scratch.frameChecksums(movie)

        let output = folder.appendingPathComponent("out")
        let make = try Scratch.lpcheck(["make", frame.path, movie.path, "--output", output.path, "--time", "1.0"])
        #expect(make.status == 0, "\(make.text) \(make.stderr)")
        if faststart { #expect(make.text.contains("every chunk offset after it shifts")) }
        let still = output.appendingPathComponent("frame.JPG")
        let made = output.appendingPathComponent("frame.MOV")
        let stillRecord = try Scratch.exiftool(still)
        let movieRecord = try Scratch.exiftool(made)
        #expect(Scratch.stillIdentifier(stillRecord) != nil)
        #expect(Scratch.stillIdentifier(stillRecord) == movieRecord["Keys:ContentIdentifier"] as? String)
        #expect(Scratch.stillImageTime(movieRecord) == -1)
        #expect(try Scratch.lpcheck(["check", output.path]).status == 0)
        #expect(try Scratch.frameChecksums(made) == framesBefore)
        let decode = try Scratch.run("ffmpeg", ["-v", "error", "-i", made.path, "-f", "null", "-"])
        #expect(decode.stderr.isEmpty, "\(decode.stderr)")
        let parsed = try #require(MediaFile.inspect(path: made.path).movie)
        #expect(parsed.majorBrand == "qt  ")
        #expect(abs((parsed.stillImageTime?.seconds ?? -1) - 1.0) < 0.01)
        // The inputs are untouched.
        #expect(try Scratch.frameChecksums(movie) == framesBefore)
    }

    @Test("a leading moov: shifting offsets and freeing the old moov both keep every frame", arguments: [Int64(0), MovieRewriter.shiftLimit])
    func leadingMoov(shiftLimit: Int64) throws {
        let folder = try Scratch.folder("faststart")
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("fast.mov")
        #expect(try Scratch.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1", "-c:v", "libx264",
                                           "-pix_fmt", "yuv420p", "-movflags", "+faststart", movie.path]).status == 0)
        let source = try FileSource(path: movie.path)
        let parsed = try Movie.read(from: source)
        #expect(parsed.boxes.firstIndex { $0.type == "moov" } ?? 9 < parsed.boxes.firstIndex { $0.type == "mdat" } ?? 0)
        let edits = MovieEdits(contentIdentifier: "4C1D2E3F-5A6B-4C7D-8E9F-0A1B2C3D4E5F", stillImageTime: StillImagePlacement(seconds: 0.4), quickTimeBrand: true)
        let patch = try MovieRewriter.rewrite(parsed, source: source, edits: edits, shiftLimit: shiftLimit)
        #expect(patch.notes.contains { $0.contains(shiftLimit == 0 ? "becomes free space" : "shifts by") })
        let output = folder.appendingPathComponent("out.mov")
        try Data(try patch.render(from: source)).write(to: output)
        let read = try #require(MediaFile.inspect(path: output.path).movie)
        #expect(read.contentIdentifier == "4C1D2E3F-5A6B-4C7D-8E9F-0A1B2C3D4E5F")
        #expect(abs((read.stillImageTime?.seconds ?? -1) - 0.4) < 0.01)
        #expect(try Scratch.frameChecksums(output) == Scratch.frameChecksums(movie))
    }

    @Test("make refuses what is not a still or a movie, and existing outputs without --force")
    func refusals() throws {
        let folder = try Scratch.folder("make-refuse")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        let still = Locations.samples.appendingPathComponent("plain-frame.jpg").path
        let movie = Locations.samples.appendingPathComponent("plain-clip.mov").path
        #expect(try Scratch.lpcheck(["make", text.path, movie, "--output", folder.path]).status == 2)
        #expect(try Scratch.lpcheck(["make", still, text.path, "--output", folder.path]).status == 2)
        #expect(try Scratch.lpcheck(["make", still, movie, "--output", folder.path]).status == 0)
        #expect(try Scratch.lpcheck(["make", still, movie, "--output", folder.path]).status == 2)
        #expect(try Scratch.lpcheck(["make", still, movie, "--output", folder.path, "--force"]).status == 0)
        #expect(try Scratch.lpcheck(["make", still, movie, "--output", folder.path, "--time", "1", "--frame", "2"]).status == 2)
    }

    @Test("make --profile wallpaper writes the lock screen's two keys (ExifTool reads them), names what it cannot do for a JPEG still, and a HEIC still passes the wallpaper's rules")
    func wallpaper() throws {
        let folder = try Scratch.folder("make-wallpaper")
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = Locations.samples.appendingPathComponent("plain-clip.mov").path
        let jpeg = folder.appendingPathComponent("jpeg")
        let made = try Scratch.lpcheck(["make", Locations.samples.appendingPathComponent("plain-frame.jpg").path, movie, "--output", jpeg.path, "--profile", "wallpaper"])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        #expect(made.text.contains("wallpaper, not done (make does not re-encode): The still is a JPEG"))
        let keys = try Scratch.run("exiftool", ["-j", "-n", "-Keys:LivePhotoAuto", "-Keys:LivePhotoVitalityScore", jpeg.appendingPathComponent("plain-frame.MOV").path])
        let record = try #require((try JSONSerialization.jsonObject(with: keys.stdout) as? [[String: Any]])?.first)
        #expect(record["LivePhotoAuto"] as? Int == 1 && record["LivePhotoVitalityScore"] as? Double == 1)
        let checked = try Scratch.lpcheck(["check", jpeg.path, "--profile", "wallpaper", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: checked.stdout) as? [String: Any])
        let item = try #require((report["items"] as? [[String: Any]])?.first)
        #expect((item["findings"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } == ["wallpaper-still-not-heic"])
        #expect(item["verdicts"] as? [String: String] == ["photos": "pass", "wallpaper": "uncertain"])
        // Without the profile, the keys are not written.
        let plain = folder.appendingPathComponent("plain")
        #expect(try Scratch.lpcheck(["make", Locations.samples.appendingPathComponent("plain-frame.jpg").path, movie, "--output", plain.path]).status == 0)
        #expect(MediaFile.inspect(path: plain.appendingPathComponent("plain-frame.MOV").path).movie?.metadata.contains { $0.key == LivePhotoKeys.livePhotoAuto } == false)
        if let heic = SharedSamples.url("Bai-Mirror__pyheic_struct/apple.HEIC") {
            let out = folder.appendingPathComponent("heic")
            let result = try Scratch.lpcheck(["make", heic.path, movie, "--output", out.path, "--profile", "wallpaper"])
            #expect(result.text.contains("none of the lock screen's reported requirements is left unmet"), "\(result.text)")
            let heicCheck = try Scratch.lpcheck(["check", out.path, "--profile", "wallpaper"])
            #expect(heicCheck.status == 0 && heicCheck.text.contains("wallpaper 1 pass"), "\(heicCheck.text)")
        }
    }
}
