/// `moov/meta` whose handler is not `mdta`.
enum MetadataHandlerNotMdta: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "metadata-handler-not-mdta", title: "Movie metadata handler is not mdta", severity: .error, category: .identifier,
        confidence: .high, evidence: [.specification(Evidence.quickTimeMetadata), .measured(Evidence.samples)],
        rationale: "The content identifier is a keys/ilst item, which QuickTime reads only when moov/meta's handler is 'mdta'. Under another handler the identifier is invisible to Photos.",
        fix: "`lpcheck repair` rewrites moov/meta with the 'mdta' handler.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, facts.hasContentIdentifierKey, facts.metadataHandler != "mdta" else { return [] }
        return [finding("moov/meta's handler is '\(facts.metadataHandler?.description ?? "none")', not 'mdta'.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("mdir handler", Example.pair(movie: Example.movie { $0.metadataHandler = "mdir" })),
        .passes("camera pair", Example.pair()),
    ]
}
