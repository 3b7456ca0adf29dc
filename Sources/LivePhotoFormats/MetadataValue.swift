/// A value decoded by its QuickTime well-known data type (QuickTime File Format, "Well-known types").
public enum MetadataValue: Sendable, Equatable {
    case string(String)
    case signed(Int64)
    case unsigned(UInt64)
    case float(Double)
    /// Points, dimensions, rectangles and matrices: several floats.
    case floats([Double])
    /// Binary, images, or bytes whose length does not fit the declared type.
    case data([UInt8])

    /// A short human-readable rendering.
    public var displayText: String {
        switch self {
        case .string(let text): return text
        case .signed(let value): return String(value)
        case .unsigned(let value): return String(value)
        case .float(let value): return String(value)
        case .floats(let values): return "(" + values.map { String($0) }.joined(separator: ", ") + ")"
        case .data(let bytes): return Hex.preview(bytes)
        }
    }

    public var integerValue: Int64? {
        switch self {
        case .signed(let value): return value
        case .unsigned(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// QuickTime well-known data types (namespace 0 of `dtyp`, type indicator of `data` atoms).
public enum WellKnownType {
    public static let binary: UInt32 = 0
    public static let utf8: UInt32 = 1
    public static let utf16: UInt32 = 2
    public static let utf8Sort: UInt32 = 4
    public static let utf16Sort: UInt32 = 5
    public static let jpeg: UInt32 = 13
    public static let png: UInt32 = 14
    public static let signedBE: UInt32 = 21
    public static let unsignedBE: UInt32 = 22
    public static let float32: UInt32 = 23
    public static let float64: UInt32 = 24
    public static let bmp: UInt32 = 27
    public static let int8: UInt32 = 65
    public static let int16: UInt32 = 66
    public static let int32: UInt32 = 67
    public static let point: UInt32 = 70
    public static let dimensions: UInt32 = 71
    public static let rect: UInt32 = 72
    public static let int64: UInt32 = 74
    public static let uint8: UInt32 = 75
    public static let uint16: UInt32 = 76
    public static let uint32: UInt32 = 77
    public static let uint64: UInt32 = 78
    public static let affine: UInt32 = 79

    public static func name(_ type: UInt32) -> String {
        switch type {
        case binary: return "binary"
        case utf8: return "UTF-8"
        case utf16: return "UTF-16"
        case utf8Sort: return "UTF-8 sort"
        case utf16Sort: return "UTF-16 sort"
        case jpeg: return "JPEG"
        case png: return "PNG"
        case signedBE: return "signed integer"
        case unsignedBE: return "unsigned integer"
        case float32: return "float32"
        case float64: return "float64"
        case bmp: return "BMP"
        case int8: return "int8"
        case int16: return "int16"
        case int32: return "int32"
        case point: return "point"
        case dimensions: return "dimensions"
        case rect: return "rect"
        case int64: return "int64"
        case uint8: return "uint8"
        case uint16: return "uint16"
        case uint32: return "uint32"
        case uint64: return "uint64"
        case affine: return "affine transform"
        default: return "type \(type)"
        }
    }

    /// The byte width of a fixed-width integer type (`int8` ... `uint64`), else 0. A switch, where
    /// a dictionary literal was built at every value decoded.
    static func integerWidth(_ type: UInt32) -> Int {
        switch type {
        case int8, uint8: return 1
        case int16, uint16: return 2
        case int32, uint32: return 4
        case int64, uint64: return 8
        default: return 0
        }
    }

    /// Decodes bytes read in place: text straight from them, any other type from a copy.
    public static func decode(_ bytes: ArraySlice<UInt8>, type: UInt32) -> MetadataValue {
        type == utf8 || type == utf8Sort ? .string(String(decoding: bytes, as: UTF8.self)) : decode(Array(bytes), type: type)
    }

    /// Decodes `bytes` as `type`. Bytes whose length does not fit a fixed-size type stay `.data`.
    public static func decode(_ bytes: [UInt8], type: UInt32) -> MetadataValue {
        func integer(_ width: Int?) -> UInt64? {
            guard !bytes.isEmpty, bytes.count <= 8, width == nil || width == bytes.count else { return nil }
            return bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        func signExtended(_ raw: UInt64, width: Int) -> Int64 {
            let shift = UInt64(64 - 8 * width)
            return Int64(bitPattern: raw << shift) >> Int64(shift)
        }
        func floats(_ width: Int, count: Int) -> [Double]? {
            guard bytes.count == width * count else { return nil }
            return (0..<count).map { index in
                let raw = bytes[(index * width)..<((index + 1) * width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                return width == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            }
        }
        switch type {
        case utf8, utf8Sort:
            return .string(String(decoding: bytes, as: UTF8.self))
        case utf16, utf16Sort:
            guard bytes.count % 2 == 0 else { return .data(bytes) }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case signedBE:
            guard [1, 2, 3, 4, 8].contains(bytes.count), let raw = integer(nil) else { return .data(bytes) }
            return .signed(signExtended(raw, width: bytes.count))
        case unsignedBE:
            guard [1, 2, 3, 4, 8].contains(bytes.count), let raw = integer(nil) else { return .data(bytes) }
            return .unsigned(raw)
        case int8, int16, int32, int64:
            let width = integerWidth(type)
            guard let raw = integer(width) else { return .data(bytes) }
            return .signed(signExtended(raw, width: width))
        case uint8, uint16, uint32, uint64:
            let width = integerWidth(type)
            guard let raw = integer(width) else { return .data(bytes) }
            return .unsigned(raw)
        case float32:
            guard let values = floats(4, count: 1) else { return .data(bytes) }
            return .float(values[0])
        case float64:
            guard let values = floats(8, count: 1) else { return .data(bytes) }
            return .float(values[0])
        case point, dimensions:
            return floats(4, count: 2).map(MetadataValue.floats) ?? .data(bytes)
        case rect:
            return floats(4, count: 4).map(MetadataValue.floats) ?? .data(bytes)
        case affine:
            return floats(8, count: 9).map(MetadataValue.floats) ?? .data(bytes)
        default:
            return .data(bytes)
        }
    }
}

enum Hex {
    static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    /// `0x0102…` for short data, a length and a prefix for long data.
    static func preview(_ bytes: [UInt8], limit: Int = 32) -> String {
        if bytes.count <= limit { return "0x" + string(bytes) }
        return "0x" + string(Array(bytes.prefix(limit))) + "… (\(bytes.count) bytes)"
    }
}
