/// A paired movie without `com.apple.quicktime.content.identifier`.
enum MovieMissingIdentifier: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "movie-missing-identifier", title: "Movie has no content identifier", severity: .error, category: .identifier,
        confidence: .high, evidence: [.measured(Evidence.samples), .vendor("Apple Developer, AVMetadataIdentifier.quickTimeMetadataContentIdentifier and .quickTimeMetadataStillImageTime"), .specification(Evidence.quickTimeMetadata)],
        rationale: "Photos pairs a movie with its still through com.apple.quicktime.content.identifier in moov/meta (keys + ilst). Without it the movie is not part of a Live Photo.",
        fix: "Write the still's identifier into the movie's keys/ilst: `lpcheck repair` (moov/meta is added if absent).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let movie = item.movie, movie.contentIdentifier == nil else { return [] }
        return [finding("The movie has no com.apple.quicktime.content.identifier in moov/meta; paired with \(item.still?.fileName ?? "its still") by file name.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie re-muxed without metadata", Example.pair(movie: Example.movie(identifier: nil), by: .name)),
        .passes("camera pair", Example.pair()),
    ]
}
