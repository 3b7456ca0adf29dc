/// Structural damage the readers worked around.
enum DamagedStructure: Rule {
    static let description = RuleDescription(
        identifier: "damaged-structure", title: "Damaged structure", severity: .warning, category: .damage,
        confidence: .medium, evidence: [.fileContent("the reader's warnings with their offsets"), .specification(Evidence.isoBMFF)],
        rationale: "Part of the file contradicts itself (a count that does not fit its box, stray bytes, a bad segment) but the markers could still be read. Other tools may fail where lpcheck went on.",
        fix: "Re-export or re-mux the file; the message gives the byte offset and path.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            let damage = file.warnings.filter { $0.code != .truncated && $0.code != .outsideFile && $0.code != .inconsistent }
            guard file.error == nil, let first = damage.first else { return nil }
            let more = damage.count > 1 ? " (and \(damage.count - 1) more)" : ""
            let location = first.path.isEmpty ? "" : " in \(first.path)"
            return finding("\(first.message) at byte \(first.offset)\(location)\(more).", file, offset: first.offset)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("unread bytes", {
            var movie = Example.movie()
            movie.warnings = [.init(.invalidSize, "20 unread bytes after stco", offset: 3500, path: "moov/trak/mdia/minf/stbl/stco")]
            return Example.pair(movie: movie)
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
