import LivePhotoFormats

/// A motion photo whose ways of locating its movie do not all find it at one place.
enum MotionPhotoLocatorsDisagree: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-locators-disagree", title: "Motion photo locators disagree", severity: .warning, category: .motionPhoto,
        confidence: .medium, evidence: [.specification(Evidence.motionPhotoFormat), .practitioners("Samsung's SEF trailer and the older MicroVideoOffset, read by different apps")],
        rationale: "A motion photo can say where its movie is in several ways: the Container:Directory lengths counted from the end (Motion Photo 1.0), GCamera:MotionPhotoOffset or MicroVideoOffset (a distance from the end), a top-level mpvd box (HEIF), a Samsung SEF trailer record (JPEG). Readers use different ones: Google's reads the directory (and the mpvd box in HEIF), older Google Photos the MicroVideo offset, Samsung Gallery its trailer. When one of them misses the movie, the readers that use it show a still photo, although another reader plays the movie.",
        fix: "Make every locator point at the movie, or remove the stale ones.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let locators = motion.locators, locators.count >= 2,
              let movie = motion.movieRange else { return [] }
        // In Samsung's layout the directory describes the SEF records (motion-photo-samsung-layout).
        let samsung = MotionPhotoSamsungLayout.recognized(still) != nil
        let missing = locators.filter { (!$0.found || $0.offset != movie.lowerBound) && !(samsung && $0.name == .directory) }
        guard !missing.isEmpty else { return [] }
        let places = locators.map { locator in
            "\(locator.name) → \(locator.offset.map { "byte \($0)" } ?? "no byte of the file")" + (locator.found && locator.offset == movie.lowerBound ? " (the movie)" : locator.found ? " (a movie)" : " (no movie there)")
        }
        return [finding("The movie is at byte \(movie.lowerBound), but not every locator says so: " + places.joined(separator: ", ") + ".", still, offset: missing[0].offset)]
    }

    static let examples: [RuleExample] = [
        .triggers("a wrong MicroVideoOffset beside a Samsung trailer", Example.motionPhotoItem { motion in
            motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.microVideoOffset, offset: 131_000, value: 9_312, found: false),
                               MotionPhotoLocator(name: MotionPhotoLocator.Name.samsungTrailer, offset: 131_582, value: 8_730, found: true)]
        }),
        .passes("directory and offset agree", Example.motionPhotoItem { motion in
            motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.directory, offset: 131_582, value: 8_730, found: true),
                               MotionPhotoLocator(name: MotionPhotoLocator.Name.motionPhotoOffset, offset: 131_582, value: 8_730, found: true)]
        }),
        .passes("one locator", Example.motionPhotoItem { motion in
            motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.directory, offset: 131_582, value: 8_730, found: true)]
        }),
    ]
}
