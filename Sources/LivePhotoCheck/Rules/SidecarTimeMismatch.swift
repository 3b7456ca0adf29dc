/// A sidecar (Google Takeout `.json`, `.xmp`) states another capture time than its file.
enum SidecarTimeMismatch: Rule {
    static let description = RuleDescription(
        identifier: "sidecar-time-mismatch", title: "A sidecar gives another capture time than its file", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.practitioners("GooglePhotosTakeoutHelper #378, #311"), .specification("Adobe XMP Specification Part 2 (exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate)")],
        rationale: "Google Takeout writes each photo's `photoTakenTime` (Unix seconds, UTC) into a `.json` beside it; Google Photos Takeout Helper takes the date of the files it exports from there (GooglePhotosTakeoutHelper #378), and users report Takeout files whose own dates differ from their JSON (#311). XMP sidecars (written by Lightroom, darktable, digiKam) carry `exif:DateTimeOriginal`, `photoshop:DateCreated` or `xmp:CreateDate`. When sidecar and file disagree, a library dates the photo by whichever its importer trusts. Compared with the still's DateTimeOriginal (+ SubSecTimeOriginal, OffsetTimeOriginal), else the movie's creationdate key: Takeout's whole seconds and a writer's rounding are allowed 2 s; with one side's zone unknown, only what no whole number of quarter hours up to 14 h explains is reported.",
        fix: "Decide which date is right: correct the file (ExifTool `-DateTimeOriginal=`, or `lpcheck repair --align-dates` for the movie of a pair) or the sidecar, or remove a stale sidecar.")

    /// Takeout's timestamps are whole seconds, a file's may carry a fraction.
    static let window: ClosedRange<Double> = -2...2

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard !item.sidecarTimes.isEmpty else { return [] }
        guard let file = item.still?.capture?.time != nil ? item.still : item.movie?.capture?.time != nil ? item.movie : nil,
              let fileTime = file.capture?.time else { return [] }
        return item.sidecarTimes.compactMap { sidecar in
            guard case .differ(let delta) = CaptureAgreement.compare(still: fileTime, movie: sidecar.time, window: window) else { return nil }
            let zones = fileTime.offset == nil || sidecar.time.offset == nil ? " (modulo any zone, as one side names none)" : ""
            return finding("The sidecar \(sidecar.path) gives \(sidecar.time.text) (\(sidecar.time.source)), \(CaptureAgreement.span(delta))\(zones) \(CaptureAgreement.movieSide(delta)) the \(file.isStill ? "still" : "movie")'s \(fileTime.source) (\(fileTime.text)): importers that trust the sidecar date the photo otherwise than those that read the file.", file)
        }
    }

    static func sidecar(_ time: CaptureTime) -> CheckItem {
        var item = Example.capturePair()
        item.sidecars = ["IMG_0001.HEIC.json"]
        item.sidecarTimes = [CheckItem.SidecarTime(path: "IMG_0001.HEIC.json", time: time)]
        return item
    }

    /// The example still's instant (2025-10-12 23:36:14.753 +13:00) in UTC, whole seconds.
    static let takeout = CaptureTime(source: "Takeout photoTakenTime", clock: 1_760_265_374, offset: 0)

    static let examples: [RuleExample] = [
        .triggers("Takeout time a day later", sidecar(CaptureTime(source: takeout.source, clock: takeout.clock + 86_400, offset: 0))),
        .triggers("XMP date an hour and 7 minutes early, no zone", sidecar(CaptureTime(source: "XMP exif:DateTimeOriginal", clock: 1_760_312_174 - 4_020, offset: nil))),
        .passes("Takeout time: the still's instant in UTC", sidecar(takeout)),
        .passes("XMP date without a zone: the still's clock", sidecar(CaptureTime(source: "XMP exif:DateTimeOriginal", clock: 1_760_312_174, offset: nil))),
        .passes("no sidecar", Example.capturePair()),
    ]
}
