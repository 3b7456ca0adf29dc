/// Video frames with zero duration.
enum ZeroDurationFrames: Rule {
    static let description = RuleDescription(
        identifier: "zero-duration-frames", title: "Video frames of zero duration", severity: .error, category: .timing,
        confidence: .medium, evidence: [.specification(Evidence.isoBMFF + " §8.6.1.2 (decoding time to sample)"), .practitioners("players' reports of frames never shown")],
        rationale: "A frame with zero duration is never shown and breaks players' timing; some generators write it for the last frame.",
        fix: "Re-mux the movie with correct timestamps (for example ffmpeg with -c copy and a fixed frame rate).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let durations = movie.movie?.frameDurations, durations.zeroDurationFrames > 0 else { return [] }
        return [finding("\(durations.zeroDurationFrames) of \(durations.frameCount) video frames have zero duration.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("a zero frame", Example.pair(movie: Example.movie { movie in
            movie.frameDurations = movie.frameDurations.map { var copy = $0; copy.zeroDurationFrames = 1; copy.minimum = 0; return copy }
        })),
        .passes("camera pair", Example.pair()),
    ]
}
