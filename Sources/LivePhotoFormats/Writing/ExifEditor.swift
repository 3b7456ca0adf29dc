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

