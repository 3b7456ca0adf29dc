import Foundation
import LivePhotoFormats

/// An in-memory source that remembers every range read, to show what a reader touches.
public final class RecordingSource: ByteSource {
    private let inner: MemorySource
    public private(set) var ranges: [Range<Int64>] = []

    public init(_ bytes: [UInt8]) { inner = MemorySource(bytes) }

    public var size: Int64 { inner.size }
    public var stats: ReadStats { inner.stats }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        let bytes = try inner.read(at: offset, count: count)
        ranges.append(offset..<(offset + Int64(count)))
        return bytes
    }
}

/// A small reproducible random generator (SplitMix64) for mutation tests.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    /// The seed of a test's random inputs: LPCHECK_TEST_SEED when set (to replay a failure),
    /// else `fallback`. Tests name it in their messages, so any failure can be run again.
    public static func seed(_ fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["LPCHECK_TEST_SEED"].flatMap { UInt64($0) } ?? fallback
    }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
