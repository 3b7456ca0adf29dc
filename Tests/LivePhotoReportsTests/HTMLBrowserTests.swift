import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// The HTML report loaded by a real headless browser (Chromium from the system packages).
@Suite(.enabled(if: Locations.tool("chromium") != nil, "chromium is not installed (Scripts/bootstrap.sh installs it)"))
struct HTMLBrowserTests {
    static func dumpDOM(_ html: String, fragment: String = "") throws -> String { try load(html, fragment: fragment).dom }

    /// The page as Chromium leaves it after its script ran (`fragment`: the address's `#…`),
    /// and what Chromium logged (console messages and Content-Security-Policy violations).
    static func load(_ html: String, fragment: String = "") throws -> (dom: String, log: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-report-\(UUID().uuidString).html")
        try Data(html.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ProcessResult.run(try #require(Locations.tool("chromium")), [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--enable-logging=stderr", "--v=0",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=2000", "--dump-dom", file.absoluteString + fragment,
        ])
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(500))")
        return (result.text, result.stderr)
    }

    @Test("a report on our samples, hostile metadata included, loads with every card and runs no script but its own (the filters, allowed by hash)")
    func samplesReport() throws {
        let checker = Checker(roots: [Locations.samples.path])
        var report = checker.run()
        Checker.addThumbnails(&report, items: Array(report.items.indices), jobs: 2, store: nil)
        let hostile = try #require(report.items.first { $0.still?.path.hasSuffix("hostile-metadata.jpg") == true })
        #expect(hostile.still?.make?.contains("<script>") == true)
        let dom = try Self.dumpDOM(CheckHTML.render(report))
        #expect(dom.contains("<title>lpcheck report</title>"), "the page did not load or a script changed the title")
        #expect(!dom.contains("pwned</title>"))
        #expect(dom.components(separatedBy: "<section class=\"card").count - 1 == report.items.count)
        #expect(dom.lowercased().components(separatedBy: "<script").count - 1 == 1, "a script other than the filters'")
        #expect(dom.contains("&lt;script&gt;document.title="))
        #expect(dom.contains("data:image/jpeg;base64,") || report.items.allSatisfy { $0.still?.thumbnail == nil })
        #expect(dom.contains("<svg class=\"timeline\""))
    }

    @Test("the filters work in Chromium: given in the address, kind, rule, verdict, severity and text keep exactly the cards the report says match (hidden attributes in the DOM Chromium leaves), folders left empty hide, the count says so, and the page's CSP reports no violation")
    func filters() throws {
        var report = Checker(roots: [Locations.samples.path]).run()
        Checker.addThumbnails(&report, items: Array(report.items.indices), jobs: 2, store: nil)
        let html = CheckHTML.render(report)
        func kept(_ dom: String) -> Int {
            // A card kept has neither the hidden attribute nor display: none (which a card's own display would override).
            dom.components(separatedBy: "<section class=\"card").dropFirst().filter { card in
                let tag = card.prefix(while: { $0 != ">" })
                #expect(tag.contains(" hidden") == tag.contains("display: none"), "\(tag)")
                return !tag.contains(" hidden")
            }.count
        }
        let all = try Self.load(html)
        #expect(kept(all.dom) == report.items.count && all.dom.contains("\(report.items.count) of \(report.items.count) cards shown"), "\(kept(all.dom))")
        #expect(!all.log.contains("Content Security Policy") && !all.log.contains("Refused to"), "\(all.log.suffix(800))")
        let pairs = report.items.filter { $0.kind == .pair }.count
        let byKind = try Self.dumpDOM(html, fragment: "#kind=pair")
        #expect(pairs >= 2 && kept(byKind) == pairs && byKind.contains("\(pairs) of \(report.items.count) cards shown"), "\(kept(byKind)) of \(pairs)")
        let absent = report.items.filter { $0.findings.contains { $0.rule == "movie-absent" } }.count
        let byRule = kept(try Self.dumpDOM(html, fragment: "#rule=movie-absent"))
        #expect(absent >= 1 && byRule == absent)
        let failing = report.items.filter { $0.verdicts[.photos] == .fail }.count
        let byVerdict = kept(try Self.dumpDOM(html, fragment: "#verdict=photos:fail"))
        #expect(failing >= 1 && byVerdict == failing)
        let errors = report.items.filter { $0.findings.contains { $0.severity == .error && !$0.baselined } }.count
        let bySeverity = kept(try Self.dumpDOM(html, fragment: "#severity=error"))
        #expect(bySeverity == errors)
        let text = try Self.dumpDOM(html, fragment: "#text=hostile-metadata")
        #expect(kept(text) == 1, "\(kept(text))")
        // A filter that keeps nothing in a folder hides the folder.
        #expect(text.components(separatedBy: "<details class=\"folder\"").dropFirst().filter { $0.prefix(while: { $0 != ">" }).contains("hidden") }.count >= 1)
    }

    @Test("screenshots for people to look at: the summary and a camera pair's card, as headless Chromium draws them, are written to .build/test-output (PNG files, each of the size asked)")
    func screenshots() throws {
        var report = Checker(roots: [Locations.samples.path]).run()
        Checker.addThumbnails(&report, items: Array(report.items.indices), jobs: 2, store: nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-shot-\(UUID().uuidString).html")
        try Data(CheckHTML.render(report).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (name, fragment) in [("report-summary.png", ""), ("report-card.png", "#kind=pair&text=camera-pair")] {
            let shot = Locations.testOutput.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: shot)
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chromium-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: profile) }
            let result = try ProcessResult.run(try #require(Locations.tool("chromium")), [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=\(profile.path)", "--virtual-time-budget=2000", "--window-size=1200,900", "--screenshot=\(shot.path)", file.absoluteString + fragment,
            ], timeout: 120)
            #expect(result.status == 0, "chromium: \(result.stderr.suffix(400))")
            let png = [UInt8](try Data(contentsOf: shot))
            // The PNG signature, then IHDR's width and height (big-endian, bytes 16–23).
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 24, "\(name) is no PNG")
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 1200 && height == 900, "\(name): \(width)×\(height)")
        }
    }

    @Test("a motion photo's card draws its embedded movie's timeline: one block per frame ffprobe counts in the movie ExifTool extracts, the presentation timestamp marked where ExifTool reads it (Samsung HEIC)")
    func motionPhotoTimeline() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let photo = try #require(Locations.sharedSamples).appendingPathComponent("Bai-Mirror__pyheic_struct/samsung.heic")
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let timestamp = try #require(Int(try ProcessResult.run(exiftool, ["-s3", "-XMP-GCamera:MotionPhotoPresentationTimestampUs", photo.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-mp-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: movie) }
        try ProcessResult.run(exiftool, ["-b", "-MotionPhotoVideo", photo.path]).stdout.write(to: movie)
        let probed = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", movie.path])
        let frames = try #require(Int(probed.text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(probed.text)")
        let report = Checker(roots: [photo.path]).run()
        let html = CheckHTML.render(report)
        let svg = try #require(html.components(separatedBy: "<svg class=\"timeline\"").dropFirst().first?.components(separatedBy: "</svg>").first)
        #expect(svg.components(separatedBy: "M").count - 1 == frames, "\(svg.components(separatedBy: "M").count - 1) blocks, ffprobe \(frames) frames")
        let seconds = String(format: "%.3f", Double(timestamp) / 1_000_000).replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
        #expect(svg.contains("timestamp \(seconds) s"), "\(seconds): \(svg.suffix(300))")
    }

    /// Stills no reader makes a picture of: each cut by its publisher or a metadata-only stub.
    static let undecodable: Set<String> = [
        "androidx__media/non-motion-photo-shortened.jpg",  // scan cut short: FFmpeg refuses it
        "perkeep__perkeep/river-truncated.heic",  // the primary's data lies past the file's 8192 bytes
        "exiftool__exiftool/QuickTime.heic",  // ExifTool's 623-byte metadata sample: no picture data
        "gifs/google__wuffs__test_data_hippopotamus.interlaced.truncated.gif",  // LZW data cut short
    ]

    @Test("with --thumbnails, every card of the shared samples that has a still shows a picture (Pillow decodes each), turned as the still is shown (portrait or landscape as Pillow and libheif show it), but for the four stills cut short or holding no picture data, whose cards say they do not decode and why; Chromium loads the page with no CSP violation")
    func everyCardHasAPicture() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("PIL", "pillow_heif"), "Pillow and pillow-heif (PyPI)")
        let root = try #require(Locations.sharedSamples).path
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-pictures-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        let run = try ProcessResult.run(binary, ["check", root, "--format", "html", "-o", page.path, "--thumbnails", "--html-limit", "0", "-q"], timeout: 600)
        #expect(run.status == 1, "\(run.stderr.suffix(400))")
        let loaded = try Self.load(try String(contentsOf: page, encoding: .utf8))
        #expect(!loaded.log.contains("Content Security Policy") && !loaded.log.contains("Refused to"), "\(loaded.log.suffix(800))")
        var pictures: [String] = [], without: Set<String> = []
        for card in loaded.dom.components(separatedBy: "<section class=\"card").dropFirst() {
            let body = card.components(separatedBy: "</section>").first ?? ""
            guard !body.contains(">no still<") else { continue }
            let files = body.components(separatedBy: "<div class=\"files\">").dropFirst().first?.components(separatedBy: "</div>").first ?? ""
            let still = files.components(separatedBy: "<br>").first { path in ["jpg", "jpeg", "heic", "heif", "avif", "png", "gif"].contains((path as NSString).pathExtension.lowercased()) } ?? files
            if let data = body.components(separatedBy: "src=\"data:image/jpeg;base64,").dropFirst().first?.components(separatedBy: "\"").first {
                pictures.append(still + "\t" + data)
            } else {
                #expect(body.contains("no picture: does not decode") && body.contains("nothumb\" title=\""), "\(still): \(body.prefix(300))")
                without.insert(String(still.dropFirst(root.count + 1)))
            }
        }
        #expect(without == Self.undecodable, "\(without.sorted())")
        #expect(pictures.count >= 50, "\(pictures.count) pictures")
        // Each picture (the still's Exif thumbnail, or the helper's) is a JPEG another decoder reads,
        // turned as Pillow (and libheif) show the still: portrait for a portrait still, landscape
        // for a landscape one (stills within 5 % of square aside).
        let list = page.appendingPathExtension("pictures")
        defer { try? FileManager.default.removeItem(at: list) }
        try Data(pictures.joined(separator: "\n").utf8).write(to: list)
        let script = """
        import sys, io, base64
        from PIL import Image
        import pillow_heif
        pillow_heif.register_heif_opener()
        for line in open(sys.argv[1]).read().split('\\n'):
            path, data = line.split('\\t')
            im = Image.open(io.BytesIO(base64.b64decode(data))); im.load()
            assert im.format == 'JPEG' and min(im.size) > 0, (path, im.size)
            # The still's shown size from its header: libheif turns a HEIF as it opens it; other
            # formats turn by Exif Orientation (5 to 8: a quarter turn).
            # (A still Pillow does not recognise, a synthetic one, has no shape to hold to.)
            try:
                still = Image.open(path)
            except Exception:
                continue
            shown = still.size if still.format == 'HEIF' or still.getexif().get(0x112, 1) not in (5, 6, 7, 8) else still.size[::-1]
            if abs(shown[0] - shown[1]) > 0.05 * max(shown):
                assert (im.size[0] > im.size[1]) == (shown[0] > shown[1]), (path, im.size, shown)
        print('ok')
        """
        let decoded = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, list.path], timeout: 120)
        #expect(decoded.status == 0 && decoded.text.contains("ok"), "\(decoded.stderr.suffix(400))")
    }

    @Test("without --thumbnails, a JPEG's Exif thumbnail (stored as the still's pixels are) is shown turned as ExifTool's Orientation turns the still: in Chromium, the picture's pixel size turned by its computed transform is portrait or landscape as the still is shown, and its box stays 128×96")
    func exifThumbnailsTurned() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let root = try #require(Locations.sharedSamples).path
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-turned-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        let run = try ProcessResult.run(binary, ["check", root, "--format", "html", "-o", page.path, "--html-limit", "0", "-q"], timeout: 600)
        #expect(run.status == 1, "\(run.stderr.suffix(400))")
        let probe = """
        (function () {
          var pictures = Array.prototype.slice.call(document.querySelectorAll('section.card img.thumb'));
          if (document.readyState !== 'complete' || pictures.some(function (p) { return !p.complete; })) return {done: false};
          return {done: true, cards: pictures.map(function (p) {
            var files = p.closest('section.card').querySelector('div.files'), box = p.getBoundingClientRect();
            var paths = Array.prototype.filter.call(files.childNodes, function (n) { return n.nodeType === 3; }).map(function (n) { return n.data; });
            return {still: paths[0], size: [p.naturalWidth, p.naturalHeight], transform: getComputedStyle(p).transform, box: [box.width, box.height]};
          })};
        })()
        """
        let answer = try ChromiumPage.ask(page.absoluteString, probe)
        let cards = try #require(answer.value["cards"] as? [[String: Any]], "\(answer.value)")
        let jpegs = cards.filter { ["jpg", "jpeg"].contains((($0["still"] as? String ?? "") as NSString).pathExtension.lowercased()) }
        // What ExifTool reads of each: the stored size and the Orientation the still is shown by.
        let read = try ProcessResult.run(try #require(Locations.tool("exiftool"), "exiftool"), ["-j", "-n", "-File:ImageWidth", "-File:ImageHeight", "-Orientation"] + jpegs.compactMap { $0["still"] as? String })
        let oracle = try #require(try JSONSerialization.jsonObject(with: read.stdout) as? [[String: Any]])
        var turned = 0
        for card in jpegs {
            let still = card["still"] as? String ?? "", size = card["size"] as? [Int] ?? [], box = card["box"] as? [Double] ?? []
            let found = try #require(oracle.first { $0["SourceFile"] as? String == still }, "\(still)")
            let width = found["ImageWidth"] as? Int ?? 0, height = found["ImageHeight"] as? Int ?? 0, orientation = found["Orientation"] as? Int ?? 1
            let shownPortrait = (5...8).contains(orientation) ? width > height : height > width
            // The page's turn from its computed matrix(a, b, c, d, e, f): a quarter turn swaps the sides.
            let matrix = (card["transform"] as? String ?? "").drop { $0 != "(" }.dropFirst().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces.union([")"]))) }
            let quarter = matrix.count == 6 && abs(matrix[0]) < 0.01
            if quarter || (matrix.count == 6 && matrix[0] < -0.99) { turned += 1 }
            #expect(size.count == 2 && size[0] > 0 && size[1] > 0, "\(still): \(size)")
            guard size.count == 2, Swift.abs(width - height) > Swift.max(width, height) / 20 else { continue }
            #expect((quarter ? size[0] > size[1] : size[1] > size[0]) == shownPortrait, "\(still): picture \(size), \(card["transform"] ?? ""); the still \(width)×\(height), Orientation \(orientation)")
            #expect(box.count == 2 && box[0] <= 128.5 && box[1] <= 96.5, "\(still): box \(box)")
        }
        #expect(jpegs.count >= 5 && turned >= 2, "\(jpegs.count) JPEG pictures, \(turned) turned")
    }

    @Test("the eight EXIF Orientations (ExifTool writing each into a copy of an iPhone JPEG): without --thumbnails the card's Exif thumbnail, as Chromium's computed transform moves its pixels, is pixel for pixel what Pillow's exif_transpose shows for the Orientation Pillow reads from the still")
    func exifThumbnailsEveryOrientation() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let source = try #require(Locations.sharedSamples).appendingPathComponent("henteko__livephotoskit-react/test.JPG").path
        let binary = try #require(Locations.lpcheckBinary, "lpcheck is not built").path
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-orientations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for orientation in 1...8 {
            let written = try ProcessResult.run(exiftool, ["-q", "-n", "-Orientation=\(orientation)", "-o", folder.appendingPathComponent("o\(orientation).jpg").path, source])
            #expect(written.status == 0, "\(written.stderr)")
        }
        let page = folder.appendingPathComponent("report.html")
        let run = try ProcessResult.run(binary, ["check", folder.path, "--format", "html", "-o", page.path, "-q"], timeout: 300)
        #expect(run.status <= 1, "\(run.stderr.suffix(400))")
        let probe = """
        (function () {
          var pictures = Array.prototype.slice.call(document.querySelectorAll('section.card img.thumb'));
          if (document.readyState !== 'complete' || pictures.some(function (p) { return !p.complete; })) return {done: false};
          return {done: true, lines: pictures.map(function (p) {
            var files = p.closest('section.card').querySelector('div.files');
            return [files.firstChild.data, getComputedStyle(p).transform, p.src].join('\\t');
          })};
        })()
        """
        let answer = try ChromiumPage.ask(page.absoluteString, probe)
        let lines = try #require(answer.value["lines"] as? [String], "\(answer.value)")
        #expect(lines.count == 8, "\(lines.count) pictures")
        let list = folder.appendingPathComponent("pictures.txt")
        try Data(lines.joined(separator: "\n").utf8).write(to: list)
        // The page's matrix(a, b, c, d, e, f) about the picture's centre, applied to its pixels;
        // Pillow's exif_transpose of the same pixels with the still's Orientation.
        let script = """
        import sys, io, base64
        from PIL import Image, ImageOps
        for line in open(sys.argv[1]).read().split('\\n'):
            still, transform, address = line.split('\\t')
            picture = Image.open(io.BytesIO(base64.b64decode(address.split(',', 1)[1]))).convert('RGB')
            a, b, c, d = ([round(float(v)) for v in transform[transform.index('(') + 1:-1].split(',')[:4]] if transform != 'none' else [1, 0, 0, 1])
            w, h = picture.size
            ow, oh = abs(a) * w + abs(c) * h, abs(b) * w + abs(d) * h
            shown = Image.new('RGB', (ow, oh))
            for y in range(h):
                for x in range(w):
                    px, py = x + 0.5 - w / 2, y + 0.5 - h / 2
                    shown.putpixel((round(a * px + c * py + ow / 2 - 0.5), round(b * px + d * py + oh / 2 - 0.5)), picture.getpixel((x, y)))
            orientation = Image.open(still).getexif().get(0x112, 1)
            picture.getexif()[0x112] = orientation
            expected = ImageOps.exif_transpose(picture)
            print(still.rsplit('/', 1)[-1], orientation, transform, 'same' if expected.tobytes() == shown.tobytes() else 'differs')
        """
        let compared = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, list.path], timeout: 120)
        #expect(compared.status == 0, "\(compared.stderr.suffix(400))")
        let verdicts = compared.text.split(separator: "\n")
        #expect(verdicts.count == 8 && verdicts.allSatisfy { $0.hasSuffix(" same") } && Set(verdicts.map { $0.split(separator: " ")[1] }).count == 8, "\(verdicts)")
    }
}

