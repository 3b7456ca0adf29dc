/// An animated GIF's structure (GIF89a, W3C/CompuServe 1990): the logical screen, the global
/// palette, each frame's rectangle, palette, graphic control (disposal, transparency, delay) and
/// where its LZW data lies; the NETSCAPE2.0 loop count. Read block by block without decoding a
/// pixel, every length checked against the bytes, frames counted against `maxFrames`. Pixels
/// are the codec layer's (`GIFDecoder`).
public struct GIFStructure: Sendable {
    public struct Frame: Sendable {
        public var left: Int, top: Int, width: Int, height: Int
        public var interlaced: Bool
        /// The local palette's offset and entry count, when the frame has one.
        public var localPalette: (offset: Int, count: Int)?
        /// Graphic Control Extension: disposal method (0–3; others read as 0), transparent index.
        public var disposal: Int
        public var transparentIndex: Int?
        /// The delay as written, in centiseconds.
        public var delay: Int
        /// The LZW minimum code size and the offset of the first data sub-block.
        public var codeSize: Int
        public var dataOffset: Int
        /// The image descriptor's offset (for messages).
        public var offset: Int

        /// How long a browser shows it: delays under 2 cs are shown as 10 cs.
        public var shownDelay: Int { delay < 2 ? 10 : delay }
    }

    public var version: String
    /// The logical screen as shown: the declared one, grown to hold the first frame when that
    /// frame does not fit it, as Firefox's and Chromium's GIF readers (and Pillow) do; later
    /// frames are clipped to it.
    public var width: Int
    public var height: Int
    /// The logical screen as the header declares it.
    public var declaredWidth: Int
    public var declaredHeight: Int
    public var globalPalette: (offset: Int, count: Int)?
    public var backgroundIndex: Int
    public var frames: [Frame] = []
    /// NETSCAPE2.0's loop count (0 forever), when given.
    public var loopCount: Int?
    /// Whether the trailer (0x3B) was reached.
    public var complete = false

    public static let maxFrames = 10_000

    /// Whether the bytes start as a GIF.
    public static func isGIF(_ head: [UInt8]) -> Bool {
        head.count >= 6 && (head.prefix(6).elementsEqual("GIF87a".utf8) || head.prefix(6).elementsEqual("GIF89a".utf8))
    }

    public init(_ bytes: [UInt8], path: String = "", maxFrames: Int = GIFStructure.maxFrames) throws {
        var reader = ByteReader(bytes, base: 0, path: path)
        let signature = try reader.read(6)
        guard Self.isGIF(Array(signature)) else { throw reader.error(.invalidValue, "not a GIF (no GIF87a or GIF89a signature)") }
        version = String(decoding: signature.suffix(3), as: UTF8.self)
        width = Int(try reader.u16(littleEndian: true))
        height = Int(try reader.u16(littleEndian: true))
        (declaredWidth, declaredHeight) = (width, height)
        let packed = try reader.u8()
        backgroundIndex = Int(try reader.u8())
        try reader.skip(1)
        if packed & 0x80 != 0 {
            let count = 1 << (Int(packed & 7) + 1)
            try reader.require(count * 3, "the global colour table")
            globalPalette = (reader.position, count)
            try reader.skip(count * 3)
        }
        var control: (disposal: Int, transparent: Int?, delay: Int)? = nil
        while reader.remaining > 0 {
            let introducer = try reader.u8()
            switch introducer {
            case 0x3B:
                complete = true
                return
            case 0x21:
                let label = try reader.u8()
                if label == 0xF9 {
                    let size = Int(try reader.u8())
                    guard size >= 4 else { throw reader.error(.invalidValue, "a graphic control extension of \(size) bytes (4 expected)") }
                    let flags = try reader.u8()
                    let delay = Int(try reader.u16(littleEndian: true))
                    let index = Int(try reader.u8())
                    try reader.skip(size - 4)
                    let disposal = Int(flags >> 2 & 7)
                    control = (disposal <= 3 ? disposal : 0, flags & 1 != 0 ? index : nil, delay)
                    try Self.skipSubBlocks(&reader)
                } else if label == 0xFF {
                    let size = Int(try reader.u8())
                    let identifier = try reader.read(size)
                    if identifier.elementsEqual("NETSCAPE2.0".utf8) || identifier.elementsEqual("ANIMEXTS1.0".utf8) {
                        let block = Int(try reader.u8())
                        if block >= 3 {
                            let kind = try reader.u8()
                            let count = Int(try reader.u16(littleEndian: true))
                            if kind == 1 { loopCount = count }
                            try reader.skip(block - 3)
                        } else {
                            try reader.skip(block)
                        }
                        if block > 0 { try Self.skipSubBlocks(&reader) }
                    } else {
                        try Self.skipSubBlocks(&reader)
                    }
                } else {
                    try Self.skipSubBlocks(&reader)
                }
            case 0x2C:
                let offset = reader.position - 1
                guard frames.count < maxFrames else { throw reader.error(.limitExceeded, "more than \(maxFrames) frames (--max-frames)") }
                let left = Int(try reader.u16(littleEndian: true)), top = Int(try reader.u16(littleEndian: true))
                let frameWidth = Int(try reader.u16(littleEndian: true)), frameHeight = Int(try reader.u16(littleEndian: true))
                let flags = try reader.u8()
                var local: (Int, Int)? = nil
                if flags & 0x80 != 0 {
                    let count = 1 << (Int(flags & 7) + 1)
                    try reader.require(count * 3, "frame \(frames.count + 1)'s local colour table")
                    local = (reader.position, count)
                    try reader.skip(count * 3)
                }
                guard local != nil || globalPalette != nil else {
                    throw ParseError(.invalidValue, "frame \(frames.count + 1) has no colour table, local or global", offset: Int64(offset), path: path)
                }
                let codeSize = Int(try reader.u8())
                guard (2...8).contains(codeSize) else {
                    throw ParseError(.invalidValue, "frame \(frames.count + 1)'s LZW minimum code size is \(codeSize) (2 to 8)", offset: Int64(reader.position - 1), path: path)
                }
                let dataOffset = reader.position
                try Self.skipSubBlocks(&reader)
                if frames.isEmpty { (width, height) = (max(width, left + frameWidth), max(height, top + frameHeight)) }
                frames.append(Frame(left: left, top: top, width: frameWidth, height: frameHeight, interlaced: flags & 0x40 != 0, localPalette: local,
                                    disposal: control?.disposal ?? 0, transparentIndex: control?.transparent, delay: control?.delay ?? 0,
                                    codeSize: codeSize, dataOffset: dataOffset, offset: offset))
                control = nil
            default:
                throw ParseError(.invalidValue, "byte 0x\(String(introducer, radix: 16)) where a block (0x21, 0x2C) or the trailer (0x3B) belongs", offset: Int64(reader.position - 1), path: path)
            }
        }
    }

    /// Data sub-blocks: a size byte, that many bytes, until a size of 0.
    static func skipSubBlocks(_ reader: inout ByteReader) throws {
        while true {
            let size = Int(try reader.u8())
            if size == 0 { return }
            try reader.skip(size)
        }
    }

    /// Each frame's start in centiseconds, as shown (`shownDelay`), and the total.
    public var shownStarts: (starts: [Int], total: Int) {
        var starts: [Int] = [], total = 0
        for frame in frames {
            starts.append(total)
            total += frame.shownDelay
        }
        return (starts, total)
    }
}
