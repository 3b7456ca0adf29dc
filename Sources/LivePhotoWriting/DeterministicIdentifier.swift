import LivePhotoFormats

/// New content identifiers derived from what they are for, so that a dry run prints exactly the
/// identifiers the real run writes, and a second run on the same files writes the same ones.
/// 128 bits from two FNV-1a 64-bit hashes of the seed, shaped as an RFC 9562 version 8 UUID
/// (the version for name-based identifiers of an implementation's own), upper case as Apple writes.
public enum DeterministicIdentifier {
    public static func make(_ seed: String) -> String {
        var bytes = hash(seed, basis: 0xCBF2_9CE4_8422_2325) + hash(seed, basis: 0x6C62_272E_07BB_0142)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16, uppercase: true) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    static func hash(_ text: String, basis: UInt64) -> [UInt8] {
        var hash = FNV1a(basis: basis)
        hash.add(text.utf8)
        var value = hash.value
        // Mix the final state so that close seeds differ in every byte.
        value ^= value >> 33
        value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        return (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
