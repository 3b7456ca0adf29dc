/// The shape of identifiers.
public enum IdentifierShape {
    /// 8-4-4-4-12 hexadecimal digits.
    public static func isUUID(_ text: String) -> Bool { shape(text) != nil }

    /// What cameras write: an upper-case UUID.
    public static func isCanonical(_ text: String) -> Bool { shape(text) == .upperCase }

    /// A UUID, but not as cameras write it (lower or mixed case): one pass.
    public static func isNonCanonicalUUID(_ text: String) -> Bool { shape(text) == .mixedOrLower }

    private enum Case { case upperCase, mixedOrLower }

    /// Where the dashes of 8-4-4-4-12 are, one bit per byte.
    private static let dashes: UInt64 = 1 << 8 | 1 << 13 | 1 << 18 | 1 << 23

    /// The UUID's case, or nil when the text is not a UUID. One pass over contiguous bytes, one
    /// table look-up per byte (rules ask this of every identifier of a library, several times).
    private static func shape(_ text: String) -> Case? {
        var text = text
        return text.withUTF8 { bytes -> Case? in
            guard bytes.count == 36 else { return nil }
            return byteKind.withUnsafeBufferPointer { table -> Case? in
                var seen: UInt8 = 0
                for index in 0..<36 {
                    let kind = table[Int(bytes[index])]
                    let wanted = Self.dashes >> UInt64(index) & 1 != 0 ? Self.dash : Self.upperHex | Self.lowerHex
                    guard kind & wanted != 0 else { return nil }
                    seen |= kind
                }
                // A dash where hex belongs was refused above; hex where a dash belongs too.
                return seen & Self.lowerHex != 0 ? .mixedOrLower : .upperCase
            }
        }
    }

    private static let upperHex: UInt8 = 1, lowerHex: UInt8 = 2, dash: UInt8 = 4

    /// What each byte is: a digit or upper-case hex letter, a lower-case hex letter, a dash, or none.
    private static let byteKind: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = upperHex }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "F") { table[Int(byte)] = upperHex }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "f") { table[Int(byte)] = lowerHex }
        table[Int(UInt8(ascii: "-"))] = dash
        return table
    }()
}
