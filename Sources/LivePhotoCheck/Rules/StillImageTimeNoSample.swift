/// The track is declared but has no readable sample holding the key.
enum StillImageTimeNoSample: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-no-sample", title: "Still-image-time declared but not stored", severity: .error, category: .stillImageTime,
        confidence: .high, evidence: [.specification(Evidence.quickTimeMetadata), .measured(Evidence.samples)],
        rationale: "The track declares the key but no sample holds it (an empty track, an unreadable sample, or a sample using another local key id), so Photos finds no moment.",
        fix: "Rewrite the track with one sample: `lpcheck repair`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, !facts.stillImageTimeTracks.isEmpty, facts.stillImageTime == nil else { return [] }
        let track = facts.stillImageTimeTracks[0]
        if let error = track.readError {
            return [finding("The still-image-time sample of track \(track.trackID) cannot be read: \(error.message).", movie, offset: error.offset)]
        }
        if track.sampleCount == 0 {
            return [finding("Track \(track.trackID) declares still-image-time but has no samples.", movie)]
        }
        return [finding("No sample of track \(track.trackID) holds the still-image-time key.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("empty track", Example.pair(movie: Example.movie { $0.stillImageTimeTracks[0].sampleCount = 0; $0.stillImageTime = nil })),
        .passes("camera pair", Example.pair()),
    ]
}
