import Foundation
@testable import LivePhotoCache
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The cache's binary form gives back exactly the facts it was given.
struct CompactCoderTests {
    @Test("every sample's facts (stills, movies, motion photos, damaged files) survive the round trip")
    func roundTrip() throws {
        let files = SharedSamples.withOurSamples()
        #expect(files.count >= 10)
        for url in files {
            let facts = FileFacts(MediaFile.inspect(path: url.path, options: .check))
            let bytes = CompactCoder.encode(facts)
            let back = try CompactCoder.decode(bytes)
            #expect(try sortedJSON(back) == sortedJSON(facts), "\(url.lastPathComponent)")
        }
    }

    /// The fields of `value`, below it, that hold a type's default (nil, empty, false, zero).
    static func defaults(in value: Any, at path: String = "facts") -> [String] {
        func isZero<Number: BinaryInteger>(_ number: Number) -> Bool { number == 0 }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return defaults(in: wrapped, at: path)
        }
        switch value {
        case let flag as Bool: return flag ? [] : [path]
        case let text as String: return text.isEmpty ? [path] : []
        case let number as any BinaryInteger: return isZero(number) ? [path] : []
        case let number as Double: return number == 0 ? [path] : []
        case is FourCC, is Range<Int64>, is FileFormat, is MediaFile.Kind, is ParseError.Code: return []
        default: break
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .dictionary {
            guard !mirror.children.isEmpty else { return [path] }
            return mirror.children.enumerated().flatMap { defaults(in: $0.element.value, at: "\(path)[\($0.offset)]") }
        }
        return mirror.children.flatMap { child in
            // `Indirect` wrappers hold their value in a box: look through them.
            defaults(in: child.value, at: path + "." + (child.label ?? "?").trimmingCharacters(in: CharacterSet(charactersIn: "_")))
        }
    }

    @Test("every field of the facts, set to a value of its own, survives the round trip (a field the coder forgets fails here)")
    func everyFieldRoundTrip() throws {
        let facts = Example.everyField()
        // A new field of the facts must be given a value above before the round trip can vouch for it.
        #expect(Self.defaults(in: facts) == [])
        var expected = facts
        // What only an HTML page shows is not kept: the thumbnail, why it is missing, the preview.
        (expected.thumbnail, expected.thumbnailProblem, expected.thumbnailTurned, expected.preview) = (nil, nil, nil, nil)
        let back = try CompactCoder.decode(CompactCoder.encode(facts))
        #expect(try sortedJSON(back) == sortedJSON(expected))
        #expect(back.thumbnail == nil && back.thumbnailProblem == nil && back.thumbnailTurned == nil && back.preview == nil)
        #expect(back.identity?.links == 2)
    }

    @Test("a cut or altered blob throws; it never traps or allocates what it claims")
    func hostileBlobs() throws {
        let url = try #require(SharedSamples.withOurSamples().first { $0.pathExtension.lowercased() == "mov" })
        let bytes = CompactCoder.encode(FileFacts(MediaFile.inspect(path: url.path, options: .check)))
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
            #expect(throws: (any Error).self) { try CompactCoder.decode(Array(bytes[..<cut])) }
        }
        // Every byte in turn made a huge varint's first byte, or a flag that is no flag: each
        // decode throws or gives facts; none traps, and no count is believed past the bytes left.
        for index in bytes.indices {
            for value: UInt8 in [0xFF, 0x02, 0x00] {
                var altered = bytes
                altered[index] = value
                _ = try? CompactCoder.decode(altered)
            }
        }
        let everyField = CompactCoder.encode(Example.everyField())
        for index in everyField.indices {
            var altered = everyField
            altered[index] ^= 0x80
            _ = try? CompactCoder.decode(altered)
        }
        // A length of 2^63 bytes right after an otherwise valid start: refused before any copy.
        #expect(throws: (any Error).self) { try CompactCoder.decode([0x00, 0x04] + Array("JPEG".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) }
    }
}

extension CompactCoderTests {
    @Test("the cache's format carries a fingerprint of the coder's bytes for the every-field example: a field the coder adds (bytes more) changes it")
    func formatFollowsLayout() {
        let layout = CompactCoder.encode(Example.everyField())
        #expect(FactsCache.format.hasSuffix(" layout " + FactsCache.layoutHash(layout)))
        // A field added at the end or in the middle: the bytes of its value inserted.
        #expect(FactsCache.layoutHash(layout + [0]) != FactsCache.layoutHash(layout))
        var inserted = layout
        inserted.insert(1, at: layout.count / 2)
        #expect(FactsCache.layoutHash(inserted) != FactsCache.layoutHash(layout))
    }
}
