import LivePhotoFormats

/// The moment falls where no video frame is shown.
enum StillImageTimeNotOnFrame: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-not-on-frame", title: "Still moment not on a video frame", severity: .warning, category: .stillImageTime,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (the moment on a video frame in every camera movie)"), .specification(Evidence.isoBMFF + " (composition of edit lists)")],
        rationale: "The still should match a frame of the movie. A moment before the first frame, after the last, or in a gap of the video's edit list shows no frame.",
        fix: "Place the sample on a frame: `lpcheck repair --frame N`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, let seconds = facts.stillImageTime?.seconds, !facts.frames.isEmpty else { return [] }
        let onFrame = facts.frames.contains { seconds >= $0.start - 1e-6 && seconds < max($0.end, $0.start + 1e-6) }
        guard !onFrame else { return [] }
        let first = facts.frames[0].start
        let end = facts.frames.map(\.end).max() ?? first
        return [finding("No video frame is shown at the still moment \(SecondsText.format(seconds, decimals: 4)) s (frames cover \(SecondsText.format(first, decimals: 4))–\(SecondsText.format(end, decimals: 4)) s).", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("after the last frame", Example.pair(movie: Example.stillImageTime { $0.seconds = 2.5 })),
        .passes("camera pair: inside a frame, not on its start", Example.pair(movie: Example.stillImageTime { $0.seconds = 1.01 })),
    ]
}
