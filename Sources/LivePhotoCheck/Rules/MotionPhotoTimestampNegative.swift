import LivePhotoFormats

/// A negative presentation timestamp other than -1.
enum MotionPhotoTimestampNegative: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-timestamp-negative", title: "Motion photo timestamp is negative", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker), .specification(Evidence.motionPhotoFormat)],
        rationale: "GCamera:MotionPhotoPresentationTimestampUs is a frame time in microseconds, or -1 for unspecified (Motion Photo 1.0). Any other negative value is neither; Google's checker (libmotionphoto, motion_photo_checker.cc) rejects every negative value.",
        fix: "Write the still's frame time, or -1.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let timestamp = motion.presentationTimestampUs, timestamp < -1 else { return [] }
        return [finding("GCamera:MotionPhotoPresentationTimestampUs is \(timestamp): no frame time, and not -1 (unspecified).", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("negative", Example.motionPhotoItem { $0.presentationTimestampUs = -5 }),
        .passes("-1", Example.motionPhotoItem { $0.presentationTimestampUs = -1 }),
        .passes("a frame", Example.motionPhotoItem()),
    ]
}
