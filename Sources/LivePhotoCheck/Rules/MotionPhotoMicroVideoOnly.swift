import LivePhotoFormats

/// A motion photo located only by the pre-1.0 MicroVideo properties.
enum MotionPhotoMicroVideoOnly: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-microvideo-only", title: "Motion photo uses only the old MicroVideo properties", severity: .warning, category: .motionPhoto,
        confidence: .medium, evidence: [.specification(Evidence.motionPhotoFormat + " (readers ignore MicroVideo)"), .practitioners("older Google Photos versions that read MicroVideo")],
        rationale: "GCamera:MicroVideo, MicroVideoVersion and MicroVideoOffset are the format before Motion Photo 1.0. The 1.0 format page says readers ignore them (only GCamera:MotionPhoto with a Container:Directory counts); Google Photos versions before it played them, and some still do. A file that has nothing else is a motion photo only to those.",
        fix: "Add GCamera:MotionPhoto, MotionPhotoVersion and a Container:Directory (Motion Photo 1.0).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let locators = motion.locators,
              let microVideo = locators.first(where: { $0.name == MotionPhotoLocator.Name.microVideoOffset }) else { return [] }
        let modern = locators.contains { $0.name == MotionPhotoLocator.Name.directory || $0.name == MotionPhotoLocator.Name.motionPhotoOffset }
        guard !modern else { return [] }
        let flag = motion.source == .microVideo ? "GCamera:MicroVideo" : "GCamera:MotionPhoto without a Container:Directory"
        return [finding("The movie is located only by GCamera:MicroVideoOffset (\(microVideo.value.map(String.init) ?? "?") bytes from the end\(microVideo.found ? "" : ", where no movie starts")), declared by \(flag): Motion Photo 1.0 readers ignore the MicroVideo properties.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("MotionPhoto=1 with MicroVideoOffset (PyPI motionphoto 0.1.2)", Example.motionPhotoItem { motion in
            motion.directory = []
            motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.microVideoOffset, offset: 131_582, value: 8_730, found: true)]
        }),
        .passes("Motion Photo 1.0 directory", Example.motionPhotoItem { motion in
            motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.directory, offset: 131_582, value: 8_730, found: true),
                               MotionPhotoLocator(name: MotionPhotoLocator.Name.microVideoOffset, offset: 131_582, value: 8_730, found: true)]
        }),
    ]
}
