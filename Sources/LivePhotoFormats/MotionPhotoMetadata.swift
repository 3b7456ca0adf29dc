/// The first sample of a Google motion photo's metadata track (`mett` entry, MIME type
/// `application/motionphoto-image-meta`): ISO/IEC 14496-1 style descriptors, each a tag byte,
/// a size of one to four bytes (seven bits each, the high bit saying another follows) and the
/// fields, big-endian. Layout from libmotionphoto's `video_metadata.h`:
/// MetadataDescriptor (0xC0) { ScoreDescriptor (0xC1) { u32 model version; FrameScore (0xC3)
/// of the primary image; TrackScore (0xC2) { u32 count; FrameScore × count } }; flags (0xC4) },
/// FrameScore { f32 score; i64 presentation time in µs }.
public struct MotionPhotoMetadata: Sendable, Equatable {
    /// The primary image's frame time in µs; -1 when the sample gives none (the reader's default).
    public var primaryFrameTimestampUs: Int64 = -1
    /// Where that time's eight bytes are (an offset in the movie the sample was read from); nil
    /// when the sample gives none. keyphoto of a motion photo writes the new frame's time there.
    public var primaryFrameTimestampOffset: Int64?
    /// The high-resolution track's scored frames' times, in the sample's order.
    public var highResFrameTimestampsUs: [Int64] = []

    public static let mime = "application/motionphoto-image-meta"

    static let metadataTag: UInt8 = 0xC0, scoreTag: UInt8 = 0xC1, trackScoreTag: UInt8 = 0xC2, frameScoreTag: UInt8 = 0xC3

    /// Decodes a sample. Every size is checked against the bytes left; a frame count larger than
    /// the frames that fit is an error before anything is kept.
    public static func decode(_ bytes: [UInt8], base: Int64, path: String) throws -> MotionPhotoMetadata {
        var reader = ByteReader(bytes, base: base, path: path)
        var metadata = MotionPhotoMetadata()
        guard var outer = try descriptor(&reader, metadataTag) else {
            throw reader.error(.invalidValue, "the motion-photo metadata sample does not start with a MetadataDescriptor (tag 0xC0)")
        }
        guard var score = try descriptor(&outer, scoreTag) else { return metadata }
        _ = try score.u32()
        if var frame = try descriptor(&score, frameScoreTag) {
            metadata.primaryFrameTimestampOffset = frame.offset + 4
            metadata.primaryFrameTimestampUs = try frameTimestamp(&frame)
        }
        if var track = try descriptor(&score, trackScoreTag) {
            let count = try track.u32()
            // A frame descriptor takes at least 2 bytes (tag and size).
            guard UInt64(count) * 2 <= UInt64(track.remaining) else {
                throw track.error(.limitExceeded, "\(count) scored frames in \(track.remaining) bytes")
            }
            for _ in 0..<count {
                if var frame = try descriptor(&track, frameScoreTag) {
                    metadata.highResFrameTimestampsUs.append(try frameTimestamp(&frame))
                } else {
                    _ = try track.u8()
                    try track.skip(Int(try size(&track)))
                }
            }
        }
        return metadata
    }

    /// The descriptor with `tag` next in `reader`, as a reader of its body (moved past it), or
    /// nil when the next byte is another tag or nothing is left (nothing read then).
    static func descriptor(_ reader: inout ByteReader, _ tag: UInt8) throws -> ByteReader? {
        guard reader.remaining > 0, reader.peek(1)?.first == tag else { return nil }
        _ = try reader.u8()
        let length = try size(&reader)
        guard length <= reader.remaining else {
            throw reader.error(.invalidSize, "descriptor 0x\(String(tag, radix: 16, uppercase: true)) of \(length) bytes with \(reader.remaining) left")
        }
        return try reader.sub(count: Int(length))
    }

    /// An expandable size: up to four bytes of seven bits.
    static func size(_ reader: inout ByteReader) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try reader.u8()
            value = value << 7 | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }

    static func frameTimestamp(_ frame: inout ByteReader) throws -> Int64 {
        _ = try frame.u32()  // the score, a 32-bit float
        return try frame.i64()
    }
}
