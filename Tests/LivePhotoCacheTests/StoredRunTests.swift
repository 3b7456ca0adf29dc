import Foundation
@testable import LivePhotoCache
import LivePhotoCheck
import Testing

/// What a replay is checked against: the inputs' bytes and the stored chunks' shape.
struct StoredRunTests {
    static let stamp = FileStamp(device: 1, inode: 2, size: 3, modified: 4, changed: 5)

    static func walk(_ stamps: [FileStamp?], hidden: [String] = [], problems: [(String, String)] = []) -> Discovery.Result {
        var result = Discovery.Result(files: stamps.indices.map { "lib/IMG_\($0).HEIC" }, problems: problems.map { (path: $0.0, reason: $0.1) }, hidden: hidden)
        result.stamps = stamps
        return result
    }

    @Test("run inputs change with every setting, file, stamp field, hidden file and problem; a file without a stamp gives none")
    func inputsCoverEverything() throws {
        let base = try #require(RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp, Self.stamp])))
        #expect(RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp, Self.stamp])) == base)
        var changed: [[UInt8]?] = [
            RunInputs.bytes(settings: ["a", "c"], discovery: Self.walk([Self.stamp, Self.stamp])),
            RunInputs.bytes(settings: ["ab"], discovery: Self.walk([Self.stamp, Self.stamp])),
            RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp])),
            RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp, Self.stamp], hidden: ["lib/.x"])),
            RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp, Self.stamp], problems: [("lib/d", "Permission denied")])),
        ]
        for field in 0..<5 {
            var other = Self.stamp
            switch field {
            case 0: other.device += 1
            case 1: other.inode += 1
            case 2: other.size += 1
            case 3: other.modified += 1
            default: other.changed += 1
            }
            changed.append(RunInputs.bytes(settings: ["a", "b"], discovery: Self.walk([Self.stamp, other])))
        }
        var renamed = Self.walk([Self.stamp, Self.stamp])
        renamed.files[1] = "lib/IMG_1.heic"
        changed.append(RunInputs.bytes(settings: ["a", "b"], discovery: renamed))
        for (index, bytes) in changed.enumerated() {
            #expect(bytes != nil && bytes != base, "change \(index)")
        }
        #expect(RunInputs.bytes(settings: ["a"], discovery: Self.walk([Self.stamp, nil])) == nil)
        var unstamped = Self.walk([Self.stamp, Self.stamp])
        unstamped.stamps = []
        #expect(RunInputs.bytes(settings: ["a"], discovery: unstamped) == nil)
    }

    @Test("stored chunks fit their run only in order, within its outputs and to its sizes; any number of them is looked at once")
    func chunksFit() {
        #expect(FactsCache.chunksFit([(0, 10), (0, 5), (1, 3)], sizes: [15, 3]))
        #expect(FactsCache.chunksFit([], sizes: [0, 0]))
        #expect(FactsCache.chunksFit([(1, 3)], sizes: [0, 3]))
        #expect(!FactsCache.chunksFit([(1, 3), (0, 15)], sizes: [15, 3]), "out of order")
        #expect(!FactsCache.chunksFit([(0, 15), (2, 3)], sizes: [15, 3]), "past the outputs")
        #expect(!FactsCache.chunksFit([(-1, 0), (0, 15), (1, 3)], sizes: [15, 3]), "before the outputs")
        #expect(!FactsCache.chunksFit([(0, 14), (1, 3)], sizes: [15, 3]), "a byte short")
        #expect(!FactsCache.chunksFit([(0, 15), (1, 3), (1, 1)], sizes: [15, 3]), "a chunk more")
        #expect(!FactsCache.chunksFit([(0, Int.max), (0, Int.max)], sizes: [-2]), "lengths that overflow")
        // A hostile table of a million one-byte chunks: one pass, whatever it says.
        let many = Array(repeating: (output: 0, length: 1), count: 1_000_000)
        #expect(FactsCache.chunksFit(many, sizes: [1_000_000]))
        #expect(!FactsCache.chunksFit(many, sizes: [999_999]))
    }
}
