import LivePhotoFormats

/// A motion photo whose movie runs past the end of the file.
enum MotionPhotoVideoTruncated: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-video-truncated", title: "Motion photo movie is cut short", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.specification(Evidence.isoBMFF), .fileContent("a top-level box claims more bytes than the file holds")],
        rationale: "The movie inside the motion photo starts (its ftyp box is there), but one of its top-level boxes, usually mdat, claims more bytes than the file (or the mpvd box) has: the file was cut short in a transfer, and the movie's frames are partly gone.",
        fix: "Copy the file again from its source.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let cut = motion.movieCutShort else { return [] }
        return [finding("The embedded movie is cut short: \(cut).", still, offset: motion.movieRange?.upperBound)]
    }

    static let examples: [RuleExample] = [
        .triggers("mdat past the end", Example.motionPhotoItem { $0.movieCutShort = "box 'mdat' at byte 134000 claims 9000 bytes, but the file ends 6312 bytes after its start" }),
        .passes("whole movie", Example.motionPhotoItem()),
    ]
}
