/// The movie's creation date is the still's moment, written in another zone.
enum CaptureZoneMismatch: FixableRule {
    static let fixKind = FixKind.captureTime

    static let description = RuleDescription(
        identifier: "capture-zone-mismatch", title: "Movie dated in another time zone than the still", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (the still's zone in the Keys date)"), .practitioners("phockup PR #218; immich-app/immich #14459")],
        rationale: "The movie's `com.apple.quicktime.creationdate` carries the zone of the still's OffsetTimeOriginal in every camera pair measured (+01:00, +09:00, +13:00 in ../shared/samples). The same instant written in another zone is what converters and time-shift tools leave; apps that show local times show the movie at another hour than its still.",
        fix: "`lpcheck repair --align-dates` rewrites the movie's creation date in the still's zone.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let stillTime = item.still?.capture?.time, let movieTime = item.movie?.capture?.time,
              let stillZone = stillTime.offset, let movieZone = movieTime.offset,
              CaptureAgreement.compare(still: stillTime, movie: movieTime, window: CaptureAgreement.window) == .otherZone else { return [] }
        return [finding("The movie's \(movieTime.source) (\(movieTime.text)) is the still's moment in zone \(CaptureAgreement.zone(movieZone)); the still's \(stillTime.source) says \(CaptureAgreement.zone(stillZone)).", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("the still's moment written in UTC", Example.capturePair(movie: { $0.time?.offset = 0; $0.time?.clock -= 46_800 })),
        .passes("camera pair", Example.capturePair()),
        .passes("another moment (capture-time-mismatch)", Example.capturePair(movie: { $0.time?.offset = 0 })),
        .passes("movie without a zone", Example.capturePair(movie: { $0.time?.offset = nil })),
    ]
}
