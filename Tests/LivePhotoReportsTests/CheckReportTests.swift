import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LivePhotoCheck
import LivePhotoFormats
@testable import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// Report writers against stored expected output. Re-record with `LPCHECK_RECORD_GOLDEN=1 swift test`.
struct CheckReportTests {
    /// A fixed report: a clean pair with an edit (variant) and a hard link (duplicate), a broken pair, a
    /// still alone, an unreadable movie, and hostile text.
    static func report() -> CheckReport {
        var broken = Example.pair(
            still: Example.still("shots/IMG_0002.JPG", identifier: nil),
            movie: Example.movie("shots/IMG_0002.MOV", identifier: "5D7C1E0A-0B55-4C2B-9A57-3E9F7C2D8B61"), by: .name)
        broken.movie?.movie?.stillImageTime?.seconds = 3.5
        var hostile = Example.still("shots/<script>alert(1)</script>.jpg", identifier: "<img src=x onerror=alert(1)>")
        hostile.make = "<script>document.title='pwned'</script>"
        var unreadable = Example.movie("shots/cut.mov")
        unreadable.error = ParseError(.truncated, "box 'moov' runs past the end of the file", offset: 1_503_655, path: "moov")
        unreadable.movie = nil
        var original = Example.still("shots/IMG_0001.JPG")
        original.identity = FileIdentity(device: 1, inode: 1)
        var link = Example.still("album/IMG_0001.JPG")
        link.identity = FileIdentity(device: 1, inode: 1)
        let edit = Example.still("shots/IMG_0001-edited.JPG")
        let items = Pairing.items([original, Example.movie("shots/IMG_0001.MOV"), hostile, unreadable, link, edit])
            + [broken]
        var checker = Checker(roots: ["shots"])
        checker.version = "0.0.0-test"
        let rules = RuleRegistry.descriptions
        let checked = items.map { item -> CheckItem in
            var item = item
            item.findings = RuleRegistry.all.flatMap { $0.check(item, context: RuleContext()) }
            return item
        }.sorted { ($0.primary?.path ?? "") < ($1.primary?.path ?? "") }
        return CheckReport(version: checker.version, roots: checker.roots, items: checked, rules: rules, failOn: .error)
    }

    @Test("every reporter in the list streams exactly what it renders, under a unique --format name")
    func reporters() {
        let report = Self.report()
        #expect(Set(CheckReporters.identifiers).count == CheckReporters.all.count)
        #expect(CheckReporters.identifiers == ["text", "json", "plist", "html", "junit", "sarif"])
        for reporter in CheckReporters.all {
            var streamed = ""
            reporter.write(report) { streamed += $0 }
            #expect(streamed == reporter.render(report), "\(reporter.identifier)")
            #expect(!streamed.isEmpty)
        }
    }

    /// The fixed report's items copied under numbered folders until there are `count`: more
    /// than the writers render at once on several cores, with and without findings.
    static func largeReport(count: Int) -> CheckReport {
        let base = report()
        var items: [CheckItem] = []
        items.reserveCapacity(count)
        var copy = 0
        while items.count < count {
            for var item in base.items where items.count < count {
                let folder = String(format: "copy%05d/", copy)
                if let path = item.still?.path { item.still?.path = folder + path }
                if let path = item.movie?.path { item.movie?.path = folder + path }
                if copy % 3 == 0 { item.findings = [] }
                items.append(item)
            }
            copy += 1
        }
        return CheckReport(version: base.version, roots: base.roots, items: items, rules: base.rules, failOn: .error)
    }

    @Test("an item's JSON written field by field equals its tree's, every optional field present (relations, sidecars, carriers, mates, offsets)")
    func itemFieldsWrittenOnce() throws {
        var items = Array(Self.report().items)
        try #require(items.count >= 3)
        items[0].identifierConflict = true
        items[0].embeddedMovieOf = "takeout/PXL_1.MP.jpg"
        items[0].sidecars = ["shots/IMG_0001.AAE", "shots/IMG_0001.JPG.json"]
        items[0].carriers = CheckItem.Carriers(stills: 3, movies: 2)
        items[1].nameMates = [NameMate(path: "shots/IMG_0002 (1).MOV", reason: "another identifier \"x\" <b>")]
        items[1].variantMarks = []
        items[2].findings.append(Finding(rule: "r", severity: .warning, message: "line\nbreak & \u{2028}", path: nil, offset: -1))
        let report = CheckReport(version: "0.0.0-test", roots: ["shots"], items: items, rules: [], failOn: .error)
        #expect(CheckJSON.render(report) == CheckJSON.document(report).serialized() + "\n")
        for (index, item) in items.enumerated() {
            let streamed = CheckJSON.json(item, after: "")
            #expect(streamed == CheckJSON.item(item).serialized(indent: 2), "item \(index)")
        }
        let first = CheckJSON.item(items[0]).serialized(pretty: false)
        for field in ["\"identifierConflict\":true", "\"embeddedMovieOf\":\"takeout/PXL_1.MP.jpg\"", "\"carriers\":{\"stills\":3,\"movies\":2}", "\"sidecars\":["] {
            #expect(first.contains(field), "\(field) in \(first)")
        }
    }

