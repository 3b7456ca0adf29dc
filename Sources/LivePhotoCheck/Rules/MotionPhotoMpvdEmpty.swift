import LivePhotoFormats

/// A HEIC motion photo whose `mpvd` box holds nothing.
enum MotionPhotoMpvdEmpty: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-mpvd-empty", title: "Motion photo mpvd box is empty", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.reference(Evidence.readerHEIF), .specification(Evidence.motionPhotoFormat), .checker(Evidence.checker)],
        rationale: "A HEIC motion photo keeps its movie in a top-level mpvd box (Motion Photo 1.0, HEIC). An mpvd of size 0 (or only a header) holds no movie: the motion is gone while the XMP still announces it.",
        fix: "Re-export the motion photo from the original.")

    static func isEmpty(_ motion: MotionPhoto) -> Bool { (motion.mpvd?.count ?? Int.max) <= 16 && motion.movieRange == nil }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, isEmpty(motion), let mpvd = motion.mpvd else { return [] }
        return [finding("The mpvd box at byte \(mpvd.lowerBound) is \(mpvd.count) bytes: it holds no movie.", still, offset: mpvd.lowerBound)]
    }

    static let examples: [RuleExample] = [
        .triggers("empty mpvd", Example.motionPhotoItem { motion in
            (motion.mpvd, motion.movieRange, motion.videoFound) = (140_304..<140_312, nil, false)
        }),
        .passes("mpvd with a movie", Example.motionPhotoItem { $0.mpvd = 131_574..<140_312 }),
    ]
}
