import LivePhotoFormats

/// GCamera:MotionPhoto and its version as Google's checker requires them.
enum MotionPhotoVersion: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-version", title: "Motion photo flag or version is not 1", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " (CheckMotionPhotoCameraMetadata)"), .specification(Evidence.motionPhotoFormat)],
        rationale: "Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckMotionPhotoCameraMetadata) requires GCamera:MotionPhoto = 1 and GCamera:MotionPhotoVersion = 1 in the primary image's XMP; a file without them, or with other values, is not a Motion Photo 1.0 to Google's reader, whatever else finds its movie (an mpvd box, a Samsung trailer).",
        fix: "Set GCamera:MotionPhoto and GCamera:MotionPhotoVersion to 1 (`lpcheck convert` writes both).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // A MicroVideo file is motion-photo-microvideo-only's.
        guard let still = item.still, let motion = still.motionPhoto, motion.source != .microVideo else { return [] }
        var problems: [String] = []
        if let flag = motion.cameraMotionPhoto {
            if flag != "1" { problems.append("GCamera:MotionPhoto is '\(flag)', not 1") }
            if motion.source == .container {
                if let version = motion.version {
                    if version != "1" { problems.append("GCamera:MotionPhotoVersion is '\(version)', not 1") }
                } else {
                    problems.append("GCamera:MotionPhotoVersion is missing")
                }
            }
        } else {
            problems.append("the XMP Google's reader reads has no GCamera:MotionPhoto (the movie was found by \(motion.foundBy?.rawValue ?? motion.source.rawValue))")
        }
        guard !problems.isEmpty else { return [] }
        return [finding("Google's checker does not take this for a Motion Photo 1.0: " + problems.joined(separator: "; ") + ".", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("version 2", Example.motionPhotoItem { ($0.cameraMotionPhoto, $0.version) = ("1", "2") }),
        .triggers("mpvd box without motion-photo XMP", Example.motionPhotoItem { ($0.source, $0.foundBy, $0.cameraMotionPhoto) = (.mpvd, .mpvd, nil) }),
        .passes("Pixel", Example.motionPhotoItem { $0.cameraMotionPhoto = "1" }),
    ]
}
