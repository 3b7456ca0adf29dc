import LivePhotoFormats

/// A Live Photo movie far longer than a Live Photo.
enum MovieTooLong: Rule {
    static let description = RuleDescription(
        identifier: "movie-too-long", title: "Movie longer than a Live Photo", severity: .warning, category: .structure,
        confidence: .low, evidence: [.measured(Evidence.samples + " (about 3 s)"), .practitioners("reports of longer movies trimmed or refused by Photos; the limit is not documented")],
        rationale: "Live Photo movies last about three seconds. Much longer movies (over `maxMovieSeconds`, default 6 s) are trimmed or rejected by Photos and waste space.",
        fix: "Trim the movie around the still moment before pairing.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair || item.kind == .movieOnly, let movie = item.movie, let duration = movie.movie?.durationSeconds, duration > context.maxMovieSeconds else { return [] }
        return [finding("The movie lasts \(SecondsText.format(duration, decimals: 4)) s, more than \(SecondsText.format(context.maxMovieSeconds, decimals: 4)) s: Photos may trim or refuse it (camera movies last about 3 s).", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("a minute", Example.pair(movie: Example.movie { $0.durationSeconds = 60 })),
        .passes("camera pair", Example.pair()),
    ]
}
