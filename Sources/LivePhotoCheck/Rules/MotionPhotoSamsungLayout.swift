import LivePhotoFormats

/// A Samsung Galaxy HEIF motion photo as its camera writes it: the movie in the mpvd box, a SEF
/// trailer at the end, and a directory whose numbers describe Samsung's layout rather than the
/// movie. Reported as what these cameras write, not as damage.
enum MotionPhotoSamsungLayout: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-samsung-layout", title: "Samsung's HEIF motion-photo layout", severity: .info, category: .motionPhoto,
        confidence: .high,
        evidence: [.reference(Evidence.readerHEIF),
                   .measured("Galaxy S22 (SM-S901U1), S22+ (SM-S906U, One UI 6) and S23 Ultra originals in ../shared/samples: the directory's MotionPhoto Item:Length is 80 and 128 (the last bytes of the SEF records) or counts the mpvd payload with the sefd box after it; Google Photos plays motion photos from Samsung phones"),
                   .checker(Evidence.checker + " (CheckMpvdBox, CheckContainerMetadata)")],
        targets: [],
        rationale: "Samsung's cameras put the movie in a top-level mpvd box and end the file with SEF records (Samsung's trailer; on One UI 6 in a sefd box after the mpvd box). Their Container:Directory does not describe the movie the way Motion Photo 1.0 does: the MotionPhoto item's Item:Length is the length of the last SEF records, or the mpvd payload with the sefd box, and the primary's Item:Padding is 67, or its Item:Length the bytes before the mpvd box. Google's checker (motion_photo_checker.cc) rejects those numbers; Google's reader does not read them in a HEIF file: it takes the movie from the mpvd box. A file of this layout whose mpvd box holds the whole movie is what the camera wrote, and it plays; motion-photo-mpvd-mismatch, motion-photo-directory-invalid and motion-photo-locators-disagree leave its directory to this rule.",
        fix: "Nothing: this is how Samsung's cameras write motion photos. `lpcheck convert --to motion-photo` writes a file that also satisfies Google's checker, when one is needed.")

    /// Samsung's HEIF layout: a HEIF still whose movie is whole in its mpvd box, with a Samsung
    /// SEF trailer at the end of the file.
    static func recognized(_ still: FileFacts) -> (motion: MotionPhoto, mpvd: Range<Int64>, trailer: Range<Int64>, movie: Range<Int64>)? {
        guard still.format.isHEIFFamily, let motion = still.motionPhoto, let mpvd = motion.mpvd, let trailer = motion.samsungTrailer,
              let movie = motion.movieRange, movie.lowerBound > mpvd.lowerBound, movie.lowerBound - mpvd.lowerBound <= 16,
              movie.upperBound <= mpvd.upperBound, motion.movieCutShort == nil, trailer.upperBound == still.size else { return nil }
        return (motion, mpvd, trailer, movie)
    }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let layout = recognized(still) else { return [] }
        let motion = layout.motion
        var problems = MotionPhotoDirectoryInvalid.problems(motion)
        problems += MotionPhotoMpvdMismatch.problems(still, motion: motion, mpvd: layout.mpvd)
        let model = still.model.map { " (\($0))" } ?? ""
        var said = "Samsung's layout\(model): the movie is the mpvd box's payload (\(layout.movie.count) bytes at \(layout.movie.lowerBound)), and the file ends with Samsung's SEF records (\(layout.trailer.count) bytes at \(layout.trailer.lowerBound))"
        if let length = motion.directory.count >= 2 ? motion.directory.last?.length : nil, length > 0, length <= still.size {
            let start = still.size - length
            if start >= layout.trailer.lowerBound {
                said += "; the directory's MotionPhoto Item:Length \(length) counts the last \(length) bytes of those records, not the movie"
            } else if start == layout.movie.lowerBound {
                said += "; the directory's MotionPhoto Item:Length \(length) counts the movie and the SEF records after it"
            }
        }
        if !problems.isEmpty { said += ". Google's checker rejects it: " + problems.joined(separator: "; ") }
        said += ". Google's reader takes the movie from the mpvd box, where it is whole: this is what Samsung's cameras write, not damage."
        return [finding(said, still, offset: layout.mpvd.lowerBound)]
    }

    static let examples: [RuleExample] = [
        .triggers("mpvd to the end, SEF records inside it, the directory's Length theirs", samsungItem(sefd: false)),
        .triggers("One UI 6: a sefd box after the mpvd box", samsungItem(sefd: true)),
        .passes("a HEIC motion photo with no Samsung trailer", Example.heicMotionPhotoItem(padding: 8)),
        .passes("Samsung's trailer, but the movie cut short", {
            var item = samsungItem(sefd: false)
            item.still?.motionPhoto?.movieCutShort = "box 'mdat' claims 9000 bytes"
            return item
        }()),
    ]

    /// A Samsung HEIC motion photo of 140,312 bytes: the mpvd box from 131,574, the movie from
    /// 131,582, and 68 bytes of SEF records at the end (inside the mpvd box, or a sefd box after it).
    static func samsungItem(sefd: Bool) -> CheckItem {
        var item = Example.heicMotionPhotoItem(padding: 67)
        item.still?.motionPhoto?.samsungTrailer = 140_244..<140_312
        item.still?.motionPhoto?.movieRange = 131_582..<140_244
        item.still?.motionPhoto?.mpvd = sefd ? 131_574..<140_244 : 131_574..<140_312
        item.still?.motionPhoto?.directory[1].fields["Length"] = sefd ? "8730" : "68"
        return item
    }
}
