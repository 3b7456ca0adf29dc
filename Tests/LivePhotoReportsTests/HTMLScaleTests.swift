import Foundation
import LivePhotoCheck
import LivePhotoFormats
@testable import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// The HTML report at scale: folder sections, and a limit that leaves out the least bad items and
/// says exactly what it left out.
struct HTMLScaleTests {
    static func cards(_ html: String) -> [String] {
        html.components(separatedBy: "<section class=\"card ").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// 0 error, 1 warning, 2 info, 3 clean: the class a card carries.
    static func rank(_ card: String) -> Int { ["error": 0, "warning": 1, "info": 2][card] ?? 3 }

    @Test("a limit shows the worst items, counts what it cut by kind and severity, and keeps the tables whole", arguments: [1, 3, 5])
    func limit(_ limit: Int) throws {
        let report = CheckReportTests.report()
        let html = CheckHTML.render(report, limit: limit)
        let shown = Self.cards(html)
        #expect(shown.count == limit)
        let cut = report.items.count - limit
        #expect(html.contains("This page shows \(limit) of \(report.items.count) items (--html-limit \(limit)): \(cut) are not shown ("))
        // Nothing left out is worse than the best card shown.
        let all = report.items.map { item -> Int in
            switch item.findings.filter({ !$0.baselined }).map(\.severity).max() {
            case .error?: return 0
            case .warning?: return 1
            case .info?: return 2
            case nil: return 3
            }
        }.sorted()
        #expect(shown.map(Self.rank).sorted() == Array(all.prefix(limit)))
        let cutFindings = all.dropFirst(limit)
        // The note says none of the cut items has a finding exactly when that is so.
        #expect(html.contains("none of them has a finding") == cutFindings.allSatisfy { $0 == 3 }, "limit \(limit): cut \(Array(cutFindings))")
        // The rule table still counts every finding.
        for (rule, count) in report.countsByRule { #expect(html.contains("<tr id=\"rule-\(Markup.escape(rule))\">") && html.contains("<td>\(count)</td>")) }
    }

    @Test("no limit: every item, no note; one section per folder, open when it fails, names escaped")
    func sections() throws {
        let report = CheckReportTests.report()
        let html = CheckHTML.render(report, limit: 0)
        #expect(Self.cards(html).count == report.items.count)
        #expect(!html.contains("class=\"cut\""))
        let folders = Set(report.items.compactMap { item -> String? in
            guard let path = item.still?.path ?? item.movie?.path, let slash = path.lastIndex(of: "/") else { return nil }
            return String(path[..<slash])
        })
        let sections = html.components(separatedBy: "<details class=\"folder\"").dropFirst()
        #expect(sections.count == folders.count)
        for section in sections {
            let open = section.hasPrefix(" open>")
            let failing = section.contains("<section class=\"card error") || section.contains("<section class=\"card warning")
            #expect(open == failing, "\(section.prefix(120))")
        }
        // The one script is the page's filters; none comes from a name.
        #expect(html.components(separatedBy: "<script>").count - 1 == 1)
        // The default keeps small reports whole.
        #expect(CheckHTML.render(report) == html)
    }

    @Test("timeline numbers are what C's %.2f and %.3f print, ties to even and signs included")
    func fixedDecimals() {
        var values: [Double] = [0, -0.0, 0.125, 0.375, 2.5, 0.005, 1.005, 1.015, 0.0005, 0.0015, 10.0 / 3, -1.25, -0.001, 1e-300, Double.leastNonzeroMagnitude, 699.995, 710, 123456.789, 1e12]
        // A fixed sequence (SplitMix64), so that a failure names the same value on every run.
        struct SplitMix: RandomNumberGenerator {
            var state: UInt64 = 0x4C50_4348_4543_4B21
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                return mixed ^ (mixed >> 31)
            }
        }
        var generator = SplitMix()
        for _ in 0..<20_000 {
            // Frame times and coordinates: multiples of small fractions, and arbitrary doubles.
            let ticks = Double(Int.random(in: 0...100_000, using: &generator))
            values += [ticks / 600, ticks / 90_000 * 700 + 10, Double.random(in: -1000...1000, using: &generator), ticks / 8000]
        }
        for value in values {
            #expect(CheckHTML.fixed(value, 2) == String(format: "%.2f", value), "\(value)")
            #expect(CheckHTML.fixed(value, 3) == String(format: "%.3f", value), "\(value)")
        }
    }
}
