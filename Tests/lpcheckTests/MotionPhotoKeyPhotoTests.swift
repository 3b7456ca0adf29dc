import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck keyphoto MOTION_PHOTO`: a motion photo's new key photo, held to ExifTool (the
/// presentation timestamp, the movie it extracts, the Exif carried), ffprobe and ffmpeg (the
/// frame at the moment, the movie's frames byte for byte by framemd5), libheif or libjpeg (the
/// still as displayed against the frame) and lpcheck's check of Google's rules.
extension MakeClipTests {
    static let motionPhotos = [
        "googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg",
        "ente-io__motion_photos/motionphoto.heic",
        "Bai-Mirror__pyheic_struct/samsung.heic",
    ]

    /// The movie a motion photo carries, as ExifTool finds it: a HEIF's `MotionPhotoVideo`, or
    /// a JPEG's last bytes, as many as the XMP directory's MotionPhoto item is long.
    func extractedMovie(_ file: URL, to output: URL) throws {
        if file.pathExtension.lowercased() == "heic" {
            let result = try ProcessResult.run(try tool("exiftool"), ["-b", "-MotionPhotoVideo", file.path])
            try result.stdout.write(to: output)
        } else {
            // Each directory item's Length, in order (-a: every item, not the first alone).
            let lengths = try ProcessResult.run(try tool("exiftool"), ["-a", "-s3", "-XMP-Container:DirectoryItemLength", file.path]).text
                .split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let length = try #require(lengths.last, "ExifTool reads no directory item length in \(file.lastPathComponent)")
            let bytes = try Data(contentsOf: file)
            try bytes.suffix(length).write(to: output)
        }
        #expect(((try? Data(contentsOf: output))?.count ?? 0) > 0, "no movie extracted from \(file.lastPathComponent)")
    }

    func framemd5(_ movie: URL) throws -> [String] {
        let result = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-c", "copy", "-f", "framemd5", "-"])
        return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    @Test("keyphoto --time 0.5 on each motion photo (a Pixel's JPEG, two Samsung HEICs): ExifTool's presentation timestamp is ffprobe's time of the frame shown at 0.5 s, the movie ExifTool extracts has the input's video frames byte for byte (framemd5), the still is ffmpeg's frame at ≥ 38 dB as displayed, the old still's Model is carried with its size made the new picture's, and check passes at --fail-on warning",
          arguments: MakeClipTests.motionPhotos)
    func motionPhotoKeyPhoto(_ relative: String) throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = try sample(relative)
        let out = work.appendingPathComponent("out")
        let made = try lpcheck(["keyphoto", input.path, "--time", "0.5", "-o", out.path])
        #expect(made.status == 0 && made.text.contains("a new key photo for the motion photo"), "\(made.text)\(made.stderr)")
        let written = out.appendingPathComponent(input.lastPathComponent)
        let (before, after) = (work.appendingPathComponent("before.mp4"), work.appendingPathComponent("after.mp4"))
        try extractedMovie(input, to: before)
        try extractedMovie(written, to: after)
        let (frames, original) = (try framemd5(after), try framemd5(before))
        #expect(!frames.isEmpty && frames == original, "\(relative): the video frames changed")
        // The timestamp is the time of the frame shown at 0.5 s.
        let times = try ProcessResult.run(try tool("ffprobe"), ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", after.path])
            .text.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }.sorted()
        let shown = try #require(times.last { $0 <= 0.5 + 1e-6 })
        let timestamp = try #require(Int64(try exif("XMP-GCamera:MotionPhotoPresentationTimestampUs", written)))
        #expect(abs(Double(timestamp) - shown * 1_000_000) <= 1, "\(relative): timestamp \(timestamp) µs, ffprobe's frame at \(shown) s")
        // The still is that frame, both as displayed.
        let (decoded, frame) = (work.appendingPathComponent("still.rgb"), work.appendingPathComponent("frame.rgb"))
        let (width, height) = try decodedStill(written, to: decoded, transposed: true)
        try ffmpegFrame(after, at: "0.5", to: frame)
        let quality = try psnr(decoded, frame, width: width, height: height)
        #expect(quality >= 38, "\(relative): the still at \(quality) dB against ffmpeg's frame at 0.5 s")
        // The old Exif carried, its size the new picture's.
        let models = (try exif("IFD0:Model", written), try exif("IFD0:Model", input))
        #expect(models.0 == models.1 && !models.1.isEmpty, "\(relative): \(models)")
        let pixels = try exif("File:ImageWidth", written) + "x" + exif("File:ImageHeight", written)
        let stored = try exif("ExifIFD:ExifImageWidth", written) + "x" + exif("ExifIFD:ExifImageHeight", written)
        #expect(stored == pixels, "\(relative): Exif says \(stored), the picture is \(pixels)")
        // IFD0's ImageWidth and ImageLength, where the camera wrote them (Pixels, Samsungs), too.
        if !(try exif("IFD0:ImageWidth", input)).isEmpty {
            let zeroth = try exif("IFD0:ImageWidth", written) + "x" + exif("IFD0:ImageHeight", written)
            #expect(zeroth == pixels, "\(relative): IFD0 says \(zeroth), the picture is \(pixels)")
        }
        let check = try lpcheck(["check", out.path, "--fail-on", "warning", "--no-progress"])
        #expect(check.status == 0 && check.text.contains("google-photos 1 pass"), "\(relative): \(check.text)")
    }

    @Test("keyphoto of a motion photo in place: refused with exit 2 without --force and the file untouched; with --force the file holds the new key photo (its timestamp moved), keeps mode 0640, and the old file is in .lpcheck-backup/ byte for byte; --still and an ordinary still are refused with exit 2; --dry-run --format json follows make's schema (to: motion-photo) and writes nothing")
    func motionPhotoInPlace() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("PXL.MP.jpg")
        try FileManager.default.copyItem(at: try sample(Self.motionPhotos[0]), to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        let before = try Data(contentsOf: file)
        let oldTimestamp = try exif("XMP-GCamera:MotionPhotoPresentationTimestampUs", file)
        let refused = try lpcheck(["keyphoto", file.path, "--frame", "10"])
        let format = try lpcheck(["keyphoto", file.path, "--frame", "10", "--force", "--still", "heic"])
        let plain = try lpcheck(["keyphoto", try sample("LycheeOrg__Lychee/train.jpg").path, "--frame", "10", "-o", work.appendingPathComponent("plain").path])
        #expect(refused.status == 2 && format.status == 2 && plain.status == 2 && plain.stderr.contains("keyphoto STILL MOVIE"),
                "\(refused.stderr)\(format.stderr)\(plain.stderr)")
        // --dry-run --format json: make's schema, a motion photo planned, nothing written.
        let planned = try lpcheck(["keyphoto", file.path, "--frame", "10", "--dry-run", "--format", "json"])
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("make.schema.json"))
        let violations = try validator.validate(json: planned.stdout)
        #expect(planned.status == 0 && violations.isEmpty, "\(planned.text)\(planned.stderr)\(violations)")
        let document = try #require(try JSONSerialization.jsonObject(with: planned.stdout) as? [String: Any])
        #expect(document["to"] as? String == "motion-photo" && (document["outputs"] as? [Any])?.count == 1 && document["inputs"] as? [String] == [file.path], "\(document)")
        #expect(try Data(contentsOf: file) == before)
        #expect(contents(work) == ["PXL.MP.jpg"], "\(contents(work))")
        let made = try lpcheck(["keyphoto", file.path, "--frame", "10", "--force"])
        #expect(made.status == 0 && made.text.contains("replaces the motion photo in place"), "\(made.text)\(made.stderr)")
        #expect(try exif("XMP-GCamera:MotionPhotoPresentationTimestampUs", file) != oldTimestamp)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "mode \(String(mode ?? 0, radix: 8))")
        #expect(try Data(contentsOf: work.appendingPathComponent(".lpcheck-backup/PXL.MP.jpg")) == before)
        let check = try lpcheck(["check", work.path, "--fail-on", "warning", "--no-progress"])
        #expect(check.status == 0 && check.text.contains("google-photos 1 pass"), "\(check.text)")
    }

    @Test("keyphoto of a damaged motion photo (androidx's JFIF-segment Pixel file, its image data cut short: check's truncated-file) waits for --allow-damaged, naming the damage, and writes nothing; with it, the output is written")
    func damagedMotionPhoto() throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = try sample("androidx__media/pixel-motion-photo-jfif-segment-shortened.jpg")
        let check = try lpcheck(["check", input.path, "--no-progress"])
        #expect(check.text.contains("truncated-file"), "\(check.text)")
        let refused = try lpcheck(["keyphoto", input.path, "--time", "0.1", "-o", work.appendingPathComponent("a").path])
        #expect(refused.status == 1 && refused.text.contains("DAMAGED INPUT") && refused.text.contains("(needs --allow-damaged)"), "\(refused.text)\(refused.stderr)")
        #expect(contents(work.appendingPathComponent("a")).isEmpty)
        let written = try lpcheck(["keyphoto", input.path, "--time", "0.1", "-o", work.appendingPathComponent("b").path, "--allow-damaged"])
        #expect(written.status == 0 && contents(work.appendingPathComponent("b")) == [input.lastPathComponent], "\(written.text)\(written.stderr)")
    }
}

