import LivePhotoFormats

/// The still moment on the movie's first frame.
enum WallpaperStillOnFirstFrame: Rule {
    static let description = RuleDescription(
        identifier: "wallpaper-still-on-first-frame", title: "Still moment on the first frame (wallpaper)", severity: .error, category: .wallpaper,
        confidence: .low, evidence: [.practitioners("TouSC/Video2LivePhoto #6 (the still frame's position among the parameters that broke the wallpaper)"),
                                     .measured(Evidence.samples + " (the moment 0.5 to 1.5 s into every camera movie)")],
        rationale: "Cameras place the still in the middle of the movie (0.5 to 1.5 s in, in every camera pair measured); generators often put it on the first frame (still-image-time at 0). Generator authors list the still frame's position among what made the lock screen refuse the motion. Unconfirmed: low confidence.",
        fix: "Place the still away from the first frame: `lpcheck repair --time S` (or `--frame N`), or `lpcheck make --profile wallpaper`, which does so.")

    /// The moment, when it is on the first of several frames.
    static func moment(_ item: CheckItem) -> Double? {
        guard item.kind == .pair, let facts = item.movie?.movie, let seconds = facts.stillImageTime?.seconds, let first = facts.frames.first,
              facts.frameCount > 1, seconds < first.start + first.duration else { return nil }
        return seconds
    }

    static func fires(_ item: CheckItem, context: RuleContext) -> Bool { moment(item) != nil }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let seconds = moment(item), let movie = item.movie else { return [] }
        return [finding("The still moment (\(SecondsText.format(seconds, decimals: 3)) s) is on the movie's first frame: the lock screen may show it without motion.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("moment at 0", Example.pair(movie: Example.stillImageTime { $0.seconds = 0 })),
        .passes("moment at 1 s", Example.pair()),
    ]
}
