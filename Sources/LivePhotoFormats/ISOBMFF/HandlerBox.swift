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
        if let first = reader.peek(1)?.first, Int(first) == reader.remaining - 1, first > 0 {
            try reader.skip(1)
            name = String(decoding: try reader.restBytes(), as: UTF8.self)
        } else {
            name = try reader.cString()
        }
    }

    /// A QuickTime metadata handler (`mdta`) with an empty name, as cameras write it in `moov/meta`.
    public static let metadataBytes: [UInt8] = BoxWriter.fullBox("hdlr", BoxWriter.u32(0) + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 12) + [0])
}
