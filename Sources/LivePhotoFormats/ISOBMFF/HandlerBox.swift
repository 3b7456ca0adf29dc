/// `hdlr`: the handler type (`vide`, `soun`, `meta`, `mdta`, `pict`, ...) and its name, which
/// QuickTime writes as a Pascal string and ISO as a C string.
public struct HandlerBox: Sendable, Equatable {
    public var subtype: FourCC
    public var name: String

    /// Parses the payload of an `hdlr` box (after its box header).
    public init(parsing reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        try reader.skip(4)
        subtype = try reader.fourCC()
        try reader.skip(12)
        guard reader.remaining > 0 else {
            name = ""
            return
        }
        // The name runs to the box's end: a counted string (QuickTime) or a NUL-terminated one
        // (ISO), which writers often pad with more NULs; the padding is part of the field.
        guard reader.remaining <= Limits.maxStringBytes + 1 || reader.peek(Limits.maxStringBytes)?.contains(0) == true else {
            throw reader.error(.limitExceeded, "handler name of \(reader.remaining) bytes")
        }
        let rest = reader.restSlice()
        if let first = rest.first, Int(first) == rest.count - 1, first > 0 {
            name = String(decoding: rest.dropFirst(), as: UTF8.self)
        } else {
            name = String(decoding: rest.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// A QuickTime metadata handler (`mdta`) with an empty name, as cameras write it in `moov/meta`.
    public static let metadataBytes: [UInt8] = BoxWriter.fullBox("hdlr", BoxWriter.u32(0) + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 12) + [0])
}
