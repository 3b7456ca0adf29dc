import LivePhotoFormats

/// Bytes after a motion photo's movie.
enum MotionPhotoVideoNotLast: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-video-not-last", title: "Motion photo movie is not at the end of the file", severity: .warning, category: .motionPhoto,
        confidence: .high, evidence: [.specification(Evidence.motionPhotoFormat), .checker(Evidence.checker)],
        rationale: "Motion Photo 1.0 puts the MotionPhoto item last with no byte after it (in HEIC, the mpvd box last): readers count the movie from the end of the file. A Samsung SEF trailer after the movie is Samsung's own layout and not reported.",
        fix: "Remove the bytes after the movie (lpcheck convert writes motion photos with the movie last).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // Where Google's checker sums the sizes, its rule says what follows the movie.
        guard let still = item.still, let motion = still.motionPhoto, let movie = motion.movieRange, !MotionPhotoSizeSum.summed(still) else { return [] }
        let end = motion.mpvd?.upperBound ?? movie.upperBound
        let limit = motion.samsungTrailer?.lowerBound ?? still.size
        guard end < limit else { return [] }
        return [finding("\(limit - end) bytes follow the movie (which ends at byte \(end)\(motion.mpvd != nil ? ", its mpvd box" : "")); Motion Photo 1.0 puts the movie last.", still, offset: end)]
    }

    static let examples: [RuleExample] = [
        .triggers("bytes after the movie", Example.motionPhotoItem { $0.movieRange = 131_582..<140_000 }),
        .passes("movie last", Example.motionPhotoItem()),
    ]
}
