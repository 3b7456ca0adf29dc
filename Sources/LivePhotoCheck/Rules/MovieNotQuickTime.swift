/// A Live Photo movie that is not a QuickTime movie.
enum MovieNotQuickTime: FixableRule {
    static let fixKind = FixKind.brand

    static let description = RuleDescription(
        identifier: "movie-not-quicktime", title: "Movie is not QuickTime", severity: .error, category: .structure,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (brand qt in every camera movie)"), .practitioners("makelive (RhetTbull/makelive) and LimitPoint LivePhoto, which write these markers to make pairs Photos accepts")],
        rationale: "Live Photo movies are QuickTime files (major brand 'qt  '). An MP4-branded movie is not paired by Photos, even with the right metadata.",
        fix: "`lpcheck make STILL MOVIE --output DIR` writes a QuickTime movie without re-encoding.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair || item.kind == .movieOnly, let movie = item.movie, let facts = movie.movie, !facts.isQuickTime else { return [] }
        return [finding("The movie's brand is '\(facts.brand?.description ?? "none")', not QuickTime ('qt  ').", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("MP4 brand", Example.pair(movie: Example.movie { $0.brand = "isom"; $0.quickTimeCompatible = false })),
        .passes("camera pair", Example.pair()),
        .passes("no ftyp (wide first)", Example.pair(movie: Example.movie { $0.brand = nil; $0.quickTimeCompatible = false })),
    ]
}
