import LivePhotoFormats

/// A movie without the keys iOS 17 cameras write for the lock screen.
enum WallpaperKeysMissing: Rule {
    static let description = RuleDescription(
        identifier: "wallpaper-keys-missing", title: "Movie lacks the wallpaper keys of iOS 17 cameras", severity: .error, category: .wallpaper,
        confidence: .low, evidence: [.practitioners("RhetTbull/makelive #20 and the MacRumors thread it cites (its reporter suspected metadata iOS 17 added, later the video's length); makelive #23, #26, #27"),
                                     .measured(Evidence.samples + " (IMG_3853.MOV has both keys, apple.MOV the vitality score; the iOS 10-era movies neither)")],
        rationale: "iOS 17 cameras write `com.apple.quicktime.live-photo.auto` and `com.apple.quicktime.live-photo.vitality-score` into the movie's `moov/meta`; users of generators that do not write them report \"Motion not available\" on the lock screen. Older camera movies lack them too, and no source says which of them the lock screen reads: low confidence.",
        fix: "`lpcheck make --profile wallpaper` writes both keys (auto 1, vitality score 1) into the movie it makes.")

    static func fires(_ item: CheckItem, context: RuleContext) -> Bool {
        item.kind == .pair && (item.movie?.movie?.wallpaperKeys).map { !$0.isSuperset(of: [.auto, .vitalityScore]) } == true
    }

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard fires(item, context: context), let movie = item.movie, let keys = movie.movie?.wallpaperKeys else { return [] }
        let missing = [(MovieFacts.WallpaperKeys.auto, "live-photo.auto"), (.vitalityScore, "live-photo.vitality-score")].filter { !keys.contains($0.0) }.map(\.1)
        return [finding("The movie has no com.apple.quicktime.\(missing.joined(separator: " or com.apple.quicktime.")) key: the lock screen may show it without motion.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("neither key", Example.pair(movie: Example.movie { $0.wallpaperKeys = [] })),
        .triggers("no vitality score", Example.pair(movie: Example.movie { $0.wallpaperKeys = [.auto] })),
        .passes("both keys", Example.pair()),
        .passes("a record from before the keys were read", Example.pair(movie: Example.movie { $0.wallpaperKeys = nil })),
    ]
}
