/// A standalone movie that is, byte for byte, the movie inside a motion photo beside it.
enum MovieEmbeddedInMotionPhoto: Rule {
    static let description = RuleDescription(
        identifier: "movie-embedded-in-motion-photo", title: "Movie is the one inside a motion photo", severity: .info, category: .pairing,
        confidence: .high, evidence: [.fileContent("the standalone movie's bytes compared with the embedded movie's"), .practitioners("immich-app/immich #30654, #18045")],
        targets: [],
        rationale: "Google Takeout exports a motion photo and, beside it under the same name, its movie as a file of its own (immich #30654, #18045). Imported both, a library shows the clip twice. lpcheck says so only when the file's bytes equal the motion photo's embedded range, never from names or sizes alone.",
        fix: "Keep the motion photo (it holds the movie) and leave the standalone copy out of the import, or delete it.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let motionPhoto = item.embeddedMovieOf, let movie = item.movie else { return [] }
        return [finding("This movie is byte for byte the movie embedded in \(motionPhoto): the same clip twice.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("Takeout's copy of a motion photo's movie", {
            var item = CheckItem(kind: .notLivePhoto, movie: Example.movie("PXL_1.MP.mp4", identifier: nil))
            item.embeddedMovieOf = "PXL_1.MP.jpg"
            return item
        }()),
        .passes("a movie of its own", CheckItem(kind: .notLivePhoto, movie: Example.movie("PXL_2.mp4", identifier: nil))),
    ]
}
