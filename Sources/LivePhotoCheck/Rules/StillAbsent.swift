/// A Live Photo movie whose still is not there.
enum StillAbsent: Rule {
    static let description = RuleDescription(
        identifier: "still-absent", title: "Live Photo movie without its still", severity: .error, category: "pairing",
        rationale: "The movie carries a content identifier or a still-image-time track, so it belongs to a Live Photo, but no still with that identifier (or its file name) was found.",
        fix: "Put the still beside the movie, or make one from a frame: `lpcheck make STILL MOVIE --output DIR`.",
        autofixable: false)

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .movieOnly, let movie = item.movie else { return [] }
        let what = movie.contentIdentifier.map { "this movie's identifier \($0)" } ?? "a still-image-time track but no identifier"
        return [finding("No still matches \(what), and none shares its name.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie alone", CheckItem(kind: .movieOnly, movie: Example.movie())),
        .passes("camera pair", Example.pair()),
    ]
}
