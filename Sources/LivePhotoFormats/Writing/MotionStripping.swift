/// What `lpcheck strip` writes: a still without its motion (a motion photo's movie and the XMP
/// that declares it, a Live Photo still's pairing key), every other byte copied. Nothing changes
/// size inside the still: the image data and every offset stay where they were.
extension ExifEditor {
    /// The TIFF without MakerApple 0x0011, the same size: the entry taken out of the MakerNote's
    /// IFD (the entries after it and the next-IFD offset moved up one place, the 12 bytes freed
    /// zeroed) and the identifier's bytes zeroed. nil where the MakerNote is no Apple one or
    /// holds no 0x0011.
    public static func removingContentIdentifier(_ tiff: [UInt8], path: String = "Exif") throws -> Result? {
        var reader = ByteReader(tiff, base: 0, path: path)
        let order = try reader.u16()
        guard order == 0x4949 || order == 0x4D4D else { throw reader.error(.invalidValue, "not a TIFF header") }
        let little = order == 0x4949
        try reader.skip(2)
        let ifd0 = try TIFFLayout.entries(tiff, at: Int(try reader.u32(littleEndian: little)), little: little, base: 0, path: path + "/IFD0")
        guard let exifPointer = ifd0.first(where: { $0.tag == TIFFLayout.exifIFDPointer }) else { return nil }
        let exif = try TIFFLayout.entries(tiff, at: Int(exifPointer.valueOrOffset), little: little, base: 0, path: path + "/ExifIFD")
        guard let noteEntry = exif.first(where: { $0.tag == TIFFLayout.makerNoteTag }), let range = noteEntry.range,
              AppleMakerNote.isAppleMakerNote(tiff[range]), range.count >= 16 else { return nil }
        var note = Array(tiff[range])
        let noteLittle = note[12] == 0x49
        let entries = try TIFFLayout.entries(note, at: 14, little: noteLittle, base: Int64(range.lowerBound), path: path + "/MakerApple")
        guard let index = entries.firstIndex(where: { $0.tag == AppleMakerNote.contentIdentifierTag }) else { return nil }
        // The IFD: its count at 14, the entries from 16, the next-IFD offset after them.
        let end = 16 + 12 * entries.count + 4
        guard end <= note.count else { throw WriteError(.inconsistentInput, "\(path)/MakerApple: its IFD's next-IFD offset lies past the MakerNote") }
        if let value = entries[index].range, value.lowerBound >= end || value.upperBound <= 14 {
            note.replaceSubrange(value, with: [UInt8](repeating: 0, count: value.count))
        }
        let at = 16 + 12 * index
        note.replaceSubrange(at..<(end - 12), with: Array(note[(at + 12)..<end]))
        note.replaceSubrange((end - 12)..<end, with: [UInt8](repeating: 0, count: 12))
        let count = UInt16(entries.count - 1)
        note.replaceSubrange(14..<16, with: noteLittle ? [UInt8(count & 0xFF), UInt8(count >> 8)] : BoxWriter.u16(count))
        var out = tiff
        out.replaceSubrange(range, with: note)
        return Result(tiff: out, note: "MakerApple 0x0011 removed (the MakerNote keeps its size: \(entries.count - 1) entries)", inPlace: true)
    }
}

extension StillRewriter {
    /// The still's bytes that change when its pairing key (MakerApple 0x0011) is removed: the
    /// Exif APP1 segment or the Exif item's data, the same size, and what changed; nil when it
    /// holds no identifier in an Apple MakerNote.
    public static func removingContentIdentifier(_ still: Still, source: ByteSource) throws -> (offset: Int64, bytes: [UInt8], note: String)? {
        switch still.format {
        case .jpeg:
            guard let jpeg = still.jpeg, let segment = jpeg.segments.first(where: { $0.label == "Exif" }), let exif = jpeg.exif,
                  let edit = try ExifEditor.removingContentIdentifier(exif.tiff) else { return nil }
            let bytes = try app1(edit.tiff)
            guard Int64(bytes.count) == segment.payloadOffset + Int64(segment.length) - segment.offset else {
                throw WriteError(.inconsistentInput, "the Exif segment at \(segment.offset) holds bytes after its TIFF; it is not rewritten")
            }
            return (segment.offset, bytes, edit.note + " (APP1 Exif, same size)")
        case .heic, .heif:
            guard let heif = still.heif, let item = heif.items.first(where: { $0.type == "Exif" }), item.constructionMethod == 0, item.extents.count == 1 else { return nil }
            let (bytes, start) = try heif.data(of: item, from: source)
            let tiffStart = try HEIFStructure.exifTIFFStart(bytes, base: start, path: "Exif item")
            guard let edit = try ExifEditor.removingContentIdentifier(Array(bytes[tiffStart...]), path: "Exif item") else { return nil }
            return (start, Array(bytes[..<tiffStart]) + edit.tiff, edit.note + " (Exif item \(item.id), same size)")
        default:
            return nil
        }
    }
}

extension MotionPhotoWriter {
    /// A motion photo's still as a plain photo: its bytes up to its movie (a JPEG's trailer, a
    /// HEIF's `mpvd` box left out), the XMP's motion-photo fields removed (a JPEG's segment
    /// rewritten, a HEIF's XMP item padded to its size), a pairing key an earlier conversion left
    /// removed; the image's bytes copied as they are.
    public static func plainStill(_ still: Still, source: ByteSource) throws -> FilePatch {
        try stillWithoutMovie(still, source: source, identifier: nil)
    }
}

extension StillRewriter {
    /// A Live Photo still without its pairing key: the Exif's MakerApple 0x0011 removed, the same
    /// size, every other byte copied.
    public static func removingPairingKey(_ still: Still, source: ByteSource) throws -> FilePatch {
        guard let removal = try removingContentIdentifier(still, source: source) else {
            throw WriteError(.missingStructure, "the still holds no content identifier in an Apple MakerNote")
        }
        var patch = FilePatch.withReplacements([(removal.offset, removal.bytes)], size: source.size)
        patch.notes = [removal.note]
        return patch
    }
}
