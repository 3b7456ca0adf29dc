import LivePhotoFormats

/// Video frames with zero duration.
enum ZeroDurationFrames: Rule {
    static let description = RuleDescription(
        identifier: "zero-duration-frames", title: "Video frames of zero duration", severity: .error, category: .timing,
        confidence: .medium, evidence: [.specification(Evidence.isoBMFF + " §8.6.1.2 (decoding time to sample)"), .practitioners("players' reports of frames never shown")],
        rationale: "A frame with zero duration is never shown and breaks players' timing; some generators write it for the last frame.",
        fix: "Re-mux the movie with correct timestamps (for example ffmpeg with -c copy and a fixed frame rate).")

    /// A movie of the item's, or a motion photo's embedded one (said of the motion photo: a
    /// writer that copies that movie out carries the defect, and adds none).
    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        if let movie = item.movie, let durations = movie.movie?.frameDurations, durations.zeroDurationFrames > 0 {
            return [finding("\(durations.zeroDurationFrames) of \(durations.frameCount) video frames have zero duration.", movie)]
        }
        guard item.movie == nil, let still = item.still, still.motionPhoto != nil, let durations = still.motionMovie?.frameDurations, durations.zeroDurationFrames > 0 else { return [] }
        return [finding("\(durations.zeroDurationFrames) of \(durations.frameCount) video frames of the embedded movie have zero duration.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("a zero frame", Example.pair(movie: Example.movie { movie in
            movie.frameDurations = movie.frameDurations.map { var copy = $0; copy.zeroDurationFrames = 1; copy.minimum = 0; return copy }
        })),
        .triggers("a motion photo's embedded movie with a zero frame", {
            var item = Example.motionPhotoItem()
            item.still?.motionMovie?.frameDurations = FrameDurations(timescale: 90_000, frameCount: 38, nominal: 6_000, minimum: 0, maximum: 6_000, zeroDurationFrames: 1)
            return item
        }()),
        .passes("camera pair", Example.pair()),
        .passes("a motion photo", Example.motionPhotoItem()),
    ]
}
