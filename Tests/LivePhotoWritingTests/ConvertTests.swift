import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// `lpcheck convert` on the real files of ../shared/samples, proven with ExifTool (markers,
/// extracted movies), ffmpeg (frame checksums, JPEG pixels) and libheif (HEIC pixels).
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil && Locations.tool("exiftool") != nil && Locations.tool("ffmpeg") != nil,
                "needs ../shared/samples, lpcheck, exiftool and ffmpeg"))
struct ConvertTests {
    /// Every motion photo of the shared samples in which lpcheck finds a whole movie.
    static func motionPhotos() -> [URL] { exifToolMotionPhotos }

    /// The shared samples that are motion photos with a movie, as ExifTool finds them (not as
    /// lpcheck does: a file lpcheck stopped reading would leave the set unseen). One run over
    /// every media file: the movie it extracts (MotionPhotoVideo, EmbeddedVideo, EmbeddedVideoFile
    /// of over 1,000 bytes) or, where it extracts none, the file's tail its reading of the XMP
    /// names (the last Directory video item's Length, MotionPhotoOffset, MicroVideoOffset) when
    /// that tail opens with an ftyp box. `motionPhotosAsExifTool` holds lpcheck to the same set.
    static let exifToolMotionPhotos: [URL] = {
        let files = SharedSamples.mediaFiles()
        guard !files.isEmpty, let exiftool = Locations.tool("exiftool"),
              let result = try? ProcessResult.run(exiftool, ["-j", "-n", "-m", "-ee", "-struct", "-MotionPhotoVideo", "-EmbeddedVideo", "-EmbeddedVideoFile",
                                                             "-XMP:Directory", "-XMP-GCamera:all"] + files.map(\.path), timeout: 300),
              let records = try? JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] else { return [] }
        let byPath = Dictionary(records.compactMap { record in (record["SourceFile"] as? String).map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
        return files.filter { url in
            guard let record = byPath[url.path] else { return false }
            for tag in ["MotionPhotoVideo", "EmbeddedVideo", "EmbeddedVideoFile"] {
                // "(Binary data 28803 bytes, use -b option to extract)"
                let words = (record[tag] as? String ?? "").split(separator: " ")
                if let index = words.firstIndex(of: "data"), index + 1 < words.count, let length = Int(words[index + 1]), length > 1_000 { return true }
            }
            let items = (record["Directory"] as? [[String: Any]])?.compactMap { $0["Item"] as? [String: Any] } ?? []
            let length = items.last { ($0["Mime"] as? String ?? "").hasPrefix("video/") }?["Length"] as? Int
            guard let tail = length ?? record["MotionPhotoOffset"] as? Int ?? record["MicroVideoOffset"] as? Int, tail >= 8,
                  let bytes = try? Data(contentsOf: url), tail <= bytes.count else { return false }
            return bytes[(bytes.count - tail + 4)..<(bytes.count - tail + 8)].elementsEqual("ftyp".utf8)
        }
    }()

    @Test("the motion photos lpcheck finds a whole movie in are exactly those ExifTool finds one in")
    func motionPhotosAsExifTool() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let exifTool = Set(Self.exifToolMotionPhotos.map(\.path))
        let lpcheck = Set(SharedSamples.mediaFiles().filter { url in
            let motion = MediaFile.inspect(path: url.path, options: .check).still?.motionPhoto
            return motion?.movieRange != nil && motion?.movieCutShort == nil
        }.map(\.path))
        #expect(exifTool.count >= 8, "ExifTool finds \(exifTool.count)")
        #expect(lpcheck == exifTool, "lpcheck only: \(lpcheck.subtracting(exifTool).sorted()); ExifTool only: \(exifTool.subtracting(lpcheck).sorted())")
    }

    /// Camera Live Photo pairs (still, movie) of the shared samples.
    static let cameraPairs = [
        ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"),
        ("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"),
        ("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"),
        ("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV"),
    ]

