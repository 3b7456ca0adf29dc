/// The shape of identifiers.
public enum IdentifierShape {
    /// 8-4-4-4-12 hexadecimal digits.
    public static func isUUID(_ text: String) -> Bool {
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
    public static func isCanonical(_ text: String) -> Bool { isUUID(text) && !text.utf8.contains { (0x61...0x66).contains($0) } }
}
