import LivePhotoFormats

/// A JPEG motion photo whose image, padding and movie length do not add up to the file.
enum MotionPhotoSizeSum: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-size-sum", title: "Motion photo sizes do not add up", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " (CheckContainerMetadataAndSizes)"), .specification(Evidence.motionPhotoFormat)],
        rationale: "Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckContainerMetadataAndSizes) requires a JPEG's size to equal the image's size (up to its EOI, or a second JPEG's right after it) plus the primary's Item:Padding plus the movie's Item:Length. Vendor data between the image and the movie (Pixel's aecDebug block) must be counted in Padding, bytes after the movie must not be there.",
        fix: "Set the primary's Item:Padding to the bytes between the image and the movie and the movie's Item:Length to its size, with the movie last (`lpcheck convert` writes them so).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, still.format == .jpeg, let motion = still.motionPhoto, let imageEnd = motion.imageEnd,
              let movie = motion.movieRange, motion.directory.count >= 2, let length = motion.directory.last?.length else { return [] }
        let padding = motion.directory[0].padding ?? 0
        // The checker adds magnitudes; each is held below 2^52 (the image end is below 2^50), so the sum cannot overflow.
        func bounded(_ value: Int64) -> Int64 { Int64(min(value.magnitude, 1 << 52)) }
        let total = imageEnd + bounded(padding) + bounded(length)
        guard total != still.size else { return [] }
        var parts = ["the image ends at byte \(imageEnd) (after the last EOI marker, FF D9, in the 64 KiB before the movie)"]
        let gap = movie.lowerBound - imageEnd
        parts.append(gap == padding ? "Item:Padding \(padding) covers the \(gap) bytes up to the movie"
                                    : "Item:Padding is \(padding), but \(gap) bytes lie between the image's end and the movie at byte \(movie.lowerBound)")
        parts.append(length == Int64(movie.count) ? "Item:Length \(length) is the movie's size" : "Item:Length is \(length), but the movie is \(movie.count) bytes")
        if movie.upperBound < still.size { parts.append("\(still.size - movie.upperBound) bytes follow the movie") }
        return [finding("Image end + Padding + Length is \(total), not the file's \(still.size) bytes: " + parts.joined(separator: "; ") + ".", still, offset: imageEnd)]
    }

    /// Whether Google's checker sums this motion photo's sizes, here (a JPEG whose image end was
    /// found, with a directory of two items or more) or in motion-photo-mpvd-mismatch (a HEIF file
    /// declared by GCamera:MotionPhoto): the warnings on the same numbers then stay silent.
    static func summed(_ still: FileFacts) -> Bool {
        guard let motion = still.motionPhoto else { return false }
        if still.format == .jpeg { return motion.imageEnd != nil && motion.directory.count >= 2 && motion.directory.last?.length != nil }
        return still.format.isHEIFFamily && motion.cameraMotionPhoto != nil
    }

    static let examples: [RuleExample] = [
        .triggers("padding does not cover vendor data", Example.motionPhotoItem { $0.imageEnd = 106_826 }),
        .triggers("length wrong", Example.motionPhotoItem { motion in
            motion.imageEnd = 131_582
            motion.directory[1].fields["Length"] = "9000"
        }),
        .passes("adds up", Example.motionPhotoItem { $0.imageEnd = 131_582 }),
    ]
}
