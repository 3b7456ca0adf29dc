import LivePhotoFormats

/// The movie is shown turned against its still: one portrait, the other landscape.
enum OrientationMismatch: Rule {
    static let description = RuleDescription(
        identifier: "orientation-mismatch", title: "Movie shown turned against its still", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples), .practitioners("immich-app/immich #5473, #15068; photoprism #3811 (movies played rotated)")],
        rationale: "Still and movie agree as shown: EXIF Orientation 6 (HEIF `irot`) goes with a track matrix of 90°, Orientation 1 with 0° (every camera pair in ../shared/samples). A web export bakes the rotation into the still's pixels, so raw flags may differ while the pictures agree; lpcheck compares the shown shapes. A portrait still beside a landscape movie (or the reverse) plays turned when the photo is pressed (immich #5473, photoprism #3811).",
        fix: "Give the movie's video track the matrix that shows it as the still is shown (no re-encode needed), or the still the orientation of its movie.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let a = item.still?.capture, let b = item.movie?.capture,
              let stillShown = a.displayedSize, let movieShown = b.displayedSize else { return [] }
        let stillShape = CaptureAgreement.shape(stillShown), movieShape = CaptureAgreement.shape(movieShown)
        guard stillShape != movieShape, stillShape != .square, movieShape != .square else { return [] }
        let how = item.still?.format == .jpeg ? "EXIF Orientation" : "irot"
        return [finding("The still is shown \(stillShape.rawValue) (\(CaptureAgreement.shown(a, by: how))) and the movie \(movieShape.rawValue) (\(CaptureAgreement.shown(b, by: "the track matrix"))): the movie plays turned against its still.", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie matrix 0° beside a portrait still", Example.capturePair(movie: { $0.quarterTurns = 0 })),
        .passes("camera pair (both turned 90°)", Example.capturePair()),
        .passes("rotation baked into the still's pixels", Example.capturePair(still: { $0.size = PixelSize(width: 4284, height: 5712); $0.quarterTurns = 0 })),
        .passes("a matrix that is not a quarter turn", Example.capturePair(movie: { $0.quarterTurns = nil })),
    ]
}
