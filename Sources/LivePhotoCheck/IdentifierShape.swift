/// The shape of identifiers.
public enum IdentifierShape {
    /// 8-4-4-4-12 hexadecimal digits.
    public static func isUUID(_ text: String) -> Bool { shape(text) != nil }

    /// What cameras write: an upper-case UUID.
    public static func isCanonical(_ text: String) -> Bool { shape(text) == .upperCase }

    private enum Case { case upperCase, mixedOrLower }

    /// The UUID's case, or nil when the text is not a UUID. One pass over contiguous bytes
    /// (rules ask this of every identifier of a library).
    private static func shape(_ text: String) -> Case? {
        var text = text
        return text.withUTF8 { bytes -> Case? in
            guard bytes.count == 36 else { return nil }
            var lower = false
            for index in 0..<36 {
                let byte = bytes[index]
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                } else if (0x61...0x66).contains(byte) {
                    lower = true
                } else {
                    guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) else { return nil }
                }
            }
            return lower ? .mixedOrLower : .upperCase
        }
    }
}