    /// The movie ExifTool extracts from a motion photo (its tag differs by layout); nil when it extracts none.
    /// One ExifTool run reads which tag holds the movie and the XMP's lengths; a second extracts it.
    static func extractedMovie(_ url: URL, into folder: URL) throws -> URL? {
        let fields = try Scratch.run("exiftool", ["-m", "-j", "-n", "-ee", "-struct", "-MotionPhotoVideo", "-EmbeddedVideo", "-EmbeddedVideoFile",
                                                  "-XMP:Directory", "-XMP-GCamera:all", url.path])
        let record = (try JSONSerialization.jsonObject(with: fields.stdout) as? [[String: Any]])?.first ?? [:]
        for tag in ["MotionPhotoVideo", "EmbeddedVideo", "EmbeddedVideoFile"] {
            // "(Binary data 28803 bytes, use -b option to extract)"
            let words = (record[tag] as? String ?? "").split(separator: " ")
            guard let index = words.firstIndex(of: "data"), index + 1 < words.count, let length = Int(words[index + 1]), length > 1000 else { continue }
            let result = try Scratch.run("exiftool", ["-m", "-ee", "-b", "-" + tag, url.path])
            guard result.stdout.count == length else { continue }
            let out = folder.appendingPathComponent(url.lastPathComponent + ".\(tag).mp4")
            try result.stdout.write(to: out)
            return out
        }
        // Where ExifTool extracts none, the bytes its reading of the XMP names: the last
        // Item:Length bytes (Motion Photo 1.0), or the last MotionPhotoOffset / MicroVideoOffset bytes.
        let items = (record["Directory"] as? [[String: Any]])?.compactMap { $0["Item"] as? [String: Any] } ?? []
        let movieLength = items.last { ($0["Mime"] as? String ?? "").hasPrefix("video/") }?["Length"] as? Int
        guard let tail = movieLength ?? record["MotionPhotoOffset"] as? Int ?? record["MicroVideoOffset"] as? Int, tail > 0 else { return nil }
        let bytes = try Data(contentsOf: url)
        guard tail <= bytes.count else { return nil }
        let out = folder.appendingPathComponent(url.lastPathComponent + ".tail.mp4")
        try bytes.suffix(tail).write(to: out)
        return out
    }

    /// Decoded pixels of a still, as its size and a digest of the pixels: libjpeg (Pillow) for
    /// JPEG, libheif (pillow-heif) for HEIC. A decoder that fails, or is missing, fails the test:
    /// two failed decodes never compare as equal. (ffmpeg's JPEG decoder refuses Samsung's
    /// ss-motion-photo-shortened.jpg, which libjpeg decodes.)
    static func pixels(_ url: URL) throws -> String {
        try Locations.require(Locations.pythonHas("PIL", "pillow_heif"), "Pillow and pillow-heif (PyPI)")
        let heif = ["heic", "heif"].contains(url.pathExtension.lowercased())
        let script = heif
            ? "import sys,hashlib,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nprint(f.size, hashlib.sha256(bytes(f.data)).hexdigest())"
            : "import sys,hashlib\nfrom PIL import Image\nim=Image.open(sys.argv[1])\nim.load()\nprint(im.size, im.mode, hashlib.sha256(im.tobytes()).hexdigest())"
        let result = try Scratch.run("python3", ["-c", script, url.path])
        guard result.status == 0, !result.text.isEmpty else {
            throw FixtureError(message: "\(heif ? "libheif" : "libjpeg") cannot decode \(url.lastPathComponent): \(result.stderr.suffix(300))")
        }
        return result.text
    }

