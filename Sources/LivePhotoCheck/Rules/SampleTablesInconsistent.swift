/// A track's tables or sample entries that contradict one another, so that its samples cannot
/// be decoded as listed.
enum SampleTablesInconsistent: Rule {
    static let description = RuleDescription(
        identifier: "sample-tables-inconsistent", title: "Sample tables contradict each other", severity: .error, category: .damage,
        confidence: .high,
        evidence: [.fileContent("stsd's entries and their avcC/hvcC records, stsc's sample description indices, the sample counts of stts, ctts and stsz"),
                   .specification(Evidence.isoBMFF + " §8.6.1.2, §8.6.1.3, §8.7.3, §8.7.4 (each table counts the track's samples); ISO/IEC 14496-15 §5.3.3.1, §8.3.3.1 (decoder configuration records)")],
        rationale: "Every sample of a track is described three ways: its size (stsz), its time (stts, ctts) and the sample description that decodes it (stsd, named by each chunk in stsc). When those disagree (time for 40 samples where 30 have sizes, a chunk naming description 0 or 99 of one, no description at all, an avcC or hvcC record that does not parse), players decode the track wrongly or not at all, though every Live Photo marker reads. lpcheck's writers refuse such a movie: what they wrote from it would not play either.",
        fix: "Re-mux the movie from a complete source (ffmpeg -i IN -c copy OUT rebuilds the tables when the stream is intact); the message names the table and the numbers that disagree.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            let found = file.warnings.filter { $0.code == .inconsistent }
            guard file.error == nil, let first = found.first else { return nil }
            let more = found.count > 1 ? " (and \(found.count - 1) more)" : ""
            return finding("Sample tables contradict each other: \(first.message) (\(first.path))\(more).", file, offset: first.offset)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("stts counts more samples than stsz holds", {
            var movie = Example.movie()
            movie.warnings = [.init(.inconsistent, "stts counts 40 samples, stsz holds 30", offset: 3400, path: "moov/trak/mdia/minf/stbl/stts")]
            return Example.pair(movie: movie)
        }()),
        .triggers("a chunk names a sample description that is not there", {
            var movie = Example.movie()
            movie.warnings = [.init(.inconsistent, "stsc entry 1 names sample description 99, and stsd holds 1", offset: 3440, path: "moov/trak/mdia/minf/stbl/stsc")]
            return Example.pair(movie: movie)
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
