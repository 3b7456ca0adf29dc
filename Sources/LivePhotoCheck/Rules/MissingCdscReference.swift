/// The still-image-time track does not describe the video track.
enum MissingCdscReference: FixableRule {
    static let fixKind = FixKind.cdscReference

    static let description = RuleDescription(
        identifier: "missing-cdsc-reference", title: "Timed-metadata track without cdsc reference", severity: .info, category: .structure,
        confidence: .low, evidence: [.measured(Evidence.samples + " (a cdsc reference in every camera movie)"), .specification(Evidence.isoBMFF + " §8.3.3 (track references)")],
        rationale: "Cameras link the still-image-time track to the video with a 'cdsc' track reference. Photos does not require it, but other readers use it to know which video the moment belongs to.",
        fix: "`lpcheck repair` rewrites the track with the reference.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let track = movie.movie?.stillImageTimeTracks.first, !track.referencesVideo else { return [] }
        return [finding("Track \(track.trackID) has no 'cdsc' reference to the video track: readers other than Photos may not know which video the moment belongs to.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("no tref", Example.pair(movie: Example.movie { $0.stillImageTimeTracks[0].referencesVideo = false })),
        .passes("camera pair", Example.pair()),
    ]
}
