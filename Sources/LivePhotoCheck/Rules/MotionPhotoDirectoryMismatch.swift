import LivePhotoFormats

/// A Motion Photo 1.0 directory that disagrees with the file it describes.
enum MotionPhotoDirectoryMismatch: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-directory-mismatch", title: "Motion photo directory disagrees with the file", severity: .warning, category: "motion-photo",
        rationale: "Motion Photo 1.0 (Container:Directory) lists the primary image first (Item:Length 0; Item:Padding only on it: 0 in JPEG, the mpvd header size in HEIC) and the MotionPhoto item last, its Item:Length the movie's bytes counted from the end of the file. Readers find the movie from these numbers: when they are stale (the still was re-compressed after export) or wrong, players show no motion.",
        fix: "Re-export the motion photo, or convert it (lpcheck convert finds the movie by its own boxes).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let movie = motion.movieRange else { return [] }
        var problems: [String] = []
        if motion.foundBy == "ftyp search", let offset = motion.videoOffset {
            problems.append("the XMP places the movie at byte \(offset), but it starts at byte \(movie.lowerBound) (found by its ftyp box): the directory is stale")
        } else if motion.foundBy == "ftyp search" && !motion.directory.isEmpty {
            problems.append("the directory's lengths add up to more than the file; the movie starts at byte \(movie.lowerBound) (found by its ftyp box)")
        }
        let directory = motion.directory
        if motion.source == "Container" && directory.isEmpty && motion.videoOffset == nil {
            problems.append("GCamera:MotionPhoto is 1 but the XMP has no directory item nor offset for the movie; it was found \(motion.foundBy == "ftyp search" ? "by its ftyp box" : "in the \(motion.foundBy ?? "file")")")
        }
        if let first = directory.first {
            if first.semantic != "Primary" { problems.append("the first directory item is \(first.semantic ?? "unnamed"), not Primary") }
            if let length = first.length, length != 0 { problems.append("the Primary item's Item:Length is \(length), not 0") }
            let padding = motion.mpvd.map { Int64(min(movie.lowerBound - $0.lowerBound, 16)) } ?? 0
            if (first.padding ?? 0) != padding {
                problems.append("the Primary item's Item:Padding is \(first.padding ?? 0), but \(padding) bytes\(motion.mpvd != nil ? " (the mpvd header)" : "") come before the movie")
            }
        }
        for (index, entry) in directory.enumerated().dropFirst() where (entry.padding ?? 0) != 0 {
            problems.append("item \(index + 1) (\(entry.semantic ?? entry.mime ?? "unnamed")) has Item:Padding \(entry.padding ?? 0); only the primary may")
        }
        if let index = directory.firstIndex(where: { ($0.mime ?? "").hasPrefix("video/") || $0.semantic == "MotionPhoto" }) {
            if index != directory.count - 1 { problems.append("the MotionPhoto item is item \(index + 1) of \(directory.count), not the last") }
            if let length = directory[index].length, length != Int64(movie.count) {
                problems.append("the MotionPhoto item's Item:Length is \(length), but the movie is \(movie.count) bytes")
            }
        } else if !directory.isEmpty {
            problems.append("the directory has no MotionPhoto item")
        }
        guard !problems.isEmpty else { return [] }
        return [finding("The motion photo's XMP directory disagrees with the file: " + problems.joined(separator: "; ") + ".", still, offset: movie.lowerBound)]
    }

    static let examples: [RuleExample] = [
        .triggers("stale directory after re-compression", Example.motionPhotoItem { motion in
            (motion.videoFound, motion.foundBy, motion.movieRange) = (false, "ftyp search", 120_000..<128_730)
        }),
        .triggers("movie length wrong", Example.motionPhotoItem { motion in
            motion.directory[1].fields["Length"] = "9000"
        }),
        .triggers("MotionPhoto=1 without a directory (Samsung)", Example.motionPhotoItem { motion in
            (motion.directory, motion.videoOffset, motion.videoLength, motion.videoFound, motion.foundBy) = ([], nil, nil, false, "Samsung trailer")
        }),
        .passes("Pixel directory", Example.motionPhotoItem()),
    ]
}
