extension Target {
    /// Google Photos: a Motion Photo 1.0 file plays its movie. Its profile reports the rules of
    /// motion photos, of damage and those of no target (pairing relations, agreement,
    /// expectations). The verdict follows Google's reader (libmotionphoto's reading path), not
    /// its checker (`motion_photo_checker.cc`).
    public static let googlePhotos: Target = Target(
        index: 2, name: "google-photos", summary: "Google Photos plays the motion photo's movie",
        judges: [.motionPhoto], categories: [.damage, .motionPhoto], followsReader: true,
        reports: { $0.targets.isEmpty || $0.targets.contains(.googlePhotos) })
}
