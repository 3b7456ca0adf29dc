/// An identifier that is not a UUID.
enum IdentifierNotUUID: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "identifier-not-uuid", title: "Identifier is not a UUID", severity: .warning, category: .identifier,
        confidence: .low, evidence: [.measured(Evidence.samples + " (every camera identifier is a UUID)"), .practitioners("makelive and Live Photo generators, which write UUIDs; no report of another form pairing in every Photos version")],
        rationale: "Cameras and AVFoundation write a UUID (8-4-4-4-12 hexadecimal digits). Other strings pair in some Photos versions and not in others.",
        fix: "Give the pair a new UUID: `lpcheck repair --prefer new`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard let identifier = file.contentIdentifier, !IdentifierShape.isUUID(identifier) else { return nil }
            return finding("The content identifier \"\(identifier)\" is not a UUID: Photos may not pair it (cameras write UUIDs).", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("free text", Example.pair(still: Example.still(identifier: "my-live-photo-1"), movie: Example.movie(identifier: "my-live-photo-1"))),
        .passes("camera pair", Example.pair()),
        .passes("lowercase UUID is still a UUID", Example.pair(still: Example.still(identifier: Example.identifier.lowercased()), movie: Example.movie(identifier: Example.identifier.lowercased()))),
    ]
}
