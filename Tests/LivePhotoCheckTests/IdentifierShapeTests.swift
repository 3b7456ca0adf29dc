import LivePhotoCheck
import LivePhotoTestSupport
import Testing

struct IdentifierShapeTests {
    @Test("UUID shape and case agree with their definition on camera identifiers, near misses and seeded random text")
    func agreesWithDefinition() {
        // The definition: 8-4-4-4-12 hexadecimal digits; canonical when no digit is a lower-case letter.
        func reference(_ text: String) -> (uuid: Bool, canonical: Bool) {
            let groups = text.split(separator: "-", omittingEmptySubsequences: false)
            let uuid = groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
            return (uuid, uuid && !text.contains { ("a"..."f").contains($0) })
        }
        var texts = [Example.identifier, Example.identifier.lowercased(), "", "-", String(repeating: "-", count: 36),
                     "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E3", "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E345", "8E2F3C616A1D-4B7E-9F0C-2D5A7B9C1E34-",
                     "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E3G", "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E3é", "8e2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34"]
        var generator = SeededGenerator(seed: 3)
        let alphabet = Array("0123456789ABCDEFabcdefgG-xé")
        for _ in 0..<2_000 {
            var characters = Array(Example.identifier)
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                characters[Int.random(in: 0..<characters.count, using: &generator)] = alphabet.randomElement(using: &generator) ?? "0"
            }
            texts.append(String(characters))
        }
        for text in texts {
            #expect(IdentifierShape.isUUID(text) == reference(text).uuid, "\(text)")
            #expect(IdentifierShape.isCanonical(text) == reference(text).canonical, "\(text)")
            #expect(IdentifierShape.isNonCanonicalUUID(text) == (reference(text).uuid && !reference(text).canonical), "\(text)")
        }
    }
}
