/// A minimal TIFF/EXIF structure walker: IFD0, the Exif and GPS sub-IFDs, and where the
/// MakerNote sits. Standard tags are decoded by libexif (`ExifReader`); this walker exists to
/// find byte ranges (the MakerNote, which libexif cannot be trusted with) and to validate offsets.
public struct TIFFLayout: Sendable, Equatable {
    public var littleEndian: Bool
    /// Range of the MakerNote value inside the TIFF bytes.
    public var makerNoteRange: Range<Int>?
    public var make: String?
    public var model: String?
    public var software: String?
    /// Range of the IFD1 JPEG thumbnail inside the TIFF bytes.
    public var thumbnailRange: Range<Int>?
    /// What the file says of its capture: IFD0 Orientation (1–8), the Exif IFD's
    /// DateTimeOriginal, SubSecTimeOriginal and OffsetTimeOriginal as written, and the GPS
    /// position in degrees (north and east positive). Nil when absent or not of its type.
    public var capture = Capture()

    public struct Capture: Sendable, Equatable {
        public var orientation: UInt16?
        public var dateTimeOriginal: String?
        public var subSecTimeOriginal: String?
        public var offsetTimeOriginal: String?
        public var latitude: Double?
        public var longitude: Double?
        public init() {}
    }

    static let exifIFDPointer: UInt16 = 0x8769
    static let gpsIFDPointer: UInt16 = 0x8825
    static let makerNoteTag: UInt16 = 0x927C

    /// Walks `tiff` (bytes starting with `II*\0` or `MM\0*`). `base` is the TIFF header's file offset.
    public static func read(_ tiff: [UInt8], base: Int64, path: String) throws -> TIFFLayout {
        var reader = ByteReader(tiff, base: base, path: path)
        let order = try reader.u16()
        guard order == 0x4949 || order == 0x4D4D else {
            throw reader.error(.invalidValue, "TIFF byte order mark 0x\(String(order, radix: 16)) is neither II nor MM")
        }
        let little = order == 0x4949
        guard try reader.u16(littleEndian: little) == 42 else { throw reader.error(.invalidValue, "TIFF magic is not 42") }
        var layout = TIFFLayout(littleEndian: little)
        let ifd0Offset = Int(try reader.u32(littleEndian: little))
        let ifd0 = try entries(tiff, at: ifd0Offset, little: little, base: base, path: path + "/IFD0")
        layout.thumbnailRange = try? thumbnail(tiff, ifd0Offset: ifd0Offset, count: ifd0.count, little: little, base: base, path: path)
        for entry in ifd0 {
            switch entry.tag {
            case 0x010F: layout.make = entry.ascii(tiff)
            case 0x0110: layout.model = entry.ascii(tiff)
            case 0x0131: layout.software = entry.ascii(tiff)
            case 0x0112: layout.capture.orientation = entry.short(little: little).flatMap { (1...8).contains($0) ? $0 : nil }
            case exifIFDPointer:
                let exif = try entries(tiff, at: Int(entry.valueOrOffset), little: little, base: base, path: path + "/ExifIFD")
                for entry in exif {
                    switch entry.tag {
                    case makerNoteTag where layout.makerNoteRange == nil: layout.makerNoteRange = entry.range
                    case 0x9003: layout.capture.dateTimeOriginal = entry.ascii(tiff)
                    case 0x9291: layout.capture.subSecTimeOriginal = entry.ascii(tiff)
                    case 0x9011: layout.capture.offsetTimeOriginal = entry.ascii(tiff)
                    default: break
                    }
                }
            case gpsIFDPointer:
                // A damaged GPS IFD loses the position only, not the rest of the EXIF.
                let gps = gpsEntries(tiff, at: Int(entry.valueOrOffset), little: little)
                (layout.capture.latitude, layout.capture.longitude) = position(gps, tiff: tiff, little: little)
            default: break
            }
        }
        return layout
    }

