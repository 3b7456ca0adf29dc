import LivePhotoFormats

/// The still and the movie show pictures of different shapes: a cropped or edited still, or
/// another capture.
enum PictureAspectMismatch: Rule {
    static let description = RuleDescription(
        identifier: "picture-aspect-mismatch", title: "Still and movie pictures of different shapes", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (4:3 stills with 4:3 movies)"), .practitioners("photoprism #5013 (edited stills beside original movies)")],
        rationale: "A camera records the still and the movie at one aspect: 4032×3024 or 5712×4284 stills go with 1440×1080 or 1920×1440 movies (4:3, every camera pair in ../shared/samples). A still of another shape (more than 3% apart, as shown) was cropped or edited after the capture, or belongs to another one; the movie then shows more or less than the photo. Generated pairs may crop on purpose, so this is a warning, not an error.",
        fix: "Pair the original still with its movie, or crop the movie to the still (which re-encodes it).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let a = item.still?.capture, let b = item.movie?.capture,
              let stillShown = a.displayedSize, let movieShown = b.displayedSize else { return [] }
        let stillShape = CaptureAgreement.shape(stillShown), movieShape = CaptureAgreement.shape(movieShown)
        // Portrait against landscape is orientation-mismatch's.
        guard stillShape == movieShape || stillShape == .square || movieShape == .square else { return [] }
        let stillRatio = Double(stillShown.width) / Double(stillShown.height), movieRatio = Double(movieShown.width) / Double(movieShown.height)
        guard abs(stillRatio - movieRatio) / movieRatio > CaptureAgreement.aspectTolerance else { return [] }
        let how = item.still?.format == .jpeg ? "EXIF Orientation" : "irot"
        return [finding("The still is shown at \(CaptureAgreement.shown(a, by: how)) (\(SecondsText.format(stillRatio, decimals: 3)):1), the movie at \(CaptureAgreement.shown(b, by: "the track matrix")) (\(SecondsText.format(movieRatio, decimals: 3)):1): a cropped or edited still, or one of another capture.", item.still)]
    }

    static let examples: [RuleExample] = [
        .triggers("square crop of the still", Example.capturePair(still: { $0.size = PixelSize(width: 4284, height: 4284) })),
        .triggers("16:9 movie beside a 4:3 still", Example.capturePair(movie: { $0.size = PixelSize(width: 1920, height: 1080) })),
        .passes("camera pair (4:3 both)", Example.capturePair()),
        .passes("portrait against landscape (orientation-mismatch)", Example.capturePair(movie: { $0.quarterTurns = 0 })),
    ]
}
