import LivePhotoFormats

/// A QuickTime movie embedded where Motion Photo 1.0 expects MP4.
enum MotionPhotoMovieQuickTime: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-movie-quicktime", title: "Motion photo movie is QuickTime, not MP4", severity: .warning, category: .motionPhoto,
        confidence: .medium, evidence: [.specification(Evidence.motionPhotoFormat + " (Item:Mime video/mp4)"), .checker(Evidence.checker)],
        rationale: "Motion Photo 1.0 embeds an MP4 (Item:Mime video/mp4): ISO brands, AAC audio, no Apple timed metadata. A Live Photo's QuickTime movie appended as it is (brand 'qt  ', often PCM audio and 'mebx' tracks) is labelled video/mp4 but is not one; players built for MP4 may refuse its audio or the whole movie.",
        fix: "Rewrite the movie as MP4 without re-encoding (`lpcheck convert --to motion-photo` does).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, still.motionPhoto != nil, let movie = still.motionMovie, movie.brand == "qt  " else { return [] }
        return [finding("The embedded movie's brand is 'qt  ' (QuickTime), not an MP4 brand\(movie.timedMetadataTrackCount > 0 ? ", with \(Plural.count(movie.timedMetadataTrackCount, "Apple timed-metadata (mebx) track"))" : "").", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("a Live Photo movie appended as it is", Example.motionPhotoItem(video: 1, metadata: 3, brand: "qt  ")),
        .passes("MP4", Example.motionPhotoItem(video: 1, brand: "mp42")),
    ]
}
