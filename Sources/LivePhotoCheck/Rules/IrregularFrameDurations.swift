import LivePhotoFormats

/// Frame durations that vary beyond a tolerance.
enum IrregularFrameDurations: Rule {
    static let description = RuleDescription(
        identifier: "irregular-frame-durations", title: "Irregular frame durations", severity: .info, category: .timing,
        confidence: .low, evidence: [.measured(Evidence.samples + " (camera frame rates vary up to 2x)"), .practitioners("generated movies with dropped or mistimed frames")],
        targets: [],
        rationale: "No platform reader refuses variable frame timing: Photos, AVPlayer and Google Photos show each frame for its own duration, and a GIF's or a screen recording's movie varies it on purpose. Durations that differ by more than the tolerance (`frameDurationRatio`, default 3×, the last frame aside) are said as a fact with both readings, and decide no verdict: in a camera's movie they are a sign of frames a converter dropped. Gate constant-rate assets by raising the severity in `.lpcheck.yml` (`rules: irregular-frame-durations: warning`).",
        fix: "Nothing, for a GIF's or a screen recording's movie; a camera clip: re-encode or re-mux with a constant frame rate.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, facts.frameCount > 2 else { return [] }
        // Every run's duration, the very last frame aside (the last run counts while it has
        // another frame), in one pass over the runs.
        var shortest = Double.infinity, longest = 0.0
        var distinct = Set<Int64>()
        let runs = facts.frames
        for index in runs.indices where index < runs.count - 1 || runs[index].count > 1 {
            let duration = runs[index].duration
            guard duration > 0 else { continue }
            shortest = min(shortest, duration)
            longest = max(longest, duration)
            // Distinct to the microsecond: one duration in ticks of two timescales counts once.
            distinct.insert(Int64((duration * 1_000_000).rounded()))
        }
        guard shortest.isFinite, longest / shortest > context.frameDurationRatio else { return [] }
        return [finding("Frame durations range from \(SecondsText.format(shortest, decimals: 4)) s to \(SecondsText.format(longest, decimals: 4)) s (\(distinct.count) distinct, more than \(SecondsText.format(context.frameDurationRatio, decimals: 4))× apart): by design in a GIF's or a screen recording's movie; in a camera's movie a sign that frames may have been dropped.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("a frame ten times longer", Example.pair(movie: Example.movie {
            $0.frames = [.init(start: 0, duration: 1.0 / 30, count: 10), .init(start: 1.0 / 3, duration: 1.0 / 3), .init(start: 2.0 / 3, duration: 1.0 / 30, count: 40)]
        })),
        .passes("camera pair", Example.pair()),
        .passes("a long last frame", Example.pair(movie: Example.movie {
            $0.frames = [.init(start: 0, duration: 1.0 / 30, count: 59), .init(start: 59.0 / 30, duration: 1)]
        })),
    ]
}
