/// A Live Photo still whose movie is not there.
enum MovieAbsent: Rule {
    static let description = RuleDescription(
        identifier: "movie-absent", title: "Live Photo still without its movie", severity: .error, category: "pairing",
        rationale: "The still carries a content identifier, so it was part of a Live Photo, but no movie with that identifier (or its file name) was found.",
        fix: "Put the movie beside the still, or make one: `lpcheck make STILL MOVIE --output DIR`.",
        autofixable: false)

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .stillOnly, let still = item.still else { return [] }
        return [finding("No movie carries this still's identifier \(still.contentIdentifier ?? "") and none shares its name.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("still alone", CheckItem(kind: .stillOnly, still: Example.still())),
        .passes("camera pair", Example.pair()),
    ]
}
