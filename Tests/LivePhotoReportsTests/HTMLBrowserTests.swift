import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// The HTML report loaded by a real headless browser (Chromium from the system packages).
@Suite(.enabled(if: Locations.tool("chromium") != nil, "chromium is not installed (Scripts/bootstrap.sh installs it)"))
struct HTMLBrowserTests {
    static func dumpDOM(_ html: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-report-\(UUID().uuidString).html")
        try Data(html.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ProcessResult.run(try #require(Locations.tool("chromium")), [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=2000", "--dump-dom", file.absoluteString,
        ])
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(500))")
        return result.text
    }

    @Test("a report on our samples, hostile metadata included, loads with every card and runs no script")
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
        #expect(!dom.lowercased().contains("<script"))
        #expect(dom.contains("&lt;script&gt;document.title="))
        #expect(dom.contains("data:image/jpeg;base64,") || report.items.allSatisfy { $0.still?.thumbnail == nil })
        #expect(dom.contains("<svg class=\"timeline\""))
    }
}
