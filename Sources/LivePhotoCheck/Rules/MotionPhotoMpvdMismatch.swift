import LivePhotoFormats

/// A HEIF motion photo whose mpvd box Google's checker rejects (its letter: Google's reader takes
/// the movie from the mpvd box wherever it is and whatever the directory says).
enum MotionPhotoMpvdMismatch: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-mpvd-mismatch", title: "Motion photo mpvd box disagrees with the XMP", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " (CheckMpvdBox)"), .specification(Evidence.motionPhotoFormat)],
        rationale: "In HEIF the movie is in a top-level mpvd box. Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckMpvdBox) requires that box last (its start plus its size is the file's size), its payload as long as the movie's Item:Length, and its header (8 bytes, 16 with a 64-bit size) as long as the primary's Item:Padding. That is the checker's letter: Google's reader finds the mpvd box among the top-level boxes and takes its payload, reading neither number, so this rule decides the google-photos verdict at medium confidence. A file without an mpvd box is motion-photo-video-missing's; Samsung's layout, whose directory describes its SEF records, is motion-photo-samsung-layout's.",
        fix: "Put the movie in a top-level mpvd box at the end and write its sizes into the directory (`lpcheck convert` does).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // A HEIF file without an mpvd box has no movie for Google's reader: motion-photo-video-missing's.
        // Samsung's layout is motion-photo-samsung-layout's.
        guard let still = item.still, still.format.isHEIFFamily, let motion = still.motionPhoto, motion.cameraMotionPhoto != nil,
              let mpvd = motion.mpvd, MotionPhotoSamsungLayout.recognized(still) == nil else { return [] }
        let problems = self.problems(still, motion: motion, mpvd: mpvd)
        guard !problems.isEmpty else { return [] }
        let reader = motion.movieRange.map { " Google's reader takes the movie from the mpvd box all the same (\($0.count) bytes at \($0.lowerBound))." } ?? ""
        return [finding("Google's checker (CheckMpvdBox) rejects the mpvd box: " + problems.joined(separator: "; ") + "." + reader, still, offset: mpvd.lowerBound)]
    }

    /// What Google's checker finds wrong with the mpvd box against the file and the directory.
    static func problems(_ still: FileFacts, motion: MotionPhoto, mpvd: Range<Int64>) -> [String] {
        var problems: [String] = []
        if mpvd.upperBound != still.size { problems.append("the mpvd box (\(mpvd.count) bytes at \(mpvd.lowerBound)) ends at byte \(mpvd.upperBound), not at the file's end (\(still.size))") }
        let header = Int64(mpvd.count >= 16 && motion.movieRange.map { $0.lowerBound - mpvd.lowerBound == 16 } == true ? 16 : 8)
        let payload = Int64(mpvd.count) - header
        let movieItem = motion.directory.count >= 2 ? motion.directory.last : nil
        let length = movieItem?.length ?? 0
        if length != payload { problems.append("its payload is \(payload) bytes, but the movie's Item:Length is \(movieItem?.length.map(String.init) ?? "missing (0)")") }
        let padding = motion.directory.first?.padding ?? 0
        if padding != header { problems.append("its header is \(header) bytes, but the primary's Item:Padding is \(motion.directory.first?.padding.map(String.init) ?? "missing (0)")") }
        return problems
    }

    static let examples: [RuleExample] = [
        .triggers("padding is not the header", Example.heicMotionPhotoItem(padding: 41)),
        .passes("mpvd last, sizes written", Example.heicMotionPhotoItem(padding: 8)),
    ]
}
