import LivePhotoFormats

/// A JPEG still, where the lock screen is reported to want HEIC.
enum WallpaperStillNotHEIC: Rule {
    static let description = RuleDescription(
        identifier: "wallpaper-still-not-heic", title: "JPEG still (wallpaper)", severity: .error, category: .wallpaper,
        confidence: .low, evidence: [.practitioners("LimitPoint/LivePhoto #10 (camera Live Photos that work as wallpapers are HEIC; a later comment: a HEIC still did not help)")],
        rationale: "A user comparing generated Live Photos with camera ones that work as wallpapers found the camera stills to be HEIC; another reported that a HEIC still alone did not make the motion work. Contradicted: low confidence.",
        fix: "Make the pair from a HEIC still (converting a JPEG to HEIC re-encodes it, which lpcheck does not do).")

    static func fires(_ item: CheckItem, context: RuleContext) -> Bool { item.kind == .pair && item.still?.format == .jpeg }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard fires(item, context: context), let still = item.still else { return [] }
        return [finding("The still is a JPEG: the lock screen may show the Live Photo without motion (camera wallpapers are HEIC).", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("a JPEG still", Example.pair()),
        .passes("a HEIC still", Example.pair(still: Example.still("IMG_0001.HEIC", format: .heic))),
    ]
}
