/// A motion photo whose XMP points at a movie that is not there.
enum MotionPhotoVideoMissing: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-video-missing", title: "Motion photo without its embedded movie", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.specification(Evidence.motionPhotoFormat), .reference(Evidence.checker)],
        rationale: "The XMP (GCamera:MotionPhoto or MicroVideo, Container:Directory) says a movie is appended to the still, but no movie starts at the offset it gives: the movie was cut off or the offsets are wrong.",
        fix: "Re-export the motion photo, or fix Item:Length / MicroVideoOffset to the appended movie's length. When the movie was split off on purpose (kept as its own file), remove the stale motion-photo XMP instead (GCamera:MotionPhoto*, GCamera:MicroVideo*, Container:Directory; for example `exiftool -XMP-GCamera:all= -XMP-Container:all= FILE`), so that no reader looks for a movie that is not there.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // A movie found elsewhere (a stale directory) is motion-photo-directory-mismatch's; an empty mpvd is motion-photo-mpvd-empty's.
        guard let still = item.still, let motion = still.motionPhoto, motion.movieRange == nil, !MotionPhotoMpvdEmpty.isEmpty(motion) else { return [] }
        guard let offset = motion.videoOffset else {
            return [finding("The XMP marks a motion photo (\(motion.source)) but gives no movie length or offset.", still)]
        }
        return [finding("The XMP (\(motion.source)) places the movie at byte \(offset)\(motion.videoLength.map { ", \($0) bytes long" } ?? ""), but no movie starts there.", still, offset: min(max(0, offset), still.size))]
    }

    static let examples: [RuleExample] = [
        .triggers("video removed", {
            var still = Example.still("PXL.MP.jpg", identifier: nil)
            still.motionPhoto = Example.motionPhoto(found: false)
            return CheckItem(kind: .motionPhoto, still: still)
        }()),
        .passes("video present", {
            var still = Example.still("PXL.MP.jpg", identifier: nil)
            still.motionPhoto = Example.motionPhoto(found: true)
            return CheckItem(kind: .motionPhoto, still: still)
        }()),
    ]
}
