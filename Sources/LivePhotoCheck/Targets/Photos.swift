extension Target {
    /// Photos on iPhone, iPad and Mac: the pair plays as a Live Photo. Its profile reports every
    /// rule but those of the lock screen alone.
    public static let photos: Target = Target(
        index: 0, name: "photos", summary: "Photos on iPhone, iPad and Mac plays the pair as a Live Photo",
        judges: [.pair, .stillOnly, .movieOnly], categories: [.damage, .identifier, .pairing, .structure, .timing, .stillImageTime],
        reports: { $0.targets != [.wallpaper] })
}
