import Foundation
import LivePhotoTestSupport
import Testing

/// A Live Photo's PCM sound converted into a motion photo (issue 52, point 10): Motion Photo 1.0
/// movies carry AAC, so the codec helper encodes it; held to ffprobe and ffmpeg, which decode the
/// movie ExifTool extracts from the motion photo.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ConvertSoundTests {
    /// iPhone pairs of the shared samples whose movies hold 16-bit PCM sound (ffprobe says so below).
    static let pairs = [("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV", "IMG_3853.MP.heic"),
                        ("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov", "test.MP.jpg"),
                        ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov", "train.MP.jpg")]

    func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.tool(tool), "\(tool) is not installed"), arguments, timeout: 120)
    }

    /// The movie a motion photo holds, as ExifTool extracts it (a HEIC's MotionPhotoVideo, a
    /// JPEG's EmbeddedVideo).
    func extract(_ photo: String, to movie: String) throws {
        var bytes = try run("exiftool", ["-b", "-MotionPhotoVideo", photo]).stdout
        if bytes.isEmpty { bytes = try run("exiftool", ["-ee", "-b", "-EmbeddedVideo", photo]).stdout }
        try bytes.write(to: URL(fileURLWithPath: movie))
    }

    /// The first sound stream's codec, rate, channels and duration (the edit list applied).
    func sound(_ movie: String) throws -> [String] {
        try run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,sample_rate,channels,duration", "-of", "csv=p=0", movie])
            .text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
    }

    /// The first sound stream decoded by ffmpeg: mono 16-bit samples at `rate`.
    func decoded(_ movie: String, rate: String) throws -> [Int16] {
        let data = try run("ffmpeg", ["-v", "error", "-i", movie, "-map", "0:a:0", "-f", "s16le", "-ac", "1", "-ar", rate, "-"]).stdout
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Signal to noise of `made` against `source` with `made` shifted by `offset` samples, dB.
    static func snr(_ made: [Int16], _ source: [Int16], offset: Int) -> Double {
        var signal = 0.0, noise = 0.0
        for index in 0..<min(source.count, made.count - max(0, offset)) where index + offset >= 0 {
            let (s, m) = (Double(source[index]), Double(made[index + offset]))
            signal += s * s
            noise += (m - s) * (m - s)
        }
        return 10 * log10(signal / max(noise, 1))
    }

    @Test("convert --to motion-photo encodes an iPhone movie's PCM sound to AAC (the plan says so): ffprobe finds AAC of the source's rate, channels and duration in the movie ExifTool extracts; ffmpeg's decoding lines up with the source's sample for sample (the edit list skips the encoder's priming) at ≥ 12 dB, where a shift of one AAC frame does not; the motion photo passes Google's rules. --audio drop leaves the sound out, as the plan says")
    func aacSound() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let root = try #require(Locations.sharedSamples)
        let binary = try #require(Locations.lpcheckBinary).path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-sound-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (still, movie, made) in Self.pairs {
            let (stillPath, moviePath) = (root.appendingPathComponent(still).path, root.appendingPathComponent(movie).path)
            let source = try sound(moviePath)
            #expect(source.first == "pcm_s16le", "\(movie): \(source)")
            let out = folder.appendingPathComponent(made).deletingPathExtension().lastPathComponent
            let converted = try ProcessResult.run(binary, ["convert", stillPath, moviePath, "--to", "motion-photo", "-o", folder.appendingPathComponent(out).path], timeout: 300)
            #expect(converted.status == 0 && converted.text.contains("re-encoded by the codec helper to AAC-LC"), "\(movie): \(converted.text.suffix(600)) \(converted.stderr)")
            let photo = folder.appendingPathComponent(out).appendingPathComponent(made).path
            let embedded = folder.appendingPathComponent(out + ".mp4").path
            try extract(photo, to: embedded)
            let aac = try sound(embedded)
            #expect(aac.count == 4 && aac[0] == "aac" && aac[1] == source[1] && aac[2] == source[2], "\(made): \(aac), source \(source)")
            if aac.count == 4, source.count == 4, let a = Double(aac[3]), let b = Double(source[3]) { #expect(abs(a - b) < 0.001, "\(made): \(a) s of sound, source \(b) s") }
            let (ours, theirs) = (try decoded(embedded, rate: source[1]), try decoded(moviePath, rate: source[1]))
            let aligned = Self.snr(ours, theirs, offset: 0)
            #expect(aligned >= 12 && aligned > Self.snr(ours, theirs, offset: 1024) + 6 && aligned > Self.snr(ours, theirs, offset: -1024) + 6,
                    "\(made): \(aligned) dB aligned, \(Self.snr(ours, theirs, offset: 1024)) shifted a frame")
            let checked = try ProcessResult.run(binary, ["check", photo, "--format", "json"], timeout: 120)
            #expect(checked.status == 0 && checked.text.contains("\"google-photos\": \"pass\""), "\(made): \(checked.text.prefix(400))")
        }
        let (still, movie, made) = Self.pairs[0]
        let dropped = try ProcessResult.run(binary, ["convert", root.appendingPathComponent(still).path, root.appendingPathComponent(movie).path, "--to", "motion-photo",
                                                     "--audio", "drop", "-o", folder.appendingPathComponent("dropped").path], timeout: 300)
        #expect(dropped.status == 0 && dropped.text.contains("drop track 2: 'lpcm' PCM audio") && !dropped.text.contains("AAC-LC"), "\(dropped.text.suffix(400))")
        let embedded = folder.appendingPathComponent("dropped.mp4").path
        try extract(folder.appendingPathComponent("dropped").appendingPathComponent(made).path, to: embedded)
        #expect(try run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", embedded]).text.split(separator: "\n") == ["video"])
    }

    @Test("the helper's sound job on hostile copies of IMG_3853.MOV's PCM entry (a rate of 1e300, 4,294,967,295 channels, frames stored in 4 bytes for 2 of values, a 0 Hz rate): a message naming the file, exit 2, never a signal; the copy as it is encodes")
    func hostileSoundEntries() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let movie = try #require(SharedSamples.url(Self.pairs[0].1))
        let helper = try #require(Locations.lpcheckBinary).deletingLastPathComponent().appendingPathComponent("lpcheck-codec").path
        let original = [UInt8](try Data(contentsOf: movie))
        // The version 2 'lpcm' entry: its audioSampleRate double 36 bytes after the type, then
        // numAudioChannels, 0x7F000000, constBitsPerChannel, formatSpecificFlags, constBytesPerAudioPacket.
        let entry = try #require((0..<(original.count - 4)).first { original[$0..<($0 + 4)].elementsEqual("lpcm".utf8) })
        func patched(_ at: Int, _ bytes: [UInt8]) -> [UInt8] { var copy = original; copy.replaceSubrange((entry + at)..<(entry + at + bytes.count), with: bytes); return copy }
        func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
        let cases: [(String, [UInt8])] = [
            ("rate 1e300", patched(36, be64((1e300 as Double).bitPattern))),
            ("rate 0", patched(36, be64(0))),
            ("channels", patched(44, [0xFF, 0xFF, 0xFF, 0xFF])),
            ("4-byte frames", patched(60, [0, 0, 0, 4])),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-hostile-sound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in cases {
            let copy = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".mov")
            try Data(bytes).write(to: copy)
            let result = try ProcessResult.run(helper, ["sound", copy.path, "2"], timeout: 60)
            #expect(result.status == 2 && result.stderr.contains(copy.path) && result.stdout.isEmpty, "\(name): exit \(result.status): \(result.stderr)")
        }
        let plain = try ProcessResult.run(helper, ["sound", movie.path, "2"], timeout: 60)
        #expect(plain.status == 0 && plain.stdout.count > 1000, "\(plain.stderr)")
    }
}
