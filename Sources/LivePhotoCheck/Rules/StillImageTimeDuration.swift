import LivePhotoFormats

/// The still-image-time sample is longer than a frame, or has no duration.
enum StillImageTimeDuration: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-duration", title: "Still-image-time sample duration", severity: .warning, category: .timing,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (one tick)"), .practitioners("software writers (makelive, LimitPoint) write one frame")],
        rationale: "Cameras write a one-tick sample; software writes one frame. A sample of zero duration, or longer than one video frame, does not mark a single frame.",
        fix: "Rewrite the sample as one tick placed by the edit list: `lpcheck repair`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, let time = facts.stillImageTime else { return [] }
        if time.duration == 0 {
            return [finding("The still-image-time sample has zero duration.", movie)]
        }
        guard let length = time.durationSeconds, let durations = facts.frameDurations, let frame = durations.seconds(durations.maximum), frame > 0 else { return [] }
        // Allow one tick of either timescale for rounding between timescales.
        let slack = 1 / Double(max(1, min(time.mediaTimescale, durations.timescale)))
        if length > frame + slack {
            return [finding("The still-image-time sample lasts \(SecondsText.format(length, decimals: 4)) s, longer than a video frame (\(SecondsText.format(frame, decimals: 4)) s).", movie)]
        }
        return []
    }

    static let examples: [RuleExample] = [
        .triggers("a whole second", Example.pair(movie: Example.stillImageTime { $0.duration = 600 })),
        .triggers("zero", Example.pair(movie: Example.stillImageTime { $0.duration = 0 })),
        .passes("one tick", Example.pair()),
        .passes("one frame (software)", Example.pair(movie: Example.stillImageTime { $0.duration = 20 })),
    ]
}
