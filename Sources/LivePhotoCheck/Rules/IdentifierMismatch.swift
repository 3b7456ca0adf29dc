/// Still and movie paired by name carry different identifiers.
enum IdentifierMismatch: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "identifier-mismatch", title: "Still and movie identifiers differ", severity: .error, category: .identifier,
        confidence: .high, evidence: [.measured(Evidence.samples), .vendor("Apple Developer, AVMetadataIdentifier.quickTimeMetadataContentIdentifier and .quickTimeMetadataStillImageTime"), .practitioners("makelive (RhetTbull/makelive) and LimitPoint LivePhoto, which write these markers to make pairs Photos accepts")],
        rationale: "Photos treats a still and a movie as one Live Photo only when both carry the same content identifier.",
        fix: "Make them equal: `lpcheck repair --prefer still|movie|new`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let still = item.still?.contentIdentifier, let movie = item.movie?.contentIdentifier, still != movie else { return [] }
        return [finding("The still's identifier \(still) differs from the movie's \(movie).", item.still)]
    }

    static let examples: [RuleExample] = [
        .triggers("identifiers differ", Example.pair(movie: Example.movie(identifier: "00000000-1111-2222-3333-444444444444"), by: .name)),
        .passes("camera pair", Example.pair()),
    ]
}