    /// GPS tags 1–4 of the GPS IFD at `offset` (the others are not needed), each value range
    /// checked against the bytes; none when the IFD does not fit them.
    static func gpsEntries(_ tiff: [UInt8], at offset: Int, little: Bool) -> [Entry] {
        func load<T: FixedWidthInteger>(_ at: Int, as: T.Type) -> T {
            let raw = tiff.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) }
            return little ? T(littleEndian: raw) : T(bigEndian: raw)
        }
        guard offset >= 0, offset <= tiff.count - 2 else { return [] }
        let count = Int(load(offset, as: UInt16.self))
        guard count <= Limits.maxIFDEntries, 12 * count <= tiff.count - offset - 2 else { return [] }
        var found: [Entry] = []
        for index in 0..<count {
            let at = offset + 2 + 12 * index
            let tag = load(at, as: UInt16.self)
            guard (1...4).contains(tag) else { continue }
            let type = load(at + 2, as: UInt16.self), components = load(at + 4, as: UInt32.self), value = load(at + 8, as: UInt32.self)
            guard let unit = typeSize(type), components <= 8 else { continue }
            let size = unit * Int(components)
            let start = size <= 4 ? at + 8 : Int(value)
            guard start >= 0, start <= tiff.count - size else { continue }
            found.append(Entry(position: at, tag: tag, type: type, count: components, valueOrOffset: value, range: start..<(start + size)))
        }
        return found
    }

    /// Latitude and longitude from GPS tags 1–4 (reference letter, then degrees, minutes and
    /// seconds as three rationals); neither when either is missing, out of range, or has a zero
    /// denominator (a longitude alone is no place: Samsung's ss-motion-photo writes one, with
    /// no latitude, and ExifTool gives no position for it either).
    static func position(_ gps: [Entry], tiff: [UInt8], little: Bool) -> (Double?, Double?) {
        func coordinate(reference: UInt16, value: UInt16, negative: UInt8, limit: Double) -> Double? {
            // The reference is one letter (and its NUL) held in the entry itself.
            guard let letter = gps.first(where: { $0.tag == reference }), letter.type == 2, (1...2).contains(letter.count),
                  let at = letter.range?.lowerBound, let parts = gps.first(where: { $0.tag == value })?.degrees(tiff, little: little) else { return nil }
            let degrees = parts.0 + parts.1 / 60 + parts.2 / 3600
            guard degrees.isFinite, abs(degrees) <= limit else { return nil }
            return tiff[at] == negative ? -degrees : degrees
        }
        guard let latitude = coordinate(reference: 1, value: 2, negative: UInt8(ascii: "S"), limit: 90),
              let longitude = coordinate(reference: 3, value: 4, negative: UInt8(ascii: "W"), limit: 180) else { return (nil, nil) }
        return (latitude, longitude)
    }

    /// IFD1 (after IFD0's entries comes the offset of the next IFD) and its JPEG thumbnail
    /// (0x0201 offset, 0x0202 length).
    static func thumbnail(_ tiff: [UInt8], ifd0Offset: Int, count: Int, little: Bool, base: Int64, path: String) throws -> Range<Int>? {
        var reader = ByteReader(tiff, base: base, path: path)
        try reader.seek(toRelative: ifd0Offset + 2 + 12 * count)
        let next = Int(try reader.u32(littleEndian: little))
        guard next > 0 else { return nil }
        let ifd1 = try entries(tiff, at: next, little: little, base: base, path: path + "/IFD1")
        func number(_ tag: UInt16) -> Int? {
            guard let entry = ifd1.first(where: { $0.tag == tag }), entry.count == 1, entry.type == 4 || entry.type == 3 else { return nil }
            return entry.type == 3 ? Int(little ? entry.valueOrOffset & 0xFFFF : entry.valueOrOffset >> 16) : Int(entry.valueOrOffset)
        }
        guard let start = number(0x0201), let length = number(0x0202), start >= 0, length > 0, start <= tiff.count - length else { return nil }
        return start..<(start + length)
    }

    struct Entry {
        /// Where the 12-byte entry starts in the bytes it was read from.
        var position: Int = 0
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var valueOrOffset: UInt32
        /// Where the value's bytes are inside the TIFF (nil for a type TIFF does not define).
        var range: Range<Int>?

        /// A single SHORT value.
        func short(little: Bool) -> UInt16? {
            guard type == 3, count == 1 else { return nil }
            return UInt16(truncatingIfNeeded: little ? valueOrOffset & 0xFFFF : valueOrOffset >> 16)
        }

        /// Three RATIONAL or SRATIONAL values (degrees, minutes, seconds; some cameras write GPS
        /// as signed); nil for another count or a zero denominator.
        func degrees(_ tiff: [UInt8], little: Bool) -> (Double, Double, Double)? {
            guard type == 5 || type == 10, count == 3, let range, range.count == 24 else { return nil }
            func rational(_ index: Int) -> Double? {
                let at = range.lowerBound + 8 * index
                func word(_ offset: Int) -> UInt32 {
                    let raw = tiff.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at + offset, as: UInt32.self) }
                    return little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
                }
                let numerator = type == 10 ? Double(Int32(bitPattern: word(0))) : Double(word(0))
                let denominator = type == 10 ? Double(Int32(bitPattern: word(4))) : Double(word(4))
                return denominator == 0 ? nil : numerator / denominator
            }
            guard let degrees = rational(0), let minutes = rational(1), let seconds = rational(2) else { return nil }
            return (degrees, minutes, seconds)
        }

        func ascii(_ tiff: [UInt8]) -> String? {
            guard type == 2, let range else { return nil }
            let text = tiff[range].prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self).trimmingSpaces
        }
    }

    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12, 16, 17, 18: return 8
        default: return nil
        }
    }

    /// Reads one IFD's entries, checking every value range against `tiff`, the bytes that value
    /// offsets count from (a whole TIFF, or an Apple MakerNote). `base` is their file offset.
    static func entries(_ tiff: [UInt8], at offset: Int, little: Bool, base: Int64, path: String) throws -> [Entry] {
        var reader = ByteReader(tiff, base: base, path: path)
        try reader.seek(toRelative: offset)
        let count = Int(try reader.u16(littleEndian: little))
        guard count <= Limits.maxIFDEntries else { throw reader.error(.limitExceeded, "IFD with \(count) entries") }
        _ = try reader.checkCount(UInt64(count), entrySize: 12, what: "IFD")
        // The entries' bytes were just checked (`count` entries of 12 bytes from `first`): each
        // field is loaded from them directly, not through a checked read per field.
        let first = reader.position
        assert(first >= 0 && first + 12 * count <= tiff.count)
        func load<T: FixedWidthInteger>(_ at: Int, as: T.Type) -> T {
            let raw = tiff.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) }
            return little ? T(littleEndian: raw) : T(bigEndian: raw)
        }
        var result: [Entry] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let at = first + 12 * index
            let tag = load(at, as: UInt16.self)
            let type = load(at + 2, as: UInt16.self)
            let components = load(at + 4, as: UInt32.self)
            let value = load(at + 8, as: UInt32.self)
            guard let unit = typeSize(type) else {
                result.append(Entry(position: at, tag: tag, type: type, count: components, valueOrOffset: value, range: nil))
                continue
            }
            let (total, overflow) = UInt64(components).multipliedReportingOverflow(by: UInt64(unit))
            guard !overflow, total <= UInt64(tiff.count) else {
                throw ParseError(.invalidSize, "tag 0x\(String(tag, radix: 16)) claims \(components) values", offset: base + Int64(at), path: path)
            }
            let size = Int(total)
            let start = size <= 4 ? at + 8 : Int(value)
            guard start >= 0, start <= tiff.count - size else {
                throw ParseError(.invalidSize, "tag 0x\(String(tag, radix: 16)) value at \(start) (+\(size)) lies outside the \(tiff.count)-byte TIFF",
                                 offset: base + Int64(at), path: path)
            }
            result.append(Entry(position: at, tag: tag, type: type, count: components, valueOrOffset: value, range: start..<(start + size)))
        }
        return result
    }
}

extension String {
    /// Without trailing spaces and NULs and leading spaces (EXIF text fields pad with both).
    var trimmingSpaces: String {
        // ASCII text (nearly every Make and Model) is trimmed on its bytes, where each byte is a
        // character; only other text needs the slower walk over characters.
        var text = self
        let trimmed: String?? = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var end = bytes.count
            while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0 { end -= 1 }
            var start = 0
            while start < end, bytes[start] == 0x20 { start += 1 }
            if start == 0, end == bytes.count { return .some(nil) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        if let trimmed { return trimmed ?? self }
        var scalars = Substring(self)
        while scalars.last == " " || scalars.last == "\0" { scalars.removeLast() }
        while scalars.first == " " { scalars.removeFirst() }
        return String(scalars)
    }
}
