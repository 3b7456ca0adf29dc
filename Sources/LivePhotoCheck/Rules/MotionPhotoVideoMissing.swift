/// A motion photo whose XMP points at a movie that is not there.
enum MotionPhotoVideoMissing: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-video-missing", title: "Motion photo without its embedded movie", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.reference(Evidence.readerJPEG), .reference(Evidence.readerHEIF), .specification(Evidence.motionPhotoFormat), .checker(Evidence.checker)],
        rationale: "The XMP (GCamera:MotionPhoto or MicroVideo, Container:Directory) says a movie is appended to the still, but no movie starts at the offset it gives: the movie was cut off or the offsets are wrong. Google's reader takes a JPEG's movie from the end of the file (the MotionPhoto item's Item:Length) and a HEIF file's from its top-level mpvd box: with no movie there, it has none to play.",
        fix: "Re-export the motion photo, or fix Item:Length / MicroVideoOffset to the appended movie's length. When the movie was split off on purpose (kept as its own file), remove the stale motion-photo XMP instead (GCamera:MotionPhoto*, GCamera:MicroVideo*, Container:Directory; for example `exiftool -XMP-GCamera:all= -XMP-Container:all= FILE`), so that no reader looks for a movie that is not there.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // A movie found elsewhere (a stale directory) is motion-photo-directory-mismatch's; an empty mpvd is motion-photo-mpvd-empty's.
        guard let still = item.still, let motion = still.motionPhoto, motion.movieRange == nil, !MotionPhotoMpvdEmpty.isEmpty(motion) else { return [] }
        guard let offset = motion.videoOffset else {
            return [finding("The XMP marks a motion photo (\(motion.source)) but gives no movie length or offset.", still)]
        }
        if still.format.isHEIFFamily && motion.mpvd == nil && motion.source == .container {
            return [finding("Google's reader takes a HEIF motion photo's movie from its top-level mpvd box, and this file has none; the directory places the movie at byte \(offset), where no movie starts either.", still, offset: min(max(0, offset), still.size))]
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
