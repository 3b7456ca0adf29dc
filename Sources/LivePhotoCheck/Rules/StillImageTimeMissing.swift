import LivePhotoFormats

/// A Live Photo movie without a timed-metadata track declaring still-image-time.
enum StillImageTimeMissing: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-missing", title: "No still-image-time track", severity: .error, category: .stillImageTime,
        confidence: .high, evidence: [.measured(Evidence.samples), .vendor("Apple Developer, AVMetadataIdentifier.quickTimeMetadataContentIdentifier and .quickTimeMetadataStillImageTime"), .practitioners("makelive (RhetTbull/makelive) and LimitPoint LivePhoto, which write these markers to make pairs Photos accepts")],
        rationale: "Photos needs a timed-metadata track (sample entry mebx) declaring mdta/com.apple.quicktime.still-image-time to know where the still sits in the movie; without it the pair shows as a plain photo. Re-muxing with ffmpeg drops this track.",
        fix: "Add the track (no re-encoding): `lpcheck repair`, optionally with `--time` or `--frame`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair || item.kind == .movieOnly, let movie = item.movie, let facts = movie.movie, facts.stillImageTimeTracks.isEmpty else { return [] }
        let others = facts.timedMetadataTrackCount > 0 ? " (\(Plural.count(facts.timedMetadataTrackCount, "timed-metadata track")), none declaring it)" : ""
        return [finding("No timed-metadata track declares com.apple.quicktime.still-image-time\(others).", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("re-muxed movie", Example.pair(movie: Example.movie { $0.stillImageTimeTracks = []; $0.stillImageTime = nil })),
        .passes("camera pair", Example.pair()),
    ]
}
