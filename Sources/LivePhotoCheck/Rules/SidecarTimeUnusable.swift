/// A sidecar (Google Takeout `.json`, `.xmp`) states a capture time that is no time.
enum SidecarTimeUnusable: Rule {
    static let description = RuleDescription(
        identifier: "sidecar-time-unusable", title: "A sidecar's capture time cannot be used", severity: .info, category: .agreement,
        confidence: .high, evidence: [.fileContent("the sidecar's photoTakenTime.timestamp or XMP date, as written")],
        rationale: "A sidecar's date is compared with its file's (`sidecar-time-mismatch`) only when it is a time: Takeout's Unix seconds that are a number from 1900 to 9999, an XMP date in EXIF or ISO 8601 form in those years. One that is not (1e308, NaN, a year 10000 or 1899) is not compared: this says so, rather than leaving it out without a word.",
        fix: "Correct the sidecar's date, or remove the sidecar if its file's own date is right.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let file = item.still ?? item.movie else { return [] }
        return item.unusableSidecarTimes.map { sidecar in
            finding("The sidecar \(sidecar.path) gives a capture time that cannot be used: \(sidecar.reason); it is not compared with the file's.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("Takeout timestamp 1e308", {
            var item = Example.capturePair()
            item.sidecars = ["IMG_0001.HEIC.json"]
            item.unusableSidecarTimes = [CheckItem.UnusableSidecarTime(path: "IMG_0001.HEIC.json", reason: "photoTakenTime.timestamp \"1e308\" is no time from 1900 to 9999 in Unix seconds")]
            return item
        }()),
        .passes("a usable sidecar time", SidecarTimeMismatch.sidecar(SidecarTimeMismatch.takeout)),
        .passes("no sidecar", Example.capturePair()),
    ]
}