    @Test("writers that render items on several cores give the bytes of rendering them one by one, in order")
    func parallelItems() throws {
        let report = Self.largeReport(count: 9_000)
        #expect(CheckJSON.render(report) == CheckJSON.document(report).serialized() + "\n")
        #expect(CheckSARIF.render(report) == CheckSARIF.document(report).serialized() + "\n")
        let primaries = report.items.map { [$0.still?.path, $0.movie?.path].compactMap { $0 }.joined(separator: " + ") }
        let junit = try XMLDocument(data: Data(CheckJUnit.render(report).utf8))
        #expect(try junit.nodes(forXPath: "//testcase/@name").map { $0.stringValue ?? "" } == primaries)
        let plist = try PropertyListSerialization.propertyList(from: Data(CheckPlist.render(report).utf8), format: nil) as? [String: Any]
        let plistItems = try #require(plist?["items"] as? [[String: Any]])
        #expect(plistItems.map { [$0["still"] as? String, $0["movie"] as? String].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " + ") } == primaries)
        #expect(plistItems.map { ($0["findings"] as? [Any])?.count ?? -1 } == report.items.map(\.findings.count))
    }

    @Test("the terminal summary leaves info findings out unless asked, and says so")
    func infosHidden() {
        let report = Self.report()
        #expect(report.count(.info) > 0)
        let hidden = CheckText.render(report, showInfo: false)
        #expect(!hidden.contains("  info "))
        #expect(hidden.contains("\(report.count(.info)) infos (infos not listed: --verbose lists them)"))
        #expect(CheckText.render(report).contains("  info identifier-variant"))
        #expect(CheckText.render(report, verbose: true, showInfo: false).contains("  info identifier-variant"))
    }

    @Test("the HTML report puts failing folders and, in each, failing items first, and links rules and findings both ways")
    func htmlOrderAndLinks() throws {
        let report = Self.report()
        let html = CheckHTML.render(report)
        var worst: [Int] = []
        for section in html.components(separatedBy: "<details class=\"folder\"").dropFirst() {
            let cards = section.components(separatedBy: "<section class=\"card ").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            let ranks = cards.map { ["error": 0, "warning": 1, "info": 2, "clean": 3][$0] ?? 9 }
            #expect(ranks == ranks.sorted(), "\(cards)")
            worst.append(ranks.first ?? 9)
        }
        #expect(worst.count >= 2 && worst == worst.sorted(), "\(worst)")
        for (rule, _) in report.countsByRule {
            #expect(html.contains("<tr id=\"rule-\(rule)\">"))
            #expect(html.contains("href=\"#rule-\(rule)\""))
            let target = try #require(html.range(of: "<tr id=\"rule-\(rule)\"><td><a href=\"#")).upperBound
            let anchor = String(html[target...].prefix { $0 != "\"" })
            #expect(html.contains("id=\"\(anchor)\" ") || html.contains("id=\"\(anchor)\">"), "\(rule) links to \(anchor)")
        }
        // Every link to a rule has its row (a baselined finding's rule may have none).
        var accepted = report
        accepted.items[0].findings = accepted.items[0].findings.map { var finding = $0; finding.baselined = true; return finding }
        let withBaseline = CheckHTML.render(accepted)
        for link in withBaseline.components(separatedBy: "href=\"#rule-").dropFirst() {
            let rule = String(link.prefix { $0 != "\"" })
            #expect(withBaseline.contains("<tr id=\"rule-\(rule)\">"), "dangling link to \(rule)")
        }
    }

    static let formats: [(String, @Sendable (CheckReport) -> String)] = [
        ("report.json", CheckJSON.render), ("report.plist", CheckPlist.render), ("report.html", CheckHTML.render),
        ("report.junit.xml", CheckJUnit.render), ("report.sarif", CheckSARIF.render), ("report.txt", { CheckText.render($0) }),
    ]

