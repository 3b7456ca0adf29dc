import LivePhotoFormats

/// An embedded movie whose tracks Google's checker rejects.
enum MotionPhotoVideoTracks: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-video-tracks", title: "Motion photo movie lacks the tracks Google's reader needs", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " (CheckVideoTrackData)")],
        rationale: "Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckVideoTrackData, with motion_photo_mp4_file_reader.cc) takes the first video track for the low-resolution one, which must be there, and a second video track for the high-resolution one, which needs a metadata track ('meta' handler, 'mett' entry of MIME type application/motionphoto-image-meta). A movie with one video track and no such metadata track (a converted Live Photo) passes.",
        fix: "Keep one video track, or give the second its motion-photo metadata track.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, still.motionPhoto != nil, let movie = still.motionMovie else { return [] }
        if movie.videoTrackCount == 0 {
            return [finding("The embedded movie has no video track: Google's checker finds no low-resolution video.", still)]
        }
        if movie.videoTrackCount >= 2, let kinds = movie.trackKinds, !kinds.motionPhotoMetadata {
            return [finding("The embedded movie has \(movie.videoTrackCount) video tracks but no motion-photo metadata track (mett, \(MovieFacts.TrackKinds.motionPhotoMetadataMime)): Google's checker requires one for the second, high-resolution video track.", still)]
        }
        return []
    }

    static let examples: [RuleExample] = [
        .triggers("high-res video without its metadata track", Example.motionPhotoItem(video: 2)),
        .triggers("no video", Example.motionPhotoItem(video: 0)),
        .passes("one video track", Example.motionPhotoItem(video: 1)),
        .passes("two video tracks and the metadata track", Example.motionPhotoItem(video: 2, metadata: 1, motionPhotoMetadata: true)),
    ]
}
