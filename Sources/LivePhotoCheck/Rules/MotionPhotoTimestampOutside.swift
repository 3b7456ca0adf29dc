import LivePhotoFormats

/// A presentation timestamp that no frame of the movie is shown at.
enum MotionPhotoTimestampOutside: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-timestamp-outside", title: "Motion photo timestamp is on no frame", severity: .warning, category: .motionPhoto,
        confidence: .medium, evidence: [.specification(Evidence.motionPhotoFormat)],
        rationale: "GCamera:MotionPhotoPresentationTimestampUs is the presentation time, in microseconds, of the movie frame the still was taken from; -1 means unspecified (players then use the frame just before the middle). A time before the first frame or after the last one points at no frame, and players and converters fall back to a guess.",
        fix: "Set MotionPhotoPresentationTimestampUs to the still's frame, or -1.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let timestamp = still.motionPhoto?.presentationTimestampUs, timestamp >= 0,
              let movie = still.motionMovie, let first = movie.frames.first, let last = movie.frames.last else { return [] }
        let seconds = Double(timestamp) / 1_000_000
        guard seconds < first.start - 1e-6 || seconds >= last.end - 1e-6 else { return [] }
        let samsung = MotionPhotoSamsungLayout.recognized(still) != nil || still.motionPhoto?.samsungTrailer != nil
            ? " Samsung's cameras are reported to write such times (an S22 Ultra: 2.99 s against frames to 2.93 s): in a file of Samsung's layout this is what the camera wrote, not damage." : ""
        return [finding("The presentation timestamp \(timestamp) µs (\(SecondsText.format(seconds)) s) is on no frame: the movie's frames are shown from \(SecondsText.format(first.start)) s to \(SecondsText.format(last.end)) s." + samsung, still)]
    }

    static let examples: [RuleExample] = [
        .triggers("timestamp after the movie", Example.motionPhotoItem { $0.presentationTimestampUs = 5_000_000 }),
        .passes("timestamp on a frame", Example.motionPhotoItem { $0.presentationTimestampUs = 1_000_000 }),
        .passes("unspecified", Example.motionPhotoItem { $0.presentationTimestampUs = -1 }),
    ]
}
