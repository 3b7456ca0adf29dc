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
}

