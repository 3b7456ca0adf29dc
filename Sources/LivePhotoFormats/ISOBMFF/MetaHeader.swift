/// The start of a `meta` box. QuickTime's `meta` (movies' `moov/meta`) has no full-box header;
/// ISO's (HEIF, MP4 `udta/meta`) has version and flags. They are told apart by content: a
/// QuickTime `meta` starts with its `hdlr` box.
public enum MetaHeader {
    /// Whether the payload starts with the 4-byte full-box header.
    public static func hasFullBoxHeader(_ reader: ByteReader) -> Bool {
        if let head = reader.peek(8), head[4..<8].elementsEqual(Array("hdlr".utf8)) { return false }
        return reader.peek(4) == [0, 0, 0, 0]
    }

    /// Moves past the full-box header when there is one.
    public static func skip(_ reader: inout ByteReader) throws {
        if hasFullBoxHeader(reader) { try reader.skip(4) }
    }
}
