import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The checker on the real files: classification, no false alarms on camera pairs.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct SharedSamplesCheckTests {
    static let report: CheckReport? = Locations.sharedSamples.map { Checker(roots: [$0.path]).run() }

    func item(_ name: String) throws -> CheckItem {
        let report = try #require(Self.report)
        return try #require(report.items.first { $0.files.contains { $0.path.hasSuffix(name) } }, "\(name) is in no item")
    }

    @Test("the four camera pairs pair and raise no error or warning", arguments: [
        ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"),
        ("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"),
        ("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"),
        ("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV"),
    ])
    func cameraPairs(_ still: String, _ movie: String) throws {
        let item = try item(still)
        #expect(item.kind == .pair)
        #expect(item.pairedBy == .identifier)
        #expect(item.movie?.path.hasSuffix(movie) == true)
        #expect(item.findings.filter { $0.severity >= .warning }.isEmpty, "\(item.findings.map(\.message))")
        #expect(item.verdicts[.photos] == .pass)
        #expect(item.verdicts[.googlePhotos] == nil)
    }

    /// The unmodified camera originals of ../shared/samples (README, PROVENANCE.tsv) and the
    /// platform each is made for: the ground truth of what that platform plays. Left out: the
    /// androidx files cut short by their authors (`*-shortened`), Lychee's deliberately broken
    /// file, nom-exif's synthesized one and androidx's `sample_MP.heic` (no camera metadata).
    static let cameraOriginals: [(file: String, platform: Target)] = [
        ("LycheeOrg__Lychee/train.jpg", .photos), ("henteko__livephotoskit-react/test.JPG", .photos),
        ("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", .photos), ("Bai-Mirror__pyheic_struct/apple.HEIC", .photos),
        ("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg", .googlePhotos),
        ("ente-io__motion_photos/motionphoto.heic", .googlePhotos), ("Bai-Mirror__pyheic_struct/samsung.heic", .googlePhotos),
        ("immich-app__test-assets/samsung-one-ui-6.heic", .googlePhotos),
    ]

    @Test("every unmodified camera original passes its platform's verdict, with no finding above info", arguments: cameraOriginals.map(\.file))
    func cameraOriginalsPass(_ name: String) throws {
        let item = try item(name)
        let platform = try #require(Self.cameraOriginals.first { $0.file == name }?.platform)
        #expect(item.kind == (platform == .googlePhotos ? .motionPhoto : .pair))
        #expect(item.verdicts[platform] == .pass, "\(item.findings.map(\.message))")
        #expect(item.findings.filter { $0.severity > .info }.isEmpty, "\(item.findings.map { "\($0.rule): \($0.message)" })")
    }

    @Test("Apple files that are not Live Photos raise no error", arguments: [
        "androidx__media/tokyo.jpg", "LycheeOrg__Lychee/classic-car.heic", "drewnoakes__metadata-extractor-images/IMG_1034.heic",
        "drewnoakes__metadata-extractor-images/Issue 508.jpg", "immich-app__test-assets/IMG_2682.heic", "ianare__exif-samples/iphone_13_pro_max.HEIC",
        "Exiv2__exiv2/2021-02-13-1929.heic", "Exiv2__exiv2/IMG_3578.heic", "RhetTbull__makelive/test2.heic", "TechnikTobi__little_exif/IMG_2762.HEIC",
        "drewnoakes__metadata-extractor-images/with-gps.mov", "mindeng__nom-exif/meta.mov", "androidx__media/dolbyVision-hdr.MOV",
    ])
    func notLivePhotos(_ name: String) throws {
        let item = try item(name)
        #expect(item.kind == .notLivePhoto)
        #expect(!item.findings.contains { $0.severity == .error }, "\(item.findings.map(\.message))")
    }

    @Test("stills whose movies are absent are still-only with movie-absent", arguments: [
        "RhetTbull__photokit/test_live.HEIC", "TechnikTobi__little_exif/2017_emilio_meister_IMG_4436.JPG", "TechnikTobi__little_exif/2017_stuttgart_07_.jpeg",
        "drewnoakes__metadata-extractor-images/IMG_2927.HEIC", "drewnoakes__metadata-extractor-images/IMG_2929.HEIC",
        "drewnoakes__metadata-extractor-images/Issue 263 dotnet.heic", "drewnoakes__metadata-extractor-images/exif-at-eof.heic",
        "ianare__exif-samples/IMG_5195.HEIC", "perkeep__perkeep/ski-throne.heic", "mindeng__nom-exif/exif.avif",
    ])
    func stillOnly(_ name: String) throws {
        let item = try item(name)
        #expect(item.kind == .stillOnly)
        #expect(item.findings.contains { $0.rule == "movie-absent" })
        // A half of a Live Photo does not play as one.
        #expect(item.verdicts[.photos] == .fail && item.verdicts[.wallpaper] == .fail)
    }

    @Test("the shared identifier, the broken motion photo and the truncated HEICs are reported")
    func reported() throws {
        #expect(try item("IMG_2927.HEIC").findings.contains { $0.rule == "identifier-shared" })
        #expect(try item("exif-at-eof.heic").findings.contains { $0.rule == "identifier-shared" })
        let broken = try item("google_motion_photo_broken.jpg")
        #expect(broken.kind == .motionPhoto)
        #expect(broken.findings.contains { $0.rule == "motion-photo-video-missing" })
        for name in ["river-truncated.heic", "black-seattle-truncated.heic"] {
            let truncated = try item(name)
            #expect(truncated.kind == .unreadable)
            let finding = try #require(truncated.findings.first { $0.rule == "truncated-file" })
            #expect(finding.offset != nil)
        }
        #expect(try item("exif.avif").findings.contains { $0.rule == "still-format-unsupported" })
        #expect(try item("IMG_2762.HEIC").findings.contains { $0.rule == "extension-mismatch" })
    }

    @Test("Pixel motion photos with vendor data (HDR+ aecDebug) between the image's EOI and the movie are not truncated", arguments: [
        "androidx__media/pixel-motion-photo-shortened.jpg", "androidx__media/pixel-motion-photo-without-exif-shortened.jpg",
        "googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg",
    ])
    func pixelVendorData(_ name: String) throws {
        let item = try item(name)
        #expect(item.kind == .motionPhoto)
        #expect(!item.findings.contains { $0.rule == "truncated-file" }, "\(item.findings.map(\.message))")
    }

    @Test("a motion photo whose scan really ends without EOI before the movie is truncated there, where ExifTool's directory puts the movie; ffmpeg cannot decode the image either")
    func pixelCut() throws {
        let name = "androidx__media/pixel-motion-photo-jfif-segment-shortened.jpg"
        let url = try #require(SharedSamples.url(name))
        let item = try item(name)
        let finding = try #require(item.findings.first { $0.rule == "truncated-file" })
        // The movie starts at the file's size less the video item's Item:Length, as ExifTool reads
        // the Container directory.
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let read = try ProcessResult.run(exiftool, ["-j", "-n", "-struct", "-XMP-GContainer:Directory", url.path])
        let record = try #require((try JSONSerialization.jsonObject(with: read.stdout) as? [[String: Any]])?.first)
        let items = (record["Directory"] as? [[String: Any]] ?? []).compactMap { $0["Item"] as? [String: Any] }
        let length = try #require(items.first { ($0["Mime"] as? String ?? "").hasPrefix("video/") }?["Length"] as? Int)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(finding.offset == Int64(size - length), "lpcheck \(finding.offset ?? -1), ExifTool's directory \(size - length)")
        // ffmpeg's JPEG decoder fails on it too.
        let ffmpeg = try #require(Locations.tool("ffmpeg"), "ffmpeg")
        let decode = try ProcessResult.run(ffmpeg, ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "null", "-"])
        #expect(decode.status != 0, "ffmpeg decoded \(name): \(decode.stderr)")
    }

    @Test("the two stills sharing one identifier are a conflict; no camera pair is")
    func conflict() throws {
        #expect(try item("IMG_2927.HEIC").identifierConflict)
        #expect(try item("exif-at-eof.heic").identifierConflict)
        let report = try #require(Self.report)
        #expect(report.items.filter(\.identifierConflict).count == 2)
    }

    @Test("every media file lands in exactly one item; the gate fails")
    func everyFileOnce() throws {
        let report = try #require(Self.report)
        let placed = report.items.flatMap { $0.files.map(\.path) }
        #expect(Set(placed).count == placed.count)
        #expect(placed.count == SharedSamples.mediaFiles().count)
        #expect(!report.passed)
    }

    @Test("a folder holding only a camera pair passes")
    func cameraPairFolderPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-pair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["train.jpg", "train.mov"] {
            let source = try #require(SharedSamples.url("LycheeOrg__Lychee/\(name)"))
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: source)
        }
        let report = Checker(roots: [folder.path]).run()
        #expect(report.items.map(\.kind) == [.pair])
        #expect(report.passed)
    }
}

