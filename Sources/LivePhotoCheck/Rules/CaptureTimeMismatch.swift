/// The movie's creation date is another moment than the still's capture.
enum CaptureTimeMismatch: FixableRule {
    static let fixKind = FixKind.captureTime

    static let description = RuleDescription(
        identifier: "capture-time-mismatch", title: "Still and movie give different capture times", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (Keys date 0-2 s before the still)"), .practitioners("immich-app/immich #4375, #14459; icloudpd #1065")],
        rationale: "In every camera pair the movie's `com.apple.quicktime.creationdate` key is 0–2 s before the still's DateTimeOriginal + SubSecTimeOriginal, in the still's OffsetTimeOriginal zone (measured on the iPhone pairs in ../shared/samples). A movie dated another moment was written by a tool that stamped it anew, or belongs to another capture; photo libraries (Immich, iCloud exports) then show the two halves at different times. With one side's zone unknown, only a difference no whole number of quarter hours up to 14 h explains is reported.",
        fix: "`lpcheck repair --align-dates` writes the still's capture instant into the movie (its creationdate key and header times, nothing else), or pair the still with its own movie.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let stillTime = item.still?.capture?.time, let movieTime = item.movie?.capture?.time,
              case .differ(let delta) = CaptureAgreement.compare(still: stillTime, movie: movieTime, window: CaptureAgreement.window) else { return [] }
        let zones = stillTime.offset == nil || movieTime.offset == nil ? " (modulo any zone, as one side names none)" : ""
        return [finding("The movie's \(movieTime.source) (\(movieTime.text)) is \(CaptureAgreement.span(delta))\(zones) \(CaptureAgreement.movieSide(delta)) the still's \(stillTime.source) (\(stillTime.text)); camera pairs differ by 0–2 s, the movie first.", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie dated a day later", Example.capturePair(movie: { $0.time?.clock += 86_400 })),
        .triggers("movie a minute early", Example.capturePair(movie: { $0.time?.clock -= 60 })),
        .triggers("still without a zone, 7 min off any quarter hour", Example.capturePair(still: { $0.time?.offset = nil; $0.time?.clock += 420 })),
        .passes("camera pair", Example.capturePair()),
        .passes("still without a zone (its clock 13 h ahead of UTC), movie in +02:00", Example.capturePair(still: { $0.time?.offset = nil }, movie: { $0.time?.offset = 7_200; $0.time?.clock -= 39_600 })),
        .passes("same instant, other zone (capture-zone-mismatch)", Example.capturePair(movie: { $0.time?.offset = 3_600; $0.time?.clock -= 43_200 })),
        .passes("movie without a date", Example.capturePair(movie: { $0.time = nil })),
    ]
}