    /// The motion photos whose still no decoder reads: its image data ends without EOI before the
    /// movie (pixel-motion-photo-jfif-segment-shortened.jpg, SharedSamplesCheckTests), or it
    /// holds none (nom-exif's motion_photo_pixel_synth.jpg: no start of scan).
    static let undecodable: Set<String> = ["pixel-motion-photo-jfif-segment-shortened.jpg", "motion_photo_pixel_synth.jpg"]
    /// Motion photos whose embedded movie no decoder reads (ffmpeg fails or gives no frame), the
    /// extracted one and the converted one alike: their frames cannot be compared.
    /// (ffmpeg on the movies ExifTool extracts: "missing mandatory atoms, broken header" for
    /// pixel-motion-photo-shortened's, "moov atom not found" for the other three's.)
    static let undecodableMovies: Set<String> = ["pixel-motion-photo-shortened.jpg", "pixel-motion-photo-without-exif-shortened.jpg",
                                                 "ss-motion-photo-shortened.jpg", "motion_photo_pixel_synth.jpg"]

    static func stillMoment(_ url: URL) throws -> Double? {
        MediaFile.inspect(path: url.path, options: .check).movie?.stillImageTime?.seconds
    }

    @Test("every motion photo with a movie converts to a pair check passes, ExifTool reads and whose frames and pixels equal the input's")
    func motionPhotosToLivePhotos() throws {
        let inputs = Self.motionPhotos()
        #expect(inputs.count >= 8, "motion photos with a movie: \(inputs.map(\.lastPathComponent))")
        let folder = try Scratch.folder("convert-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        var comparedMovies = 0, comparedPixels = 0
        var undecodedMovies = Set<String>()
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("convert.schema.json"))
        for (index, input) in inputs.enumerated() {
            // One folder per input: names repeat across the sample sources.
            let inFolder = folder.appendingPathComponent("in\(index)"), outFolder = folder.appendingPathComponent("out\(index)")
            try FileManager.default.createDirectory(at: inFolder, withIntermediateDirectories: true)
            let copy = try #require(try Scratch.copy([input], into: inFolder).first)
            let before = try Data(contentsOf: copy)
            // The dry run plans exactly what the real run writes, and writes nothing.
            let dry = try Scratch.lpcheck(["convert", inFolder.path, "--to", "live-photo", "-o", outFolder.path, "--force", "--format", "json", "--dry-run"])
            #expect(dry.status == 0 && !FileManager.default.fileExists(atPath: outFolder.path), "\(dry.text)")
            let run = try Scratch.lpcheck(["convert", inFolder.path, "--to", "live-photo", "-o", outFolder.path, "--force", "--format", "json"])
            #expect(try validator.validate(json: run.stdout).isEmpty)
            func outputs(_ data: Data) -> [String] {
                let items = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]] ?? []
                return items.flatMap { ($0["outputs"] as? [[String: Any]] ?? []).map { "\($0["path"] ?? "") \($0["size"] ?? "") \($0["newBytes"] ?? "")" } }
            }
            #expect(outputs(dry.stdout) == outputs(run.stdout) && !outputs(run.stdout).isEmpty)
            #expect(run.status == 0, "\(input.lastPathComponent): \(run.text) \(run.stderr)")
            #expect(try Data(contentsOf: copy) == before, "the input was written")
            let document = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
            let item = try #require((document["items"] as? [[String: Any]])?.first)
            #expect(item["status"] as? String == "converted")
            // How the still moment was chosen, from the input's timestamp and its movie's frames.
            let reasons = (item["reasons"] as? [String] ?? []).joined(separator: "\n")
            let source = MediaFile.inspect(path: copy.path, options: .check).still
            let timestamp = source?.motionPhoto?.presentationTimestampUs
            let shownUntil = source?.embeddedMovie?.videoFrames().last.map { $0.start + $0.duration } ?? 0
            if timestamp == nil || timestamp == -1 {
                #expect(reasons.contains("the frame just before the video's midpoint"), "\(input.lastPathComponent): \(reasons)")
            } else if let timestamp, Double(timestamp) / 1_000_000 >= shownUntil {
                #expect(reasons.contains("falls on no frame") && reasons.contains("GUESSED"), "\(input.lastPathComponent): \(reasons)")
            } else {
                #expect(reasons.contains("presentation timestamp, on the frame it falls on"), "\(input.lastPathComponent): \(reasons)")
            }
            let outputs = (item["outputs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }.map(URL.init(fileURLWithPath:))
            let still = try #require(outputs.first), movie = try #require(outputs.last)
            #expect(movie.pathExtension == "MOV")

            // ExifTool: the same identifier in both, a still-image-time in the movie.
            let stillRecord = try Scratch.exiftool(still), movieRecord = try Scratch.exiftool(movie)
            #expect(Scratch.stillIdentifier(stillRecord) != nil, "\(still.lastPathComponent)")
            #expect(Scratch.stillIdentifier(stillRecord) == movieRecord["Keys:ContentIdentifier"] as? String)
            #expect(Scratch.stillImageTime(movieRecord) == -1)
            // lpcheck pairs them; the identifier and still-image-time rules are silent. (Some
            // inputs' movies are damaged themselves; their other findings stay true.)
            let check = try Scratch.lpcheck(["check", outFolder.path, "--format", "json"])
            let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
            let items = report["items"] as? [[String: Any]] ?? []
            #expect(items.count == 1 && items.first?["kind"] as? String == "pair", "\(check.text)")
            let rules = (items.first?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            #expect(!rules.contains { $0.hasPrefix("identifier") || $0.hasPrefix("still-image-time") || $0.hasSuffix("-absent") }, "\(rules)")

            // The movie's frames are the embedded movie's, as ExifTool extracts it.
            if let extracted = try Self.extractedMovie(copy, into: folder) {
                if Self.undecodableMovies.contains(input.lastPathComponent) {
                    // Named: ffmpeg reads no frame of the movie ExifTool extracts, nor of the one written.
                    #expect(throws: Scratch.Undecodable.self) { try Scratch.frameChecksums(extracted) }
                    #expect(throws: Scratch.Undecodable.self) { try Scratch.frameChecksums(movie) }
                    undecodedMovies.insert(input.lastPathComponent)
                } else {
                    let written = try Scratch.frameChecksums(movie), embedded = try Scratch.frameChecksums(extracted)
                    #expect(written == embedded, "\(input.lastPathComponent)")
                }
                comparedMovies += 1
                let decode = try Scratch.run("ffmpeg", ["-v", "error", "-i", extracted.path, "-map", "0:v", "-f", "null", "-"])
                // A clean input (its movie decodes without a complaint, its still has no error) gives a clean pair.
                let inputCheck = try Scratch.lpcheck(["check", copy.path])
                if decode.stderr.isEmpty && inputCheck.status == 0 { #expect(check.status == 0, "\(input.lastPathComponent) is clean, yet: \(check.text)") }
            }
            // The still shows the same pixels as the input's primary image.
            if Self.undecodable.contains(input.lastPathComponent) {
                // The still copies the input's image bytes, and neither decodes.
                #expect(throws: FixtureError.self) { try Self.pixels(copy) }
                #expect(throws: FixtureError.self) { try Self.pixels(still) }
            } else {
                #expect(try Self.pixels(copy) == Self.pixels(still), "\(input.lastPathComponent)")
            }
            comparedPixels += 1
        }
        #expect(comparedMovies == inputs.count)
        #expect(comparedPixels == inputs.count)
        // Every movie named as undecodable was met: the list is no blanket.
        #expect(undecodedMovies == Self.undecodableMovies, "\(undecodedMovies)")
    }

    @Test("every camera pair converts to a motion photo ExifTool reads, with the movie's frames; converting back restores identifier and moment")
    func livePhotosToMotionPhotosAndBack() throws {
        let folder = try Scratch.folder("convert-motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inFolder = folder.appendingPathComponent("in"), outFolder = folder.appendingPathComponent("out"), backFolder = folder.appendingPathComponent("back")
        try FileManager.default.createDirectory(at: inFolder, withIntermediateDirectories: true)
        let pairs = try Self.cameraPairs.map { pair in
            try Scratch.copy([try #require(SharedSamples.url(pair.0)), try #require(SharedSamples.url(pair.1))], into: inFolder)
        }
        let run = try Scratch.lpcheck(["convert", inFolder.path, "--to", "motion-photo", "-o", outFolder.path])
        #expect(run.status == 0, "\(run.text)")
        let check = try Scratch.lpcheck(["check", outFolder.path, "--format", "json"])
        #expect(check.status == 0, "\(check.text)")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        #expect((report["items"] as? [[String: Any]] ?? []).map { $0["kind"] as? String } == Array(repeating: "motion-photo", count: pairs.count))

        for pair in pairs {
            let still = pair[0], movie = pair[1]
            let base = still.deletingPathExtension().lastPathComponent
            let heic = still.pathExtension.lowercased() == "heic"
            let motion = outFolder.appendingPathComponent(base + (heic ? ".MP.heic" : ".MP.jpg"))
            let record = try #require((try JSONSerialization.jsonObject(with: try Scratch.run("exiftool", ["-j", "-G1", "-a", "-n", "-struct", "-ee", motion.path]).stdout) as? [[String: Any]])?.first)
            #expect(record["XMP-GCamera:MotionPhoto"] as? Int == 1, "\(motion.lastPathComponent)")
            #expect(record["XMP-GCamera:MotionPhotoVersion"] as? Int == 1)
            let directory = try #require(record["XMP-Container:Directory"] as? [[String: Any]])
            let items = directory.compactMap { $0["Item"] as? [String: Any] }
            #expect(items.map { $0["Semantic"] as? String } == ["Primary", "MotionPhoto"])
            #expect(items.first?["Padding"] as? Int == (heic ? 8 : 0))
            let extracted = try #require(try Self.extractedMovie(motion, into: folder), "ExifTool extracts no movie from \(motion.lastPathComponent)")
            let length = try FileManager.default.attributesOfItem(atPath: extracted.path)[.size] as? Int
            #expect(items.last?["Length"] as? Int == length)
            let extractedFrames = try Scratch.frameChecksums(extracted), movieFrames = try Scratch.frameChecksums(movie)
            #expect(extractedFrames == movieFrames)
            let stillIdentifier = Scratch.stillIdentifier(try Scratch.exiftool(still))
            #expect(Scratch.stillIdentifier(record) == stillIdentifier)
            // The timestamp is the still moment, on its frame.
            let moment = try #require(try Self.stillMoment(movie))
            let timestamp = try #require(record["XMP-GCamera:MotionPhotoPresentationTimestampUs"] as? Int)
            #expect(abs(Double(timestamp) / 1_000_000 - moment) < 0.05, "\(timestamp) µs against \(moment) s")
            #expect(try Self.pixels(still) == Self.pixels(motion), "\(motion.lastPathComponent)")
        }

        let back = try Scratch.lpcheck(["convert", outFolder.path, "--to", "live-photo", "-o", backFolder.path])
        #expect(back.status == 0, "\(back.text)")
        #expect(try Scratch.lpcheck(["check", backFolder.path]).status == 0)
        for pair in pairs {
            let base = pair[0].deletingPathExtension().lastPathComponent
            let still = backFolder.appendingPathComponent(base + (pair[0].pathExtension.lowercased() == "heic" ? ".HEIC" : ".JPG"))
            let movie = backFolder.appendingPathComponent(base + ".MOV")
            let original = Scratch.stillIdentifier(try Scratch.exiftool(pair[0]))
            let restored = Scratch.stillIdentifier(try Scratch.exiftool(still))
            let movieIdentifier = try Scratch.exiftool(movie)["Keys:ContentIdentifier"] as? String
            #expect(original != nil && restored == original && movieIdentifier == original)
            // Within one frame (the camera movies run at 15 to 30 frames a second).
            let now = try Self.stillMoment(movie) ?? -1, then = try Self.stillMoment(pair[1]) ?? 99
            #expect(abs(now - then) <= 1.0 / 15, "\(base): \(now) s against \(then) s")
        }
    }

    @Test("damaged motion photos: a cut-short movie, lengths past the end, no movie at all: a clear error each and no output; a stale directory converts with a note")
    func damagedInputs() throws {
        let folder = try Scratch.folder("convert-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try #require(SharedSamples.url("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"))
        let bytes = try Data(contentsOf: source)
        func write(_ name: String, _ data: Data) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        let cut = try write("cut.MP.jpg", bytes.prefix(3_000_000))
        var lying = bytes
        // The directory's movie length becomes larger than the file.
        let length = Data("Item:Length=\"1317283\"".utf8)
        let range = try #require(lying.range(of: length))
        lying.replaceSubrange(range, with: Data("Item:Length=\"9317283\"".utf8))
        let past = try write("past.MP.jpg", lying)
        var stale = bytes
        stale.replaceSubrange(range, with: Data("Item:Length=\"1317200\"".utf8))
        let staleURL = try write("stale.MP.jpg", stale)
        let gone = try write("gone.MP.jpg", bytes.prefix(2_728_123))

        for (input, expected) in [(cut, "cut short"), (gone, "no readable movie")] {
            let out = folder.appendingPathComponent("out-" + input.lastPathComponent)
            let run = try Scratch.lpcheck(["convert", input.path, "--to", "live-photo", "-o", out.path, "--force"])
            #expect(run.status == 1, "\(run.text)")
            #expect(run.text.contains(expected), "\(run.text)")
            #expect(run.text.contains(input.path))
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty)
        }
        // The movie is found by its ftyp box; the plan and check say the directory is stale.
        for input in [past, staleURL] {
            let out = folder.appendingPathComponent("out-" + input.lastPathComponent)
            let run = try Scratch.lpcheck(["convert", input.path, "--to", "live-photo", "-o", out.path, "--force"])
            #expect(run.status == 0, "\(run.text)")
            #expect(run.text.contains("found by its ftyp box"), "\(run.text)")
            let check = try Scratch.lpcheck(["check", input.path, "--verbose"])
            #expect(check.text.contains("motion-photo-directory-mismatch"), "\(check.text)")
        }
        // Two same-named inputs in different folders: the first is converted, the second refused
        // (even with --force), and the first's outputs stay its own.
        let twins = folder.appendingPathComponent("twins")
        for name in ["a", "b"] {
            let sub = twins.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try (name == "a" ? bytes : stale).write(to: sub.appendingPathComponent("PXL.MP.jpg"))
        }
        let twinsOut = folder.appendingPathComponent("twins-out")
        let both = try Scratch.lpcheck(["convert", twins.path, "--to", "live-photo", "-o", twinsOut.path, "--force"])
        #expect(both.status == 1, "\(both.text)")
        #expect(both.text.contains("is written by another input of this run"), "\(both.text)")
        let written = try Data(contentsOf: twinsOut.appendingPathComponent("PXL.MOV"))
        let fromFirst = try Scratch.lpcheck(["convert", twins.appendingPathComponent("a").path, "--to", "live-photo", "-o", folder.appendingPathComponent("first-only").path, "--force"])
        #expect(fromFirst.status == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("first-only/PXL.MOV")) == written)

        // Without --force, an existing output is refused and left as it was.
        let out = folder.appendingPathComponent("out-" + staleURL.lastPathComponent)
        let again = try Scratch.lpcheck(["convert", staleURL.path, "--to", "live-photo", "-o", out.path])
        #expect(again.status == 1 && again.text.contains("exists"), "\(again.text)")
    }
}
