import LivePhotoFormats
import Testing

/// The first sample of a Google motion photo's metadata track, built here from the descriptor
/// layout (tag, expandable size, big-endian fields) and decoded.
struct MotionPhotoMetadataTests {
    static func descriptor(_ tag: UInt8, _ body: [UInt8], longSize: Bool = false) -> [UInt8] {
        let count = body.count
        let size: [UInt8] = longSize ? [0x80 | UInt8((count >> 21) & 0x7F), 0x80 | UInt8((count >> 14) & 0x7F), 0x80 | UInt8((count >> 7) & 0x7F), UInt8(count & 0x7F)]
                                     : [UInt8(count)]
        return [tag] + size + body
    }

    static func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func frame(_ time: Int64) -> [UInt8] { descriptor(0xC3, be(Float(0.5).bitPattern) + be(time)) }

    static func sample(primary: Int64?, scored: [Int64], declaredCount: UInt32? = nil) -> [UInt8] {
        let track = descriptor(0xC2, be(declaredCount ?? UInt32(scored.count)) + scored.flatMap(frame), longSize: true)
        let score = descriptor(0xC1, be(UInt32(7)) + (primary.map(frame) ?? []) + track, longSize: true)
        return descriptor(0xC0, score + descriptor(0xC4, descriptor(0xC5, [0x80]) + descriptor(0xC5, [0])), longSize: true)
    }

    @Test("the primary frame time and the scored frames' times are read; a missing primary frame is -1")
    func decodes() throws {
        let decoded = try MotionPhotoMetadata.decode(Self.sample(primary: 1_466_666, scored: [100, 300, 200]), base: 0, path: "mett")
        #expect(decoded.primaryFrameTimestampUs == 1_466_666)
        #expect(decoded.highResFrameTimestampsUs == [100, 300, 200])
        #expect(try MotionPhotoMetadata.decode(Self.sample(primary: nil, scored: []), base: 0, path: "mett").primaryFrameTimestampUs == -1)
    }

    @Test("hostile samples are errors with their offset, never large allocations or traps")
    func hostile() throws {
        // A count of frames that cannot fit the bytes.
        #expect(throws: ParseError.self) { try MotionPhotoMetadata.decode(Self.sample(primary: 0, scored: [1], declaredCount: .max), base: 0, path: "mett") }
        // Not a metadata descriptor; every cut of a good sample.
        #expect(throws: ParseError.self) { try MotionPhotoMetadata.decode([0xC1, 0], base: 0, path: "mett") }
        let good = Self.sample(primary: 5, scored: [1, 2])
        for cut in 0..<good.count {
            _ = try? MotionPhotoMetadata.decode(Array(good.prefix(cut)), base: 0, path: "mett")
        }
        #expect(throws: ParseError.self) { try MotionPhotoMetadata.decode(Array(good.prefix(good.count - 3)), base: 0, path: "mett") }
    }
}
