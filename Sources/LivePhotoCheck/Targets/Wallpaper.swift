extension Target {
    /// The lock screen: a Live Photo wallpaper moves ("Motion not available" otherwise). Its
    /// profile reports every rule.
    public static let wallpaper: Target = Target(
        index: 1, name: "wallpaper", summary: "the lock screen moves the Live Photo as a wallpaper",
        judges: [.pair, .stillOnly, .movieOnly], categories: [.damage, .identifier, .pairing, .structure, .timing, .stillImageTime, .wallpaper],
        reports: { _ in true })
}
