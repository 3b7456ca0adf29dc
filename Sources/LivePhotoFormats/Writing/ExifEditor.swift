/// Writes the Live Photo content identifier (Apple MakerNote tag 0x0011) into TIFF/EXIF bytes.
/// Nothing existing moves: an equal-length identifier is rewritten in place; otherwise the new
/// MakerNote (and, when needed, a new Exif IFD or IFD0) is appended to the TIFF and pointed to,
/// so every other value keeps its offset. Apple MakerNote offsets count from the MakerNote's own
/// start, so it can move as a whole.
public enum ExifEditor {
    public struct Result {
        public var tiff: [UInt8]
        public var note: String
        /// True when the TIFF kept its size (an in-place change).
        public var inPlace: Bool
    }

    struct Writer {
        let little: Bool
        func u16(_ value: UInt16) -> [UInt8] { little ? [UInt8(value & 0xFF), UInt8(value >> 8)] : BoxWriter.u16(value) }
        func u32(_ value: UInt32) -> [UInt8] { little ? BoxWriter.u32(value).reversed() : BoxWriter.u32(value) }
    }

    /// An IFD entry to write: values up to 4 bytes are stored inline.
    struct NewEntry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
        /// The 4-byte offset field of a value that stays where it is.
        var existingOffset: [UInt8]? = nil

