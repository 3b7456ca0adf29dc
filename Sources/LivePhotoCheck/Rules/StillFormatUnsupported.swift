import LivePhotoFormats

/// A Live Photo still in a format Photos does not take for one.
enum StillFormatUnsupported: Rule {
    static let description = RuleDescription(
        identifier: "still-format-unsupported", title: "Still format not usable for a Live Photo", severity: .error, category: .structure,
        confidence: .medium, evidence: [.vendor("Apple Developer, PHAssetResourceType.pairedVideo with JPEG or HEIC photos"), .practitioners("makelive (RhetTbull/makelive) and LimitPoint LivePhoto, which write these markers to make pairs Photos accepts")],
        rationale: "Photos builds Live Photos from JPEG and HEIC stills. PNG, AVIF, GIF, WebP or TIFF stills carrying a Live Photo identifier are shown as plain photos.",
        fix: "Convert the still to JPEG or HEIC, then `lpcheck make` the pair.")

    static let accepted: Set<FileFormat> = [.jpeg, .heic, .heif]

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair || item.kind == .stillOnly, let still = item.still, still.format.isStill, !accepted.contains(still.format) else { return [] }
        return [finding("The still is \(still.format.rawValue); Photos takes JPEG or HEIC for a Live Photo.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("AVIF still", Example.pair(still: Example.still("IMG_0001.avif", format: .avif))),
        .passes("camera pair", Example.pair()),
        .passes("HEIC still", Example.pair(still: Example.still("IMG_0001.HEIC", format: .heic))),
    ]
}
