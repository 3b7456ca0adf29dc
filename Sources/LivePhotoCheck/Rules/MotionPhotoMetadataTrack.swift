import LivePhotoFormats

/// A motion photo's own metadata track that disagrees with its XMP, or cannot be read.
enum MotionPhotoMetadataTrack: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-metadata-track", title: "Motion photo metadata track disagrees with the XMP", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " and video_metadata.h")],
        rationale: "A motion photo with a high-resolution video track has a metadata track (mett, application/motionphoto-image-meta) whose first sample scores frames (libmotionphoto, video_metadata.h). Google's checker (motion_photo_checker.cc, CheckVideoMetadata) requires that sample to decode, the primary image's frame time in it to equal GCamera:MotionPhotoPresentationTimestampUs (or to be -1 when the XMP gives none), and the high-resolution frame scores in ascending time.",
        fix: "Write the XMP timestamp the metadata track gives for the primary image (or the reverse), with the frame scores in time order.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let kinds = still.motionMovie?.trackKinds, kinds.motionPhotoMetadata else { return [] }
        if let error = kinds.metadataError {
            return [finding("The embedded movie's motion-photo metadata sample cannot be decoded: \(error).", still)]
        }
        var problems: [String] = []
        if motion.cameraMotionPhoto != nil, let frame = kinds.primaryFrameTimestampUs {
            let xmp = motion.presentationTimestampUs
            if let xmp, xmp != frame {
                problems.append("its primary image frame is at \(frame) µs, but GCamera:MotionPhotoPresentationTimestampUs is \(xmp)")
            } else if xmp == nil, frame != -1 {
                problems.append("its primary image frame is at \(frame) µs, but the XMP gives no GCamera:MotionPhotoPresentationTimestampUs (then it must be -1)")
            }
        }
        if let index = kinds.unsortedScoreIndex {
            problems.append("its high-resolution frame score \(index + 1) is earlier than the one before it")
        }
        guard !problems.isEmpty else { return [] }
        return [finding("The embedded movie's motion-photo metadata track disagrees: " + problems.joined(separator: "; ") + ".", still)]
    }

    static func item(primary: Int64?, unsorted: Int? = nil) -> CheckItem {
        var item = Example.motionPhotoItem(video: 2, metadata: 1, motionPhotoMetadata: true)
        item.still?.motionPhoto?.cameraMotionPhoto = "1"
        item.still?.motionMovie?.trackKinds?.primaryFrameTimestampUs = primary
        item.still?.motionMovie?.trackKinds?.unsortedScoreIndex = unsorted
        return item
    }

    static let examples: [RuleExample] = [
        .triggers("frame time differs from the XMP", item(primary: 33_333)),
        .triggers("scores out of order", item(primary: 0, unsorted: 2)),
        .passes("frame time as the XMP says", item(primary: 0)),
    ]
}