        /// An entry copied from an existing IFD: inline values copied, out-of-line values left in
        /// place and pointed to.
        static func copied(_ entry: TIFFLayout.Entry, from tiff: [UInt8], writer: Writer) -> NewEntry {
            if let range = entry.range, range.count > 4 {
                return NewEntry(tag: entry.tag, type: entry.type, count: entry.count, value: [], existingOffset: writer.u32(UInt32(range.lowerBound)))
            }
            let inline = entry.range.map { Array(tiff[$0]) } ?? writer.u32(entry.valueOrOffset)
            return NewEntry(tag: entry.tag, type: entry.type, count: entry.count, value: inline)
        }
    }

    /// Lays out an IFD at `start` (relative to `base` of the offsets) followed by its values.
    static func ifd(_ entries: [NewEntry], start: Int, next: UInt32, writer: Writer) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var table = writer.u16(UInt16(sorted.count))
        var values: [UInt8] = []
        let valuesStart = start + 2 + 12 * sorted.count + 4
        for entry in sorted {
            table += writer.u16(entry.tag) + writer.u16(entry.type) + writer.u32(entry.count)
            if let existing = entry.existingOffset {
                table += existing
            } else if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += writer.u32(UInt32(valuesStart + values.count))
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return table + writer.u32(next) + values
    }

    /// An Apple MakerNote holding `entries`; `header` is the 14-byte `Apple iOS\0` + version + byte order.
    static func makerNote(header: [UInt8], entries: [NewEntry], little: Bool) -> [UInt8] {
        header + ifd(entries, start: header.count, next: 0, writer: Writer(little: little))
    }

    static func identifierEntry(_ identifier: String) -> NewEntry {
        let bytes = Array(identifier.utf8) + [0]
        return NewEntry(tag: AppleMakerNote.contentIdentifierTag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    static let freshHeader: [UInt8] = AppleMakerNote.signature + [0, 1] + Array("MM".utf8)

    /// A minimal TIFF holding only an Exif IFD with the MakerNote (for files without EXIF).
    public static func newTIFF(identifier: String) -> [UInt8] {
        let writer = Writer(little: false)
        let note = makerNote(header: freshHeader, entries: [identifierEntry(identifier)], little: false)
        let ifd0 = ifd([NewEntry(tag: TIFFLayout.exifIFDPointer, type: 4, count: 1, value: writer.u32(8 + 2 + 12 + 4))], start: 8, next: 0, writer: writer)
        let exifStart = 8 + ifd0.count
        let exif = ifd([NewEntry(tag: 0x9000, type: 7, count: 4, value: Array("0232".utf8)),
                        NewEntry(tag: TIFFLayout.makerNoteTag, type: 7, count: UInt32(note.count), value: note)],
                       start: exifStart, next: 0, writer: writer)
        return Array("MM".utf8) + [0, 42] + writer.u32(8) + ifd0 + exif
    }

    public static func settingContentIdentifier(_ tiff: [UInt8], identifier: String, path: String = "Exif") throws -> Result {
        var reader = ByteReader(tiff, base: 0, path: path)
        let order = try reader.u16()
        guard order == 0x4949 || order == 0x4D4D else { throw reader.error(.invalidValue, "not a TIFF header") }
        let little = order == 0x4949
        let writer = Writer(little: little)
        try reader.skip(2)
        let ifd0Offset = Int(try reader.u32(littleEndian: little))
        let ifd0 = try TIFFLayout.entries(tiff, at: ifd0Offset, little: little, base: 0, path: path + "/IFD0")
        let exifPointer = ifd0.first { $0.tag == TIFFLayout.exifIFDPointer }
        let exifEntries = try exifPointer.map { try TIFFLayout.entries(tiff, at: Int($0.valueOrOffset), little: little, base: 0, path: path + "/ExifIFD") } ?? []
        let noteEntry = exifEntries.first { $0.tag == TIFFLayout.makerNoteTag }
        var out = tiff

        // An Apple MakerNote exists: rewrite 0x0011 in place when lengths match, else rebuild it.
        var replaced = ""
        if let noteEntry, let range = noteEntry.range, AppleMakerNote.isAppleMakerNote(tiff[range]) {
            let note = Array(tiff[range])
            let noteLittle = note[12] == 0x49
            let entries = try TIFFLayout.entries(note, at: 14, little: noteLittle, base: 0, path: path + "/MakerApple")
            let wanted = Array(identifier.utf8) + [0]
            if let current = entries.first(where: { $0.tag == AppleMakerNote.contentIdentifierTag }), current.type == 2,
               let valueRange = current.range, valueRange.count == wanted.count {
                out.replaceSubrange((range.lowerBound + valueRange.lowerBound)..<(range.lowerBound + valueRange.upperBound), with: wanted)
                return Result(tiff: out, note: "MakerApple 0x0011 rewritten in place", inPlace: true)
            }
            // The MakerNote moves as a whole, so its values are copied into the rebuilt one.
            var kept = entries.filter { $0.tag != AppleMakerNote.contentIdentifierTag }.map { entry -> NewEntry in
                NewEntry(tag: entry.tag, type: entry.type, count: entry.count, value: entry.range.map { Array(note[$0]) } ?? Writer(little: noteLittle).u32(entry.valueOrOffset))
            }
            kept.append(identifierEntry(identifier))
            let rebuilt = makerNote(header: Array(note.prefix(14)), entries: kept, little: noteLittle)
            if out.count % 2 == 1 { out.append(0) }
            let at = out.count
            out += rebuilt
            out.replaceSubrange((noteEntry.position + 4)..<(noteEntry.position + 12), with: writer.u32(UInt32(rebuilt.count)) + writer.u32(UInt32(at)))
            return Result(tiff: out, note: "MakerApple rebuilt with 0x0011 (\(kept.count) entries, moved to the end of the TIFF)", inPlace: false)
        } else if noteEntry != nil {
            replaced = " (the existing non-Apple MakerNote is replaced)"
        }

        // No Apple MakerNote: append one, with a new Exif IFD (and a new IFD0 when there was no Exif IFD).
        let note = makerNote(header: freshHeader, entries: [identifierEntry(identifier)], little: false)
        if out.count % 2 == 1 { out.append(0) }
        var exif = exifEntries.filter { $0.tag != TIFFLayout.makerNoteTag }.map { NewEntry.copied($0, from: tiff, writer: writer) }
        exif.append(NewEntry(tag: TIFFLayout.makerNoteTag, type: 7, count: UInt32(note.count), value: note))
        let exifAt = out.count
        out += ifd(exif, start: exifAt, next: 0, writer: writer)
        if let exifPointer {
            out.replaceSubrange((exifPointer.position + 8)..<(exifPointer.position + 12), with: writer.u32(UInt32(exifAt)))
            return Result(tiff: out, note: "Apple MakerNote with 0x0011 added in a new Exif IFD\(replaced)", inPlace: false)
        }
        var zeroth = ifd0.map { NewEntry.copied($0, from: tiff, writer: writer) }
        zeroth.append(NewEntry(tag: TIFFLayout.exifIFDPointer, type: 4, count: 1, value: writer.u32(UInt32(exifAt))))
        var nextReader = ByteReader(tiff, base: 0, path: path)
        try nextReader.seek(toRelative: ifd0Offset + 2 + 12 * ifd0.count)
        let next = try nextReader.u32(littleEndian: little)
        if out.count % 2 == 1 { out.append(0) }
        let ifd0At = out.count
        out += ifd(zeroth, start: ifd0At, next: next, writer: writer)
        out.replaceSubrange(4..<8, with: writer.u32(UInt32(ifd0At)))
        return Result(tiff: out, note: "Exif IFD with an Apple MakerNote (0x0011) added", inPlace: false)
    }
}


/// The tags of a still made from a movie's frame, as the movie states them: its capture time,
/// device, place, orientation and size. Each is written when given.
public struct NewStillTags: Sendable, Equatable {
    public var make: String?
    public var model: String?
    public var software: String?
    /// EXIF's `YYYY:MM:DD HH:MM:SS`, with SubSecTimeOriginal's digits and OffsetTimeOriginal's `+09:00`.
    public var dateTimeOriginal: String?
    public var subSecTimeOriginal: String?
    public var offsetTimeOriginal: String?
    /// EXIF Orientation (1–8).
    public var orientation: UInt16?
    public var latitude: Double?
    public var longitude: Double?
    public var pixelWidth: UInt32?
    public var pixelHeight: UInt32?
    /// ColorSpace (0xA001): 1 for sRGB; nil writes none (uncalibrated pictures say 0xFFFF).
    public var colorSpace: UInt16?

    public init() {}
}

extension ExifEditor {
    /// A whole TIFF for a new still: IFD0 (device, orientation), the Exif IFD (dates, size, the
    /// Apple MakerNote holding the identifier), the GPS IFD. Big-endian, as Apple writes.
    /// `identifier` nil: no MakerNote (a still that is no Live Photo's, keyphoto of a motion photo).
    public static func newTIFF(_ tags: NewStillTags, identifier: String?) -> [UInt8] {
        let writer = Writer(little: false)
        func ascii(_ tag: UInt16, _ text: String?) -> NewEntry? {
            guard let text else { return nil }
            let bytes = Array(text.utf8.filter { $0 != 0 }) + [0]
            return NewEntry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
        }
        func short(_ tag: UInt16, _ value: UInt16?) -> NewEntry? { value.map { NewEntry(tag: tag, type: 3, count: 1, value: writer.u16($0)) } }
        func long(_ tag: UInt16, _ value: UInt32?) -> NewEntry? { value.map { NewEntry(tag: tag, type: 4, count: 1, value: writer.u32($0)) } }
        func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> NewEntry {
            NewEntry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { writer.u32($0.0) + writer.u32($0.1) })
        }
        /// Degrees as degrees, minutes and seconds in hundredths (GPS rationals).
        func dms(_ degrees: Double) -> [(UInt32, UInt32)] {
            let hundredths = (abs(degrees) * 360_000).rounded()
            let whole = UInt32(hundredths / 360_000), minutes = UInt32(hundredths.truncatingRemainder(dividingBy: 360_000) / 6_000)
            let seconds = UInt32(hundredths.truncatingRemainder(dividingBy: 6_000))
            return [(whole, 1), (minutes, 1), (seconds, 100)]
        }
        let note = identifier.map { makerNote(header: freshHeader, entries: [identifierEntry($0)], little: false) }
        let exif: [NewEntry] = [
            NewEntry(tag: 0x9000, type: 7, count: 4, value: Array("0232".utf8)),
            ascii(0x9003, tags.dateTimeOriginal), ascii(0x9004, tags.dateTimeOriginal),
            ascii(0x9011, tags.offsetTimeOriginal), ascii(0x9291, tags.subSecTimeOriginal),
            short(0xA001, tags.colorSpace), long(0xA002, tags.pixelWidth), long(0xA003, tags.pixelHeight),
            note.map { NewEntry(tag: TIFFLayout.makerNoteTag, type: 7, count: UInt32($0.count), value: $0) },
        ].compactMap { $0 }
        var gps: [NewEntry] = []
        if let latitude = tags.latitude, let longitude = tags.longitude, latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 {
            gps = [NewEntry(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0]),
                   ascii(0x0001, latitude < 0 ? "S" : "N"), rationals(0x0002, dms(latitude)),
                   ascii(0x0003, longitude < 0 ? "W" : "E"), rationals(0x0004, dms(longitude))].compactMap { $0 }
        }
        let device = [ascii(0x010F, tags.make), ascii(0x0110, tags.model), short(0x0112, tags.orientation), ascii(0x0131, tags.software),
                      ascii(0x0132, tags.dateTimeOriginal)].compactMap { $0 }
        // IFD0's size does not depend on its pointers' values: lay it out once to measure.
        func zeroth(exifAt: UInt32, gpsAt: UInt32) -> [UInt8] {
            var entries = device + [NewEntry(tag: TIFFLayout.exifIFDPointer, type: 4, count: 1, value: writer.u32(exifAt))]
            if !gps.isEmpty { entries.append(NewEntry(tag: TIFFLayout.gpsIFDPointer, type: 4, count: 1, value: writer.u32(gpsAt))) }
            return ifd(entries, start: 8, next: 0, writer: writer)
        }
        let exifAt = 8 + zeroth(exifAt: 0, gpsAt: 0).count
        let exifIFD = ifd(exif, start: exifAt, next: 0, writer: writer)
        let gpsAt = exifAt + exifIFD.count
        let gpsIFD = gps.isEmpty ? [] : ifd(gps, start: gpsAt, next: 0, writer: writer)
        return Array("MM".utf8) + [0, 42] + writer.u32(8) + zeroth(exifAt: UInt32(exifAt), gpsAt: UInt32(gpsAt)) + exifIFD + gpsIFD
    }
}
