/// The still was written by other software than its movie: edited or re-saved.
enum CaptureSoftwareMismatch: Rule {
    static let description = RuleDescription(
        identifier: "capture-software-mismatch", title: "Still and movie written by different software", severity: .info, category: .agreement,
        confidence: .low, evidence: [.measured(Evidence.samples + " (the same iOS version in still and movie)"), .practitioners("icloudpd #1100; osxphotos #486 (edited stills beside original movies)")],
        rationale: "In every camera pair the still's EXIF Software and the movie's `com.apple.quicktime.software` key name the same iOS version (../shared/samples). Other software in the still means it was edited or re-saved after the capture: the movie may show the original picture (an edited still beside the original movie).",
        fix: "If the edit should move too, export the pair again from the library that edited it; otherwise nothing.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let stillSoftware = item.still?.capture?.software, let movieSoftware = item.movie?.capture?.software,
              stillSoftware != movieSoftware, !stillSoftware.isEmpty, !movieSoftware.isEmpty, stillSoftware.lowercased() != movieSoftware.lowercased() else { return [] }
        return [finding("The still's EXIF Software is \"\(stillSoftware)\", the movie's software key \"\(movieSoftware)\": so the still was probably written again after the capture (edited or re-saved).", item.still)]
    }

    static let examples: [RuleExample] = [
        .triggers("still saved by an editor", Example.capturePair(still: { $0.software = "Adobe Photoshop Lightroom 6.0" })),
        .passes("camera pair", Example.capturePair()),
        .passes("movie without a software key", Example.capturePair(movie: { $0.software = nil })),
    ]
}
