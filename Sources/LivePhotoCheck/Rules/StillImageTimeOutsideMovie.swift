import LivePhotoFormats

/// The moment (edit list applied) is not inside the movie.
enum StillImageTimeOutsideMovie: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-outside-movie", title: "Still moment outside the movie", severity: .error, category: .stillImageTime,
        confidence: .medium, evidence: [.specification(Evidence.isoBMFF + " §8.6.6 (edit lists)"), .measured(Evidence.samples)],
        rationale: "The still-image-time sample, placed by its track's edit list, must fall inside the movie's duration. An edit list that never presents the sample, or a time past the end, leaves Photos without a moment.",
        fix: "Place the sample inside the movie: `lpcheck repair --time SECONDS` or `--frame N`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, let time = facts.stillImageTime else { return [] }
        guard let seconds = time.seconds else {
            return [finding("The edit list of track \(time.trackID) never presents the still-image-time sample (media time \(time.mediaTime)).", movie)]
        }
        if let duration = facts.durationSeconds, seconds < 0 || seconds > duration + 1e-6 {
            return [finding("The still moment \(SecondsText.format(seconds, decimals: 4)) s lies outside the movie (0–\(SecondsText.format(duration, decimals: 4)) s).", movie)]
        }
        return []
    }

    static let examples: [RuleExample] = [
        .triggers("past the end", Example.pair(movie: Example.stillImageTime { $0.seconds = 3.5 })),
        .triggers("never presented", Example.pair(movie: Example.stillImageTime { $0.seconds = nil })),
        .passes("camera pair", Example.pair()),
    ]
}
