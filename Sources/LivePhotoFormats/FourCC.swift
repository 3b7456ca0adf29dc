/// A four-character code such as `moov` or `mebx`.
public struct FourCC: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    public let value: UInt32
    public init(_ value: UInt32) { self.value = value }

    /// Literals such as `"moov"` are read from their static UTF-8 bytes (cheap in hot loops).
    public init(stringLiteral text: StaticString) {
        var value: UInt32 = 0
        if text.hasPointerRepresentation {
            let count = min(text.utf8CodeUnitCount, 4)
            for index in 0..<count { value = value << 8 | UInt32(text.utf8Start[index]) }
        } else {
            value = text.unicodeScalar.value & 0xFF
        }
        self.value = value
    }

    /// Up to four characters of text (bytes above 0xFF are cut to their low byte).
    public init(text: String) {
        var value: UInt32 = 0
        for scalar in text.unicodeScalars.prefix(4) { value = value << 8 | (UInt32(scalar.value) & 0xFF) }
        self.value = value
    }

    public var bytes: [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// Printable text; bytes outside printable Latin-1 (other than ©) appear as `\xNN`.
    public var description: String {
        // Box types are four printable ASCII bytes nearly always: written straight into the
        // string (a path names a type per step, and a report a path per finding).
        let printable = (0..<4).allSatisfy { index in (0x20..<0x7F).contains(value >> (24 - 8 * index) & 0xFF) }
        if printable {
            return String(unsafeUninitializedCapacity: 4) { buffer in
                for index in 0..<4 { buffer[index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
                return 4
            }
        }
        var text = ""
        for byte in bytes {
            if byte == 0xA9 {
                text += "©"
            } else if byte >= 0x20 && byte < 0x7F {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return text
    }

    public static func < (lhs: FourCC, rhs: FourCC) -> Bool { lhs.value < rhs.value }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        self.init(text: try decoder.singleValueContainer().decode(String.self))
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
