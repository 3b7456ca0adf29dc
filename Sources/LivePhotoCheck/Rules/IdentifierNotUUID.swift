/// An identifier that is not a UUID.
enum IdentifierNotUUID: Rule {
    static let description = RuleDescription(
        identifier: "identifier-not-uuid", title: "Identifier is not a UUID", severity: .warning, category: "identifier",
        rationale: "Cameras and AVFoundation write a UUID (8-4-4-4-12 hexadecimal digits). Other strings pair in some Photos versions and not in others.",
        fix: "Give the pair a new UUID: `lpcheck repair --prefer new`.",
        autofixable: true)

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
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
    /// 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
        }
        return true
    }

    /// What cameras write: an upper-case UUID.
    static func isCanonical(_ text: String) -> Bool { isUUID(text) && !text.utf8.contains { (0x61...0x66).contains($0) } }
}
