import LivePhotoFormats

/// A movie longer than the lock screen is reported to move.
enum WallpaperMovieTooLong: Rule {
    static let description = RuleDescription(
        identifier: "wallpaper-movie-too-long", title: "Movie may be too long for a Live Photo wallpaper", severity: .error, category: .wallpaper,
        confidence: .low, evidence: [.practitioners("TouSC/Video2LivePhoto #6 (3 s works where longer did not); RhetTbull/makelive #20 (a reporter found only under 1 min); LimitPoint/LivePhoto #10"),
                                     .measured(Evidence.samples + " (camera movies of 1.2 to 3.4 s)")],
        rationale: "Since iOS 17 the lock screen refuses the motion of many generated Live Photos (\"Motion not available\"). Generator authors report that movies of about 3 s work and longer ones did not; another reporter put the limit at a minute, and the camera movies measured last 1.2 to 3.4 s. The sources disagree, so this is low confidence: a movie over `wallpaperMaxMovieSeconds` (default 3 s) may not move.",
        fix: "Trim the movie to 3 s or less before making the pair (`lpcheck make` never re-encodes; trim with your editor or `ffmpeg -t 3 -c copy` at a keyframe).")

    static func fires(_ item: CheckItem, context: RuleContext) -> Bool {
        item.kind == .pair && (item.movie?.movie?.durationSeconds).map { $0 > context.wallpaperMaxMovieSeconds + 0.0005 } == true
    }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard fires(item, context: context), let movie = item.movie, let duration = movie.movie?.durationSeconds else { return [] }
        return [finding("The movie lasts \(SecondsText.format(duration, decimals: 3)) s, more than \(SecondsText.format(context.wallpaperMaxMovieSeconds, decimals: 3)) s: the lock screen may show it without motion.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("a 5 s movie", Example.pair(movie: Example.movie { $0.durationSeconds = 5 })),
        .passes("a 2 s movie", Example.pair()),
        .passes("exactly 3 s", Example.pair(movie: Example.movie { $0.durationSeconds = 3 })),
    ]
}
