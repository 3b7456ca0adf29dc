import LivePhotoFormats

/// The video's size differs from the one the still-image transform was measured on.
enum WallpaperDimensionsMismatch: Rule {
    static let description = RuleDescription(
        identifier: "wallpaper-dimensions-mismatch", title: "Video size differs from the still transform's reference (wallpaper)", severity: .error,
        category: .wallpaper,
        confidence: .low, evidence: [.practitioners("TouSC/Video2LivePhoto #6 (its author: the video's parameters must agree with its metadata, or the wallpaper does not move) and #8 (only the size its copied metadata names works)"),
                                     .measured(Evidence.samples + " (IMG_3853.MOV: 1920×1440 video, reference dimensions 1920×1440)")],
        rationale: "iOS 17 cameras store, beside the still-image time, the transform from the still to the video and the video size it was measured on (`live-photo-still-image-transform-reference-dimensions`); in the camera movie measured the two sizes are equal. A generator that re-encodes or crops the video but keeps the camera's metadata leaves them apart, and its author reports that the wallpaper then does not move. One report and one camera file: low confidence. (The per-frame `live-photo-info` samples are not compared: their layout is not published.)",
        fix: "Keep the camera's video at its size, or encode the new video at the reference dimensions; lpcheck does not rewrite these keys.")

    static func sizes(_ item: CheckItem) -> (video: PixelSize, reference: PixelSize)? {
        guard item.kind == .pair, let movie = item.movie, let reference = movie.movie?.referenceDimensions, let video = movie.capture?.size,
              video != reference else { return nil }
        return (video, reference)
    }

    static func fires(_ item: CheckItem, context: RuleContext) -> Bool { sizes(item) != nil }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let (video, reference) = sizes(item) else { return [] }
        return [finding("The video is \(video.width)×\(video.height), but the still transform's reference dimensions are \(reference.width)×\(reference.height): the lock screen may show it without motion.", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("a video re-encoded smaller under the camera's metadata", reference(video: PixelSize(width: 1280, height: 960))),
        .passes("the sizes agree (IMG_3853.MOV)", reference(video: PixelSize(width: 1920, height: 1440))),
        .passes("no reference dimensions (before iOS 17)", Example.capturePair()),
    ]

    static func reference(video: PixelSize) -> CheckItem {
        var item = Example.capturePair(movie: { $0.size = video })
        item.movie?.movie?.referenceDimensions = PixelSize(width: 1920, height: 1440)
        return item
    }
}