/// The wallpaper's dimension rule on a real iOS 17 movie: the reference dimensions are read in
/// a check's own reading, agree with the video, and a video size patched in `tkhd` disagrees.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct ReferenceDimensionsTests {
    @Test("IMG_3853.MOV: reference dimensions 1920×1440 read by a check, equal to the video; a tkhd patched to 1280×960 gives wallpaper-dimensions-mismatch")
    func referenceDimensions() throws {
        let url = try #require(SharedSamples.url("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"))
        let facts = FileFacts(MediaFile.inspect(path: url.path, options: Checker(roots: []).inspectOptions))
        #expect(facts.movie?.referenceDimensions == PixelSize(width: 1920, height: 1440))
        #expect(facts.capture?.size == PixelSize(width: 1920, height: 1440))
        var bytes = [UInt8](try Data(contentsOf: url))
        let moov = try #require(MediaFile.inspect(path: url.path).movie?.boxes.first { $0.type == "moov" })
        let tkhd = try #require(moov.children.first { $0.type == "trak" }?.children.first { $0.type == "tkhd" })
        // Width and height, 16.16 fixed point, end the box.
        let end = Int(tkhd.end)
        bytes.replaceSubrange((end - 8)..<end, with: [0x05, 0x00, 0, 0, 0x03, 0xC0, 0, 0])
        let patched = FileFacts(MediaFile.inspect(source: MemorySource(bytes), path: url.path, options: Checker(roots: []).inspectOptions))
        #expect(patched.capture?.size == PixelSize(width: 1280, height: 960))
        let still = Example.still("IMG_3853.HEIC", format: .heic)
        let item = CheckItem(kind: .pair, still: still, movie: patched, pairedBy: .identifier)
        let rule = try #require(RuleRegistry.rule("wallpaper-dimensions-mismatch"))
        #expect(rule.check(item, context: RuleContext()).first?.message.contains("1280×960") == true)
        #expect(rule.check(CheckItem(kind: .pair, still: still, movie: facts, pairedBy: .identifier), context: RuleContext()).isEmpty)
    }
}