    @Test("each writer matches its stored expected output", arguments: formats.map(\.0))
    func golden(_ name: String) throws {
        let render = try #require(Self.formats.first { $0.0 == name }?.1)
        let output = render(Self.report())
        let url = Locations.packageRoot.appendingPathComponent("Tests/LivePhotoReportsTests/Golden/\(name)")
        if ProcessInfo.processInfo.environment["LPCHECK_RECORD_GOLDEN"] != nil {
            try Data(output.utf8).write(to: url)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(output == expected, "\(name) differs from Golden/\(name); re-record with LPCHECK_RECORD_GOLDEN=1 if intended")
    }

    @Test("JSON report validates against Reports/check.schema.json")
    func schema() throws {
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        let problems = try validator.validate(json: Data(CheckJSON.render(Self.report()).utf8))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("plist is the JSON document as a property list")
    func plistMatchesJSON() throws {
        let report = Self.report()
        let plist = try PropertyListSerialization.propertyList(from: Data(CheckPlist.render(report).utf8), format: nil) as? [String: Any]
        let json = try JSONSerialization.jsonObject(with: Data(CheckJSON.render(report).utf8)) as? [String: Any]
        let plistItems = plist?["items"] as? [[String: Any]]
        let jsonItems = json?["items"] as? [[String: Any]]
        #expect(plistItems?.count == jsonItems?.count)
        #expect(plistItems?.map { $0["kind"] as? String } == jsonItems?.map { $0["kind"] as? String })
        #expect(plistItems?.map { $0["contentIdentifier"] as? String } == jsonItems?.map { $0["contentIdentifier"] as? String })
        #expect((plist?["summary"] as? [String: Any])?["errors"] as? Int == (json?["summary"] as? [String: Any])?["errors"] as? Int)
    }

    @Test("JUnit is well-formed XML with a test case per item and failures for errors")
    func junit() throws {
        let report = Self.report()
        let document = try XMLDocument(data: Data(CheckJUnit.render(report).utf8))
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == report.items.count)
        let failing = report.items.filter { $0.findings.contains { $0.severity == .error } }.count
        let failedCases = try document.nodes(forXPath: "//testcase[failure]").count
        #expect(failedCases == failing)
    }

    @Test("JUnit validates against Reports/junit.xsd (xmllint), the sample report's too; a case without its classname does not")
    func junitSchema() throws {
        let schema = Locations.reports.appendingPathComponent("junit.xsd")
        let rendered = Data(CheckJUnit.render(Self.report()).utf8)
        #expect(try SchemaValidator.xmlProblems(rendered, schema: schema).isEmpty)
        #expect(try SchemaValidator.xmlProblems(Data(contentsOf: Locations.reports.appendingPathComponent("examples/samples.junit.xml")), schema: schema).isEmpty)
        let sabotaged = String(decoding: rendered, as: UTF8.self).replacingOccurrences(of: "<testcase classname=\"lpcheck.pair\"", with: "<testcase")
        try #require(Data(sabotaged.utf8) != rendered)
        #expect(try SchemaValidator.xmlProblems(Data(sabotaged.utf8), schema: schema).contains { $0.contains("classname") })
    }

    @Test("SARIF validates against the OASIS SARIF 2.1.0 schema, the sample report's too; a result of an unknown level does not")
    func sarifSchema() throws {
        let validator = try SchemaValidator.sarif()
        let rendered = Data(CheckSARIF.render(Self.report()).utf8)
        let sample = try Data(contentsOf: Locations.reports.appendingPathComponent("examples/samples.sarif"))
        let sabotaged = Data(String(decoding: rendered, as: UTF8.self).replacingOccurrences(of: "\"level\": \"error\"", with: "\"level\": \"fatal\"").utf8)
        try #require(sabotaged != rendered)
        let answers = try validator.validate(documents: [rendered, sample, sabotaged])
        #expect(answers[0].isEmpty, "\(answers[0])")
        #expect(answers[1].isEmpty, "\(answers[1])")
        #expect(answers[2].contains { $0.contains("fatal") }, "\(answers[2])")
    }

    @Test("streamed SARIF is the SARIF document serialized, with results and with none")
    func sarifStreamed() {
        var report = Self.report()
        #expect(!report.findings.isEmpty)
        #expect(CheckSARIF.render(report) == CheckSARIF.document(report).serialized() + "\n")
        for index in report.items.indices { report.items[index].findings = [] }
        #expect(CheckSARIF.render(report) == CheckSARIF.document(report).serialized() + "\n")
        #expect(CheckSARIF.render(report).contains("\"results\": []"))
    }

    @Test("SARIF 2.1.0: rules, results with locations, levels")
    func sarif() throws {
        let report = Self.report()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(CheckSARIF.render(report).utf8)) as? [String: Any])
        #expect(json["version"] as? String == "2.1.0")
        let run = try #require((json["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            #expect(["error", "warning", "note"].contains(result["level"] as? String ?? ""))
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(uri.map { !$0.contains(" ") && !$0.contains("<") } == true)
        }
    }

    @Test("HTML escapes every string from files")
    func htmlEscapes() {
        let html = CheckHTML.render(Self.report())
        // One script, the page's own filters (its CSP allows it by hash); none from a file.
        #expect(html.components(separatedBy: "<script").count - 1 == 1 && !html.contains("<script>document"))
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"))
        #expect(html.contains("Content-Security-Policy"))
    }
}
