import Foundation
@testable import LivePhotoCache
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The cache's binary form gives back exactly the facts it was given.
struct CompactCoderTests {
    static func files() -> [URL] {
        var files = (try? FileManager.default.contentsOfDirectory(at: Locations.samples, includingPropertiesForKeys: nil)) ?? []
        files += SharedSamples.mediaFiles()
        return files
    }

    static func json(_ facts: FileFacts) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(facts), as: UTF8.self)
    }

    @Test("every sample's facts (stills, movies, motion photos, damaged files) survive the round trip")
    func roundTrip() throws {
        let files = Self.files()
        #expect(files.count >= 10)
        for url in files {
            let facts = FileFacts(MediaFile.inspect(path: url.path, options: .check))
            let bytes = try CompactCoder.encode(facts)
            let back = try CompactCoder.decode(FileFacts.self, from: bytes)
            #expect(try Self.json(back) == Self.json(facts), "\(url.lastPathComponent)")
        }
    }

    @Test("a cut or altered blob throws; it never traps or allocates what it claims")
    func hostileBlobs() throws {
        let url = try #require(Self.files().first { $0.pathExtension.lowercased() == "mov" })
        let bytes = try CompactCoder.encode(FileFacts(MediaFile.inspect(path: url.path, options: .check)))
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
            #expect(throws: (any Error).self) { try CompactCoder.decode(FileFacts.self, from: Array(bytes[..<cut])) }
        }
        var huge = bytes
        // A list count of 2^32 - 1 where the first list begins: refused before allocating.
        if let slot = (0..<(huge.count - 4)).first(where: { huge[$0..<($0 + 4)].elementsEqual([0, 0, 0, 0]) }) {
            huge.replaceSubrange(slot..<(slot + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
            _ = try? CompactCoder.decode(FileFacts.self, from: huge)
        }
    }
}
