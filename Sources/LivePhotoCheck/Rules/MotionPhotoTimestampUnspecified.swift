import LivePhotoFormats

/// A motion photo that does not say which frame the still is.
enum MotionPhotoTimestampUnspecified: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-timestamp-unspecified", title: "Motion photo does not say which frame is the still", severity: .warning, category: .motionPhoto,
        confidence: .medium, evidence: [.checker(Evidence.checker), .specification(Evidence.motionPhotoFormat + " (-1: unspecified)")],
        rationale: "GCamera:MotionPhotoPresentationTimestampUs gives the movie frame the still was taken from. Google's checker (libmotionphoto, motion_photo_checker.cc) warns when it is missing and rejects every negative value, -1 included; the Motion Photo 1.0 format page allows -1 for 'unspecified'. Either way players guess the frame (the one just before the middle).",
        fix: "Write the still's frame time in microseconds (`lpcheck convert` takes it from the Live Photo's still-image-time).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, motion.cameraMotionPhoto != nil else { return [] }
        switch motion.presentationTimestampUs {
        case nil:
            return [finding("GCamera:MotionPhotoPresentationTimestampUs is missing (or not a number): Google's checker warns, and players guess the still's frame.", still)]
        case -1:
            return [finding("GCamera:MotionPhotoPresentationTimestampUs is -1: the Motion Photo 1.0 format allows it for 'unspecified', Google's checker rejects it as negative.", still)]
        default:
            return []
        }
    }

    static let examples: [RuleExample] = [
        .triggers("missing", Example.motionPhotoItem { ($0.cameraMotionPhoto, $0.presentationTimestampUs) = ("1", nil) }),
        .triggers("-1", Example.motionPhotoItem { ($0.cameraMotionPhoto, $0.presentationTimestampUs) = ("1", -1) }),
        .passes("a frame", Example.motionPhotoItem { $0.cameraMotionPhoto = "1" }),
    ]
}
