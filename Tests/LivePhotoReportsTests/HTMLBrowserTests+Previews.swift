import Foundation
import LivePhotoTestSupport
import Testing

/// `check --previews` in the report: the movies made beside the page, their posters, and the
/// cards playing them in Chromium.
extension HTMLBrowserTests {
    /// `lpcheck check INPUTS --format html -o FOLDER/report.html --previews -q` in a new
    /// temporary folder, which the caller removes.
    static func checkWithPreviews(_ inputs: [String], label: String) throws -> (folder: URL, run: ProcessResult) {
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = try ProcessResult.run(binary, ["check"] + inputs + ["--format", "html", "-o", folder.appendingPathComponent("report.html").path, "--previews", "-q"], timeout: 600)
        return (folder, run)
    }

    @Test("with --previews, a portrait iPhone JPEG whose Exif thumbnail is stored landscape (Orientation 6, ExifTool) gets a poster ffprobe decodes portrait: a video's poster is not turned by the page, so the helper turns it")
    func previewPosterTurned() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let pair = try #require(Locations.sharedSamples).appendingPathComponent("henteko__livephotoskit-react/test").path
        let read = try ProcessResult.run(try #require(Locations.tool("exiftool"), "exiftool"), ["-s3", "-n", "-Orientation", pair + ".JPG"])
        #expect(read.text.hasPrefix("6\n"), "Orientation: \(read.text)")
        let (folder, run) = try Self.checkWithPreviews([pair + ".JPG", pair + ".mov"], label: "poster")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.stderr.suffix(400))")
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        let poster = try #require(html.components(separatedBy: "poster=\"data:image/jpeg;base64,").dropFirst().first?.components(separatedBy: "\"").first, "no poster")
        let file = folder.appendingPathComponent("poster.jpg")
        try #require(Data(base64Encoded: poster)).write(to: file)
        let size = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", file.path])
        let sides = size.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        #expect(sides.count == 2 && sides[1] > sides[0], "poster \(size.text)")
    }

    /// Frames ffprobe decodes in a movie's first video stream, that stream's codec and its stored size.
    static func probe(_ movie: String) throws -> (codec: String, frames: Int, width: Int, height: Int) {
        let result = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                                                    "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", movie])
        let fields = result.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        func number(_ at: Int) -> Int { fields.count > at ? Int(fields[at]) ?? -1 : -1 }
        return (fields.first ?? "", number(3), number(1), number(2))
    }

    /// ffmpeg's mean luma PSNR of `preview` against `source`'s stored pictures scaled by area to
    /// the preview's size, frame by frame (neither turned by its matrix).
    static func scaledPSNR(_ preview: String, _ source: String, width: Int, height: Int) throws -> Double {
        let result = try ProcessResult.run(try #require(Locations.tool("ffmpeg")), ["-hide_banner", "-noautorotate", "-i", preview, "-noautorotate", "-i", source,
                                                                                   "-lavfi", "[1:v]scale=\(width):\(height):flags=area[source];[0:v][source]psnr", "-f", "null", "-"], timeout: 300)
        let figure = result.stderr.components(separatedBy: "PSNR y:").last?.prefix { $0 == "." || $0.isNumber }
        return figure.flatMap { Double($0) } ?? 0
    }

    @Test("with --previews each card with a movie plays it in Chromium: an H.264 MP4 beside the page (an H.264 camera pair copied at its size, an iPhone's HEVC pair and a Samsung motion photo's movie re-encoded 320 pixels wide, ≥ 30 dB luma PSNR against ffmpeg's scaled source) of every frame ffprobe counts in the source; #play=… starts it, its currentTime advances and the timeline's playhead follows; the CSP (media-src 'self') reports no violation")
    func previewsPlay() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let shared = try #require(Locations.sharedSamples)
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-previews-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let apple = shared.appendingPathComponent("Bai-Mirror__pyheic_struct/apple").path, samsung = shared.appendingPathComponent("Bai-Mirror__pyheic_struct/samsung.heic").path
        let camera = Locations.samples.appendingPathComponent("camera-pair").path
        let page = folder.appendingPathComponent("report.html")
        let run = try ProcessResult.run(binary, ["check", apple + ".HEIC", apple + ".MOV", samsung, camera + ".jpg", camera + ".mov", "--format", "html", "-o", page.path, "--previews", "-q"], timeout: 600)
        #expect(run.status == 0, "\(run.stderr.suffix(400))")
        // What each source shows, by the file its card names first.
        let embedded = folder.appendingPathComponent("embedded.mp4")
        try ProcessResult.run(exiftool, ["-b", "-MotionPhotoVideo", samsung]).stdout.write(to: embedded)
        let paths = [apple + ".HEIC": apple + ".MOV", samsung: embedded.path, camera + ".jpg": camera + ".mov"]
        let sources = try paths.mapValues { try Self.probe($0) }
        #expect(sources[apple + ".HEIC"]?.codec == "hevc" && sources[camera + ".jpg"]?.codec == "h264", "\(sources)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("media-src 'self'"))
        var played = 0
        for card in html.components(separatedBy: "<section class=\"card").dropFirst() {
            let anchor = try #require(card.components(separatedBy: "id=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let file = card.components(separatedBy: "<div class=\"files\">").dropFirst().first?.components(separatedBy: " ").first?.components(separatedBy: "<").first ?? ""
            let source = try #require(sources[file], "a card for \(file)")
            let address = try #require(card.components(separatedBy: "<video class=\"thumb preview\" src=\"").dropFirst().first?.components(separatedBy: "\"").first, "\(file) has no preview")
            let preview = try Self.probe(folder.appendingPathComponent(address).path)
            #expect(preview.codec == "h264" && preview.frames == source.frames && preview.frames > 1, "\(file): preview \(preview), source \(source)")
            if source.codec == "h264" {
                // Copied: the source's size.
                #expect(preview.width == source.width && preview.height == source.height, "\(file): preview \(preview), source \(source)")
            } else {
                // Re-encoded for a 128×96 box: 320 wide, the height in proportion, the same pictures.
                let height = Double(source.height) * 320 / Double(max(1, source.width))
                #expect(preview.width == 320 && abs(Double(preview.height) - height) <= 2 && preview.height % 2 == 0, "\(file): preview \(preview), source \(source)")
                let psnr = try Self.scaledPSNR(folder.appendingPathComponent(address).path, try #require(paths[file]), width: preview.width, height: preview.height)
                #expect(psnr >= 30, "\(file): luma PSNR \(psnr) dB against ffmpeg's scaled source")
            }
            // Played in real time until it has moved on (a fixed virtual time raced the decoder).
            let shown = try ChromiumPage.play(page, anchor: anchor)
            let log = shown.log.joined(separator: "\n")
            #expect(!log.contains("Content Security Policy") && !log.contains("Refused to"), "\(log.suffix(600))")
            #expect(shown.held, "\(file): currentTime \(shown.played ?? -1), playhead at \(shown.head ?? -1) after 60 s")
            played += 1
        }
        #expect(played == 3, "\(played) cards played")
    }

    @Test("--previews of movies the copy or the group-by-group decoding once refused: every frame ffprobe counts, 320 pixels wide, ≥ 30 dB luma PSNR against ffmpeg's scaled decode", arguments: [
        // HEVC whose groups are open: sample 251 is a leading picture of the group sample 250
        // starts, which a decoder opened there drops.
        ("movies/Vanilagy__mediabunny__test_public_video-h265.mp4", "hevc"),
        // H.264 beside a timecode track (tmcd) an MP4 does not carry: the video re-encoded alone.
        ("movies/gopro__gpmf-parser__samples_max-heromode.mp4", "h264"),
    ])
    func previewOnceRefused(_ relative: String, codec: String) throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let movie = try #require(Locations.sharedSamples).appendingPathComponent(relative).path
        let (folder, run) = try Self.checkWithPreviews([movie], label: "once-refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!run.stderr.contains("got no preview"), "\(run.stderr.suffix(400))")
        let made = folder.appendingPathComponent("report-previews/item-1.mp4").path
        let source = try Self.probe(movie), preview = try Self.probe(made)
        #expect(source.codec == codec && source.frames >= 300, "\(source)")
        #expect(preview.codec == "h264" && preview.frames == source.frames && preview.width == 320, "\(preview)")
        let psnr = try Self.scaledPSNR(made, movie, width: preview.width, height: preview.height)
        #expect(psnr >= 30, "luma PSNR \(psnr) dB")
    }

    @Test("--previews never replaces a file the check read: a checked folder holding the report's previews folder from an earlier run (four movies named item-1.mp4 to item-4.mp4, one a hard link of another) keeps them byte for byte, and every card still gets a preview, under a name no input has")
    func previewsSpareInputs() throws {
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-previews-inputs-\(UUID().uuidString)")
        let previews = folder.appendingPathComponent("report-previews")
        try FileManager.default.createDirectory(at: previews, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["camera-pair.jpg", "camera-pair.mov"] {
            try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let clip = try Data(contentsOf: Locations.samples.appendingPathComponent("plain-clip.mov"))
        for number in 1...3 { try clip.write(to: previews.appendingPathComponent("item-\(number).mp4")) }
        try FileManager.default.linkItem(at: previews.appendingPathComponent("item-3.mp4"), to: previews.appendingPathComponent("item-4.mp4"))
        let run = try ProcessResult.run(binary, ["check", folder.path, "--format", "html", "-o", folder.appendingPathComponent("report.html").path, "--previews", "-q"], timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        for number in 1...4 {
            #expect(try Data(contentsOf: previews.appendingPathComponent("item-\(number).mp4")) == clip, "item-\(number).mp4 was replaced")
        }
        // Five items (the pair and four movies), five previews, none an input's name.
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        let sources = html.components(separatedBy: "<video class=\"thumb preview\" src=\"report-previews/").dropFirst().compactMap { $0.components(separatedBy: "\"").first }
        #expect(sources.count == 5 && Set(sources).isDisjoint(with: (1...4).map { "item-\($0).mp4" }), "\(sources)")
        let written = try FileManager.default.contentsOfDirectory(atPath: previews.path).sorted()
        #expect(written.count == 9 && Set(sources).isSubset(of: written), "\(written)")
    }
}
