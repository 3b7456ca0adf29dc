/// A capture date to write into a movie: the `com.apple.quicktime.creationdate` key's text (the
/// still's wall clock and zone) and the instant for the movie, track and media headers.
public struct CaptureDateEdit: Sendable, Equatable {
    /// ISO 8601 as cameras write the key: `2025-10-12T23:36:14+1300`.
    public var keyText: String
    /// Seconds since 1904-01-01 00:00 UTC (QuickTime's epoch), whole.
    public var quickTimeSeconds: UInt64

    public init(keyText: String, quickTimeSeconds: UInt64) {
        (self.keyText, self.quickTimeSeconds) = (keyText, quickTimeSeconds)
    }
}

/// Sets the creation and modification times of `mvhd`, and of `tkhd` and `mdhd` inside a
/// track, in a box's bytes in place: the fields keep their width (32 bits in version 0, 64 in
/// version 1), so no size or offset changes.
enum HeaderTimes {
    /// `bytes` (a whole `mvhd`, `tkhd` or `mdhd` box) with both times set.
    static func setting(_ bytes: [UInt8], headerSize: Int, seconds: UInt64, path: String) throws -> [UInt8] {
        var reader = ByteReader(bytes, base: 0, path: path)
        try reader.skip(headerSize)
        let version = try reader.u8()
        let wide = version == 1
        let first = headerSize + 4
        guard bytes.count >= first + (wide ? 16 : 8) else { throw WriteError(.missingStructure, "\(path) is too short for its times") }
        if !wide && seconds > UInt64(UInt32.max) {
            throw WriteError(.fieldOverflow, "\(path) (version 0) cannot hold a time after 2040-02-06")
        }
        var result = bytes
        let field = wide ? BoxWriter.u64(seconds) : BoxWriter.u32(UInt32(truncatingIfNeeded: seconds))
        result.replaceSubrange(first..<(first + field.count), with: field)
        result.replaceSubrange((first + field.count)..<(first + 2 * field.count), with: field)
        return result
    }

    /// A whole `trak` box's bytes with its `tkhd` and `mdia/mdhd` times set, and how many were.
    static func settingTrack(_ trak: [UInt8], headerSize: Int, seconds: UInt64, path: String) throws -> (bytes: [UInt8], set: Int) {
        var result = trak
        var set = 0
        var reader = ByteReader(trak, base: 0, path: path)
        try reader.skip(headerSize)
        for (box, payload) in try BoxIterator.all(try reader.rest(path: path)) {
            if box.type == "tkhd" {
                try replace(box, seconds: seconds, path: path + "/tkhd")
            } else if box.type == "mdia" {
                for (inner, _) in try BoxIterator.all(payload) where inner.type == "mdhd" {
                    try replace(inner, seconds: seconds, path: path + "/mdia/mdhd")
                }
            }
        }
        return (result, set)

        func replace(_ box: Box, seconds: UInt64, path: String) throws {
            let range = Int(box.offset)..<Int(box.end)
            guard range.lowerBound >= 0, range.upperBound <= result.count else { throw WriteError(.missingStructure, "\(path) lies outside its track") }
            let updated = try setting(Array(result[range]), headerSize: box.headerSize, seconds: seconds, path: path)
            result.replaceSubrange(range, with: updated)
            set += 1
        }
    }
}
