import LivePhotoFormats

/// A Motion Photo 1.0 directory that disagrees with the file it describes.
enum MotionPhotoDirectoryMismatch: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-directory-mismatch", title: "Motion photo directory disagrees with the file", severity: .warning, category: .motionPhoto,
        confidence: .high, evidence: [.specification(Evidence.motionPhotoFormat)],
        rationale: "Motion Photo 1.0 (Container:Directory) gives the movie's Item:Length, its bytes counted from the end of the file, and the primary's Item:Padding, the bytes between the image and the movie (in HEIC the mpvd header). Readers find the movie from these numbers: when they are stale (the still was re-compressed after export) or wrong, players show no motion. Where Google's checker sums them (a JPEG whose image end is found, a HEIF mpvd box), motion-photo-size-sum and motion-photo-mpvd-mismatch report them instead.",
        fix: "Re-export the motion photo, or convert it (lpcheck convert finds the movie by its own boxes).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let movie = motion.movieRange else { return [] }
        var problems: [String] = []
        if motion.foundBy == .ftypSearch, let offset = motion.videoOffset {
            problems.append("the XMP places the movie at byte \(offset), but it starts at byte \(movie.lowerBound) (found by its ftyp box): the directory is stale")
        } else if motion.foundBy == .ftypSearch && !motion.directory.isEmpty {
            problems.append("the directory's lengths add up to more than the file; the movie starts at byte \(movie.lowerBound) (found by its ftyp box)")
        }
        let directory = motion.directory
        if motion.source == .container && directory.isEmpty && motion.videoOffset == nil {
            problems.append("GCamera:MotionPhoto is 1 but the XMP has no directory item nor offset for the movie; it was found \(motion.foundBy == .ftypSearch ? "by its ftyp box" : "in the \(motion.foundBy?.rawValue ?? "file")")")
        }
        // The directory's own shape is motion-photo-directory-invalid's. Its numbers against the
        // file are judged here only where Google's checker does not sum them: in a JPEG whose
        // image end was found, motion-photo-size-sum says which number is off; in a HEIF file,
        // motion-photo-mpvd-mismatch.
        let summed = MotionPhotoSizeSum.summed(still)
        if !summed, let first = directory.first, let mpvd = motion.mpvd {
            let header = movie.lowerBound - mpvd.lowerBound
            if (first.padding ?? 0) != header {
                problems.append("the Primary item's Item:Padding is \(first.padding ?? 0), but the mpvd header before the movie is \(header) bytes")
            }
        }
        if !summed, let index = directory.firstIndex(where: { ($0.mime ?? "").hasPrefix("video/") || $0.semantic == "MotionPhoto" }),
           let length = directory[index].length, length != Int64(movie.count) {
            problems.append("the MotionPhoto item's Item:Length is \(length), but the movie is \(movie.count) bytes")
        }
        guard !problems.isEmpty else { return [] }
        return [finding("The motion photo's XMP directory disagrees with the file: " + problems.joined(separator: "; ") + ".", still, offset: movie.lowerBound)]
    }

    static let examples: [RuleExample] = [
        .triggers("stale directory after re-compression", Example.motionPhotoItem { motion in
            (motion.videoFound, motion.foundBy, motion.movieRange) = (false, .ftypSearch, 120_000..<128_730)
        }),
        .triggers("movie length wrong", Example.motionPhotoItem { motion in
            motion.directory[1].fields["Length"] = "9000"
        }),
        .triggers("MotionPhoto=1 without a directory (Samsung)", Example.motionPhotoItem { motion in
            (motion.directory, motion.videoOffset, motion.videoLength, motion.videoFound, motion.foundBy) = ([], nil, nil, false, .samsungTrailer)
        }),
        .passes("Pixel directory", Example.motionPhotoItem()),
    ]
}
