/// A movie without video frames.
enum NoVideoTrack: Rule {
    static let description = RuleDescription(
        identifier: "no-video-track", title: "Movie has no video", severity: .error, category: .timing,
        confidence: .high, evidence: [.fileContent("no track with handler 'vide' and samples"), .measured(Evidence.samples)],
        rationale: "A Live Photo movie needs a video track with frames; audio or metadata alone shows nothing.",
        fix: "Pair the still with a movie that has video.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair || item.kind == .movieOnly, let movie = item.movie, let facts = movie.movie else { return [] }
        if facts.videoTrackCount == 0 { return [finding("The movie has no video track.", movie)] }
        if (facts.frameDurations?.frameCount ?? 0) == 0 { return [finding("The movie's video track has no frames.", movie)] }
        return []
    }

    static let examples: [RuleExample] = [
        .triggers("audio only", Example.pair(movie: Example.movie { $0.videoTrackCount = 0; $0.frameDurations = nil; $0.frames = [] })),
        .passes("camera pair", Example.pair()),
    ]
}
