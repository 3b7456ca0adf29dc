/// The movie's identifier is only in `moov/udta/meta`.
enum IdentifierInUserData: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "identifier-in-user-data", title: "Movie identifier only in udta", severity: .warning, category: .identifier,
        confidence: .medium, evidence: [.specification(Evidence.quickTimeMetadata), .measured(Evidence.samples + " (moov/meta in every camera movie)"), .practitioners("ffmpeg -movflags use_metadata_tags writes keys into moov/udta/meta")],
        rationale: "Cameras write the content identifier in moov/meta. ffmpeg (-movflags use_metadata_tags) writes keys/ilst into moov/udta/meta instead; ExifTool reads it there, but it is not where Photos' own files carry it.",
        fix: "`lpcheck repair` writes the identifier into moov/meta as well.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, movie.movie?.contentIdentifierLocation == .userData else { return [] }
        return [finding("The content identifier is only in moov/udta/meta, not in moov/meta where cameras write it.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("ffmpeg remux", Example.pair(movie: Example.movie { $0.contentIdentifierLocation = .userData; $0.hasContentIdentifierKey = false })),
        .passes("camera pair", Example.pair()),
    ]
}
