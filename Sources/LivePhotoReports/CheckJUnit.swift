import LivePhotoCheck

/// JUnit XML for CI systems: one test case per item; a failure per finding at or above the
/// report's fail-on level; other findings in system-out.
public enum CheckJUnit: Sendable {
    public static func render(_ report: CheckReport) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }

    /// Streams the document a test case at a time (the counts come first, from the report).
    public static func write(_ report: CheckReport, to sink: (String) -> Void) {
        let threshold = report.failOn.threshold
        @Sendable func failing(_ finding: Finding) -> Bool { !finding.baselined && threshold.map { finding.severity >= $0 } == true }
        let failedCases = report.failingItemCount
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"lpcheck\" tests=\"\(report.items.count)\" failures=\"\(failedCases)\" errors=\"0\">\n"
        out += "  <testsuite name=\"lpcheck\" tests=\"\(report.items.count)\" failures=\"\(failedCases)\" errors=\"0\" skipped=\"0\">\n"
        sink(out)
        let items = report.items
        ParallelPieces.stream(count: items.count, { position in
            let item = items[position]
            let name = [item.still?.path, item.movie?.path].compactMap { $0 }.joined(separator: " + ")
            let failures = item.findings.filter(failing)
            let others = item.findings.filter { !failing($0) }
            var out = "    <testcase classname=\"lpcheck.\(item.kind.rawValue)\" name=\"\(Markup.escape(name))\""
            if failures.isEmpty && others.isEmpty { return out + "/>\n" }
            out += ">\n"
            for finding in failures {
                out += "      <failure type=\"\(Markup.escape(finding.rule))\" message=\"\(Markup.escape(finding.message))\">"
                out += Markup.escape("\(finding.severity.rawValue) \(finding.rule): \(finding.message)\(finding.path.map { " (\($0)\(finding.offset.map { " @\($0)" } ?? ""))" } ?? "")")
                out += "</failure>\n"
            }
            if !others.isEmpty {
                out += "      <system-out>" + others.map { Markup.escape("\($0.severity.rawValue) \($0.rule): \($0.message)\($0.baselined ? " (baseline)" : "")") }.joined(separator: "\n") + "</system-out>\n"
            }
            return out + "    </testcase>\n"
        }, to: sink)
        sink("  </testsuite>\n</testsuites>\n")
    }
}
