/// An identifier that is not a UUID.
enum IdentifierNotUUID: Rule {
    static let description = RuleDescription(
        identifier: "identifier-not-uuid", title: "Identifier is not a UUID", severity: .warning, category: "identifier",
        rationale: "Cameras and AVFoundation write a UUID (8-4-4-4-12 hexadecimal digits). Other strings pair in some Photos versions and not in others.",
        fix: "Give the pair a new UUID: `lpcheck repair --prefer new`.",
        autofixable: true)

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.files.compactMap { file in
            guard let identifier = file.contentIdentifier, !IdentifierShape.isUUID(identifier) else { return nil }
            return finding("The content identifier \"\(identifier)\" is not a UUID.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("free text", Example.pair(still: Example.still(identifier: "my-live-photo-1"), movie: Example.movie(identifier: "my-live-photo-1"))),
        .passes("camera pair", Example.pair()),
        .passes("lowercase UUID is still a UUID", Example.pair(still: Example.still(identifier: Example.identifier.lowercased()), movie: Example.movie(identifier: Example.identifier.lowercased()))),
    ]
}

/// The shape of identifiers.
enum IdentifierShape {
    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// What cameras write: an upper-case UUID.
    static func isCanonical(_ text: String) -> Bool { isUUID(text) && text == text.uppercased() }
}
