/// A movie without a Keys creation date whose `mvhd` time is far from the still's capture.
enum MovieHeaderTimeMismatch: FixableRule {
    static let fixKind = FixKind.captureTime

    static let description = RuleDescription(
        identifier: "movie-header-time-mismatch", title: "Movie header time far from the still's capture", severity: .info, category: .agreement,
        confidence: .low, evidence: [.measured(Evidence.samples + " (mvhd 4 min 36 s off in IMG_3853.MOV)"), .specification("Apple, QuickTime File Format Specification: movie header atom")],
        rationale: "Without a `com.apple.quicktime.creationdate` key, the movie's only date is `mvhd`'s creation time (UTC). It is a weak witness: in unedited camera files it agrees within seconds, yet IMG_3853.MOV's is 4 min 36 s after its still, and exports rewrite it. So only more than 10 minutes (with the still's zone known) or more than any zone explains (without it) is said, and only as information.",
        fix: "`lpcheck repair --align-dates` gives the movie a `com.apple.quicktime.creationdate` key and header times of the still's capture instant.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let capture = item.movie?.capture, capture.time == nil, let header = capture.headerTime,
              let stillTime = item.still?.capture?.time else { return [] }
        let headerTime = CaptureTime(source: "mvhd", clock: header, offset: 0)
        guard case .differ(let delta) = CaptureAgreement.compare(still: stillTime, movie: headerTime, window: CaptureAgreement.headerWindow) else { return [] }
        let zones = stillTime.offset == nil ? " (modulo any zone, as the still names none)" : ""
        return [finding("The movie has no creationdate key; its mvhd creation time is \(CaptureAgreement.span(delta))\(zones) \(CaptureAgreement.movieSide(delta)) the still's \(stillTime.source) (\(stillTime.text)). mvhd is rewritten by exports, so this may be harmless.", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("no Keys date, mvhd a day later", Example.capturePair(movie: { $0.time = nil; $0.headerTime = ($0.headerTime ?? 0) + 86_400 })),
        .passes("no Keys date, mvhd 4 min 36 s after (as IMG_3853.MOV)", Example.capturePair(movie: { $0.time = nil; $0.headerTime = ($0.headerTime ?? 0) + 276 })),
        .passes("no zone on the still, mvhd 9 h off (henteko test.mov)", Example.capturePair(still: { $0.time?.offset = nil }, movie: { $0.time = nil; $0.headerTime = ($0.headerTime ?? 0) + 14_400 })),
        .passes("a Keys date (capture-time-mismatch decides)", Example.capturePair(movie: { $0.headerTime = ($0.headerTime ?? 0) + 86_400 })),
    ]
}
