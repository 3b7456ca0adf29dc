/// A Live Photo movie whose still is not there.
enum StillAbsent: Rule {
    static let description = RuleDescription(
        identifier: "still-absent", title: "Live Photo movie without its still", severity: .error, category: .pairing,
        confidence: .high, evidence: [.fileContent("no still of the scan carries the identifier or shares the name")],
        rationale: "The movie carries a content identifier or a still-image-time track, so it belongs to a Live Photo, but no still of the scan pairs with it: none carries that identifier, and none with its folder and name could pair.",
        fix: "Put the still beside the movie, or make one from a frame: `lpcheck make STILL MOVIE --output DIR`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .movieOnly, let movie = item.movie else { return [] }
        return [finding("No still pairs with this movie: " + Absence.describe(item, identifier: movie.contentIdentifier, other: "still"), movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie alone", CheckItem(kind: .movieOnly, movie: Example.movie())),
        .passes("camera pair", Example.pair()),
    ]
}
