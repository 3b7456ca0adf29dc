/// FNV-1a, 64 bits: a fingerprint of bytes, not a secret. The cache's layout hash, the
/// deterministic identifiers and the preservation ledger's digests.
public struct FNV1a: Sendable, Equatable {
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    public private(set) var value: UInt64

    public init(basis: UInt64 = FNV1a.offsetBasis) { value = basis }

    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        value = hash
    }

    /// A string's UTF-8 bytes, then a 0 byte, so that ("ab", "c") and ("a", "bc") differ.
    public mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0))
    }

    public mutating func add<Value: FixedWidthInteger>(integer: Value) {
        add((0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: integer >> ($0 * 8)) })
    }

    public static func of<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }
}
