/// Sample tables that put media data outside the file.
enum SampleDataOutsideFile: Rule {
    static let description = RuleDescription(
        identifier: "sample-data-outside-file", title: "Sample data outside the file", severity: .error, category: .damage,
        confidence: .high, evidence: [.fileContent("chunk offsets and sample sizes against the file's size"), .specification(Evidence.isoBMFF + " §8.7 (sample tables)")],
        rationale: "A track's chunk offsets and sample sizes say where its frames are. When they point past the end of the file, add up to more than the file holds, or disagree with each other (stsc placing fewer samples than stsz counts), players find no data for those frames: ffmpeg decodes nothing and Photos shows no motion, though every marker reads. Judged from the tables' extremes (highest chunk offset, total of the sizes, the last chunk's end); the media data is not read.",
        fix: "Re-mux the movie from a complete source; the message names the track's table and the numbers that disagree.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            // A file cut short says so (truncated-file); its tables then point past the cut by nature.
            guard file.error == nil, !file.warnings.contains(where: { $0.code == .truncated }),
                  let first = file.warnings.first(where: { $0.code == .outsideFile }) else { return nil }
            let others = file.warnings.filter { $0.code == .outsideFile }.count - 1
            let more = others > 0 ? " (and \(others) more)" : ""
            return finding("Sample data outside the file: \(first.message) (\(first.path))\(more).", file, offset: first.offset)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("video chunks past the end", {
            var movie = Example.movie()
            movie.warnings = [.init(.outsideFile, "chunk 30 of 30 starts at byte 9000000, past the end of the file (3001901 bytes)", offset: 3480,
                                    path: "moov/trak/mdia/minf/stbl/stco")]
            return Example.pair(movie: movie)
        }()),
        .passes("cut short: truncated-file says it", {
            var movie = Example.movie()
            movie.warnings = [.init(.truncated, "box 'mdat' claims 3001901 bytes but the file ends 1812 bytes after its start", offset: 36, path: "mdat"),
                              .init(.outsideFile, "chunk 30 of 30 starts at byte 2900000, past the end of the file (1848 bytes)", offset: 3480,
                                    path: "moov/trak/mdia/minf/stbl/stco")]
            return Example.pair(movie: movie)
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
