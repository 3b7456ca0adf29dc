import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// One self-contained HTML page for QA: inline CSS, one inline script (the filters, allowed by its
/// hash), no network. A card per item with
/// the still's EXIF thumbnail where the file has one, the identifiers side by side, a timeline of
/// the movie's frames with the still moment, and the findings with their fixes. Every string from a
/// file is escaped.
public enum CheckHTML: Sendable {
    static var css: String { String(decoding: PackageResources.report_css, as: UTF8.self) }

    /// Item cards a page holds by default; the rest are counted in a note (`--html-limit`).
    public static let defaultLimit = 5_000

    public static func render(_ report: CheckReport) -> String { render(report, limit: defaultLimit) }

    /// The page with at most `limit` item cards (0: no limit), in folder sections: folders with
    /// failing items first and open, passing folders folded; within a folder, failing items first.
    /// What does not fit is counted in a note; the summary tables always cover every item.
    public static func render(_ report: CheckReport, limit: Int) -> String {
        let fixes = Dictionary(report.rules.map { ($0.identifier, $0.fix) }, uniquingKeysWith: { first, _ in first })
        let folders = sections(report)
        let (order, ranked, chosen, shown) = selection(report, folders: folders, limit: limit)
        // A page with previews plays movies from beside it ('self') and runs the player's script too.
        let plays = shown.contains { report.items[$0].preview != nil }
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; \(plays ? "media-src 'self'; " : "")script-src \(scriptSource)\(plays ? " " + playerSource : "")">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>lpcheck report</title>
        <style>
        \(css)</style>
        </head>
        <body>
        <header>
        <h1>lpcheck report</h1>
        <span class="verdict \(report.passed ? "pass" : "fail")">\(report.passed ? "PASS" : "FAIL")</span>
         \(CheckText.totals(report)) · \(Plural.count(report.count(.error), "error")) · \(Plural.count(report.count(.warning), "warning")) · \(Plural.count(report.count(.info), "info")) · fail on \(report.failOn.rawValue)
        </header>
        <main>

        """
        out += "<table class=\"summary\"><tr><th>kind</th><th>items</th></tr>\n"
        for kind in ItemKind.allCases where report.count(kind) > 0 {
            out += "<tr><td>\(kind.rawValue)</td><td>\(report.count(kind))</td></tr>\n"
        }
        out += "</table>\n"
        let judged = Target.allCases.filter { target in Verdict.allCases.contains { report.count(target, $0) > 0 } }
        if !judged.isEmpty {
            out += "<table class=\"summary\"><tr><th>target</th>" + Verdict.allCases.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr>\n"
            for target in judged {
                out += "<tr><td>\(target.rawValue)</td>" + Verdict.allCases.map { "<td>\(report.count(target, $0))</td>" }.joined() + "</tr>\n"
            }
            out += "</table>\n"
        }
        let position = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($1, $0) })
        if !report.countsByRule.isEmpty {
            // Each rule links to the first card it found something in; each finding links back.
            var first: [String: Int] = [:]
            for (index, item) in shown.enumerated() {
                for finding in report.items[item].findings where first[finding.rule] == nil { first[finding.rule] = index }
            }
            out += "<table class=\"summary\"><tr><th>rule</th><th>findings</th></tr>\n"
            for (rule, count) in report.countsByRule {
                let name = Markup.escape(rule)
                let cell = first[rule].map { "<a href=\"#item-\($0)\">\(name)</a>" } ?? name
                out += "<tr id=\"rule-\(name)\"><td>\(cell)</td><td>\(count)</td></tr>\n"
            }
            out += "</table>\n"
        }
        if shown.count < order.count {
            out += cutNote(report, cut: ranked.filter { !chosen.contains($0) }, shown: shown.count, limit: limit)
        }
        let listed = Set(report.countsByRule.map(\.rule))
        out += filterBar(report, shown: shown, folders: folders)
        for folder in folders {
            let visible = folder.items.filter { position[$0] != nil }
            guard !visible.isEmpty else { continue }
            let findings = folder.items.flatMap { report.items[$0].findings.filter { !$0.baselined } }
            let errors = findings.filter { $0.severity == .error }.count, warnings = findings.filter { $0.severity == .warning }.count
            let failing = folder.rank < 2
            var counts = "\(folder.items.count) item\(folder.items.count == 1 ? "" : "s")"
            if errors > 0 { counts += " · \(errors) error\(errors == 1 ? "" : "s")" }
            if warnings > 0 { counts += " · \(warnings) warning\(warnings == 1 ? "" : "s")" }
            if visible.count < folder.items.count { counts += " · \(folder.items.count - visible.count) not shown" }
            out += "<details class=\"folder\"\(failing ? " open" : "")><summary><code>\(Markup.escape(folder.name))</code> <span class=\"counts\">\(counts)</span></summary>\n"
            for item in visible {
                out += card(report.items[item], fixes: fixes, anchor: "item-\(position[item] ?? 0)", listed: listed, folder: folder.name)
            }
            out += "</details>\n"
        }
        out += "</main>\n<script>\(filterScript)</script>\n" + (plays ? "<script>\(playerScript)</script>\n" : "") + "</body>\n</html>\n"
        return out
    }

    /// Items grouped by folder (the still's, else the movie's), worst folders first, then those
    /// that hold Live Photos or motion photos (never folded below a folder of ordinary files),
    /// then by name; within a folder, failing items first, each in report order.
    static func sections(_ report: CheckReport) -> [(name: String, rank: Int, items: [Int])] {
        var byFolder: [String: [Int]] = [:]
        for (index, item) in report.items.enumerated() {
            let path = item.still?.path ?? item.movie?.path ?? ""
            let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
            byFolder[folder, default: []].append(index)
        }
        return byFolder.map { name, indices in
            let items = indices.sorted { left, right in
                let a = rank(report.items[left]), b = rank(report.items[right])
                return a != b ? a < b : left < right
            }
            return (name, items.first.map { rank(report.items[$0]) } ?? 3, items)
        }.sorted { a, b in
            let (live, other) = (holdsLivePhotos(report, a.items), holdsLivePhotos(report, b.items))
            return a.rank != b.rank ? a.rank < b.rank : live != other ? live : a.name < b.name
        }
    }

    /// Whether a folder holds a Live Photo (or a half of one) or a motion photo.
    static func holdsLivePhotos(_ report: CheckReport, _ items: [Int]) -> Bool {
        items.contains { [.pair, .motionPhoto, .stillOnly, .movieOnly].contains(report.items[$0].kind) }
    }

    /// The items that get a card, in page order (their stills are the ones that need a
    /// thumbnail).
    public static func shownItems(_ report: CheckReport, limit: Int) -> [Int] {
        selection(report, folders: sections(report), limit: limit).shown
    }

    /// The cards shown: the `limit` worst items (by rank, then page order), so that nothing left
    /// out is worse than something shown. Anchors number the cards in page order.
    static func selection(_ report: CheckReport, folders: [(name: String, rank: Int, items: [Int])], limit: Int)
        -> (order: [Int], ranked: [Int], chosen: Set<Int>, shown: [Int]) {
        let order = folders.flatMap(\.items)
        let ranked = order.indices.sorted { a, b in
            let left = rank(report.items[order[a]]), right = rank(report.items[order[b]])
            return left != right ? left < right : a < b
        }.map { order[$0] }
        let chosen = Set(limit > 0 ? ranked.prefix(limit) : ranked[...])
        return (order, ranked, chosen, order.filter(chosen.contains))
    }

    /// What a limited page leaves out, counted so that nobody reads the page as the whole report.
    static func cutNote(_ report: CheckReport, cut: [Int], shown: Int, limit: Int) -> String {
        let items = cut.map { report.items[$0] }
        var kinds: [(String, Int)] = []
        for kind in ItemKind.allCases {
            let count = items.filter { $0.kind == kind }.count
            if count > 0 { kinds.append((kind.rawValue, count)) }
        }
        let findings = items.flatMap { $0.findings.filter { !$0.baselined } }
        var severities: [String] = []
        for severity in [Severity.error, .warning, .info] {
            let count = findings.filter { $0.severity == severity }.count
            if count > 0 { severities.append("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")") }
        }
        let what = severities.isEmpty ? "none of them has a finding" : "they hold " + severities.joined(separator: ", ")
        return "<p class=\"cut\">This page shows \(shown) of \(report.items.count) items (--html-limit \(limit)): \(cut.count) are not shown ("
            + kinds.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + "); \(what). Failing items come first, so every item left out is at most as bad as the last one shown. The JSON report lists every item.</p>\n"
    }

    /// 0 for items with a gating error, 1 warning, 2 info, 3 none.
    static func rank(_ item: CheckItem) -> Int {
        switch item.findings.filter({ !$0.baselined }).map(\.severity).max() {
        case .error?: return 0
        case .warning?: return 1
        case .info?: return 2
        case nil: return 3
        }
    }

    static func card(_ item: CheckItem, fixes: [String: String], anchor: String, listed: Set<String>, folder: String = ".") -> String {
        let worst = item.findings.filter { !$0.baselined }.map(\.severity).max()
        var out = "<section class=\"card \(worst?.rawValue ?? "clean")\" id=\"\(anchor)\"\(filterAttributes(item, folder: folder))>\n"
        let picture = item.still?.thumbnail.map { thumbnail in
            "data:image/\(thumbnail.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : "jpeg");base64,\(Data(thumbnail).base64EncodedString())"
        }
        if let preview = item.preview {
            out += previewElement(preview, poster: picture)
        } else if let picture {
            // A JPEG's Exif thumbnail is stored as its pixels are: mirrored and turned here as the still is shown.
            let capture = item.still.flatMap { $0.format == .jpeg && $0.thumbnailTurned != true ? $0.capture : nil }
            let turns = capture?.quarterTurns ?? 0
            let shown = ((1...3).contains(turns) ? " turn\(turns)" : "") + (capture?.mirrored == true ? " mirror" : "")
            out += "<img class=\"thumb\(shown)\" alt=\"thumbnail\" src=\"\(picture)\">\n"
        } else {
            // Why a picture asked for could not be made: the helper's reason, without the path the card shows.
            let problem = item.still.flatMap { still in still.thumbnailProblem.map { $0.hasPrefix(still.path + ": ") ? String($0.dropFirst(still.path.count + 2)) : $0 } }
            out += "<div class=\"nothumb\"\(problem.map { " title=\"\(Markup.escape($0))\"" } ?? "")>\(item.still == nil ? "no still" : problem == nil ? "no thumbnail" : "no picture: does not decode")</div>\n"
        }
        out += "<div>\n<span class=\"kind\">\(item.kind.rawValue)</span>\n"
        for (target, verdict) in item.verdicts.all { out += "<span class=\"verdict \(verdict.rawValue)\">\(target.rawValue): \(verdict.rawValue)</span>\n" }
        for line in VerdictReasons.lines(item) { out += "<div class=\"because\">\(Markup.escape(line))</div>\n" }
        let files = [item.still?.path, item.movie?.path].compactMap { $0 }.map(Markup.escape).joined(separator: "<br>")
        out += "<div class=\"files\">\(files)</div>\n"
        if let original = item.duplicateOf {
            out += "<div class=\"relation\">\(item.hardLink ? "hard link of" : "byte-identical copy of") \(Markup.escape(original))</div>\n"
        }
        if let motionPhoto = item.embeddedMovieOf {
            out += "<div class=\"relation\">the movie embedded in \(Markup.escape(motionPhoto)), byte for byte</div>\n"
        }
        if let original = item.variantOf {
            let marks = item.variantMarks.isEmpty ? "" : " (\(item.variantMarks.map(\.rawValue).joined(separator: ", ")))"
            out += "<div class=\"relation\">another rendition\(marks) of \([original.still, original.movie].compactMap { $0 }.map(Markup.escape).joined(separator: " + "))</div>\n"
        }
        if !item.sidecars.isEmpty {
            out += "<div class=\"relation\">sidecars: \(item.sidecars.map(Markup.escape).joined(separator: ", "))</div>\n"
        }
        if let still = item.still, still.make != nil || still.model != nil {
            out += "<div class=\"camera\">\(Markup.escape([still.make, still.model].compactMap { $0 }.joined(separator: " ")))</div>\n"
        }
        if item.still != nil || item.movie != nil {
            let stillID = item.still?.contentIdentifier
            let movieID = item.movie?.contentIdentifier
            let mismatch = item.still != nil && item.movie != nil && stillID != movieID
            out += "<div class=\"ids\(mismatch ? " mismatch" : "")\">"
            if let still = item.still {
                out += "<div><span class=\"label\">still identifier (MakerApple 0x0011)\(still.format == .unknown ? "" : " · " + still.format.rawValue)</span><code>\(Markup.escape(stillID ?? "none"))</code></div>"
            }
            if let movie = item.movie {
                out += "<div><span class=\"label\">movie identifier (keys/ilst)\(movie.format == .unknown ? "" : " · " + movie.format.rawValue)</span><code>\(Markup.escape(movieID ?? "none"))</code></div>"
            }
            out += "</div>\n"
        }
        if let movie = item.movie?.movie { out += timeline(movie, playhead: item.preview != nil) }
        // A motion photo's embedded movie, its presentation timestamp marked (-1 or none: no mark).
        if item.movie == nil, let embedded = item.still?.motionMovie {
            let timestamp = item.still?.motionPhoto?.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1_000_000 : nil }
            out += timeline(embedded, moment: .some(timestamp), label: "timestamp", playhead: item.preview != nil)
        }
        if !item.findings.isEmpty {
            out += "<ul class=\"findings\">\n"
            for finding in item.findings {
                out += "<li\(finding.baselined ? " class=\"baselined\"" : "")><span class=\"sev \(finding.severity.rawValue)\">\(finding.severity.rawValue)</span>"
                // Only rules in the table (gating findings) have a row to link to.
                let rule = Markup.escape(finding.rule)
                out += (listed.contains(finding.rule) ? "<a class=\"rule\" href=\"#rule-\(rule)\">\(rule)</a>" : "<span class=\"rule\">\(rule)</span>") + " \(Markup.escape(finding.message))"
                if let offset = finding.offset { out += " <span class=\"rule\">@\(offset)</span>" }
                if finding.baselined { out += " <span class=\"rule\">(baseline)</span>" }
                if let fix = fixes[finding.rule] { out += "<span class=\"fix\">Fix: \(Markup.escape(fix))</span>" }
                out += "</li>\n"
            }
            out += "</ul>\n"
        }
        out += "</div>\n</section>\n"
        return out
    }

    /// The movie's frames as alternating blocks on a time axis, and the still moment as a red line.
    /// `value` with `digits` (0 to 3) decimals, exactly as C's `%.Nf` prints it: the binary
    /// value rounded, ties to even. Integer arithmetic on the double's bits: a timeline has a
    /// few hundred numbers, and a formatter call each cost more than the rest of the page.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        let scale: UInt64 = [1, 10, 100, 1000][min(max(digits, 0), 3)]
        let magnitude = value.magnitude
        guard value.isFinite, magnitude < 0x1p40 else { return String(format: "%.\(digits)f", value) }
        let subnormal = value.exponentBitPattern == 0
        let significand = subnormal ? value.significandBitPattern : value.significandBitPattern | (1 << 52)
        let shift = (subnormal ? 1 : Int(value.exponentBitPattern)) - 1075
        // magnitude × scale = significand × scale × 2^shift, with shift < 0 below 2^40.
        let scaled = significand * scale
        var rounded: UInt64 = 0
        if shift < 0 && -shift < 64 {
            let bits = UInt64(-shift)
            rounded = scaled >> bits
            let remainder = scaled & ((1 << bits) - 1), half: UInt64 = 1 << (bits - 1)
            if remainder > half || (remainder == half && rounded & 1 == 1) { rounded += 1 }
        } else if shift >= 0 {
            rounded = scaled << UInt64(shift)
        }
        let sign = value.sign == .minus ? "-" : ""
        guard digits > 0 else { return sign + String(rounded) }
        let fraction = String(rounded % scale)
        return sign + String(rounded / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `moment`: the instant marked (default: the still-image-time), named `label`.
    /// `playhead`: a line the player's script moves as the card's preview plays.
    static func timeline(_ movie: MovieFacts, moment given: Double?? = nil, label: String = "still", playhead: Bool = false) -> String {
        let moment = given ?? movie.stillImageTime?.seconds
        // The movie's duration bounds the drawing (the edit list may cut the last frame short).
        let end = max(movie.durationSeconds ?? movie.frames.map(\.end).max() ?? 0, moment ?? 0)
        guard end > 0 else { return "" }
        let left = 10.0, width = 700.0
        func x(_ t: Double) -> String { fixed(left + max(0, t) / end * width, 2) }
        func w(_ start: Double, _ d: Double) -> String { fixed(max(0.5, (min(start + d, end) - start) / end * width - 0.5), 2) }
        var out = "<svg class=\"timeline\" viewBox=\"0 0 720 56\" role=\"img\" aria-label=\"movie timeline\">\n"
        // Frames as sub-paths of two paths (even and odd frames): two elements a movie, not one a
        // frame, so that pages of thousands of items stay light for the browser.
        var paths = ["", ""]
        var drawn = 0
        func block(_ start: Double, _ duration: Double) {
            let width = w(start, duration)
            paths[drawn % 2] += "M\(x(start)) 14h\(width)v18h-\(width)z"
            drawn += 1
        }
        let eachFrame = movie.frameCount <= 1200
        for run in movie.frames {
            if eachFrame {
                for index in 0..<run.count {
                    let start = run.start + Double(index) * run.duration
                    guard start < end else { break }
                    block(start, run.duration)
                }
            } else {
                guard run.start < end else { continue }
                block(run.start, run.end - run.start)
            }
        }
        if !paths[0].isEmpty { out += "<path class=\"frame\" d=\"\(paths[0])\"/>" }
        if !paths[1].isEmpty { out += "<path class=\"frame alt\" d=\"\(paths[1])\"/>" }
        out += "\n<line class=\"axis\" x1=\"\(x(0))\" y1=\"36\" x2=\"\(x(end))\" y2=\"36\"/>"
        out += "<text x=\"\(x(0))\" y=\"50\">0 s</text><text x=\"\(x(end))\" y=\"50\" text-anchor=\"end\">\(fixed(end, 3)) s</text>"
        if let moment {
            out += "<line class=\"still\" x1=\"\(x(moment))\" y1=\"6\" x2=\"\(x(moment))\" y2=\"40\"/>"
            out += "<text x=\"\(x(moment))\" y=\"8\" text-anchor=\"middle\">\(label) \(fixed(moment, 3)) s</text>"
        }
        if playhead { out += "<line class=\"playhead\" x1=\"\(x(0))\" y1=\"6\" x2=\"\(x(0))\" y2=\"40\" data-seconds=\"\(fixed(end, 3))\"/>" }
        out += "\n</svg>\n"
        return out
    }
}
