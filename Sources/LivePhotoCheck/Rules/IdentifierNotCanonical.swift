/// A UUID written unlike cameras write it.
enum IdentifierNotCanonical: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "identifier-not-canonical", title: "Identifier is not an upper-case UUID", severity: .warning, category: .identifier,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (upper case in every camera file)"), .vendor("Apple Developer, NSUUID.uuidString (upper case)")],
        rationale: "Cameras write upper-case UUIDs. Identifiers are compared as strings, so a lower-case copy on one side breaks the pair, and tools that normalise case disagree with tools that do not.",
        fix: "Rewrite the identifier in upper case in both files: `lpcheck repair`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard let identifier = file.contentIdentifier, IdentifierShape.isNonCanonicalUUID(identifier) else { return nil }
            return finding("The content identifier \(identifier) is not upper case as cameras write it.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("lower case", Example.pair(still: Example.still(identifier: Example.identifier.lowercased()), movie: Example.movie(identifier: Example.identifier.lowercased()))),
        .passes("camera pair", Example.pair()),
    ]
}
