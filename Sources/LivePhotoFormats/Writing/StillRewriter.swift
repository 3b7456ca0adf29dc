/// Writes the content identifier into a JPEG's Exif APP1 or a HEIF's Exif item. Image data is
/// never rewritten: JPEG segments around APP1 are copied; a HEIF's grown Exif item goes into a new
/// `mdat` at the end and only its `iloc` fields change (same size).
public enum StillRewriter {
    public static func settingContentIdentifier(_ still: Still, source: ByteSource, identifier: String) throws -> FilePatch {
        switch still.format {
        case .jpeg: return try jpeg(still, source: source, identifier: identifier)
        case .heic, .heif: return try heif(still, source: source, identifier: identifier)
        default: throw WriteError(.unsupportedLayout, "writing a content identifier into \(still.format.rawValue) is not supported (JPEG and HEIC are)")
        }
    }

    static func app1(_ tiff: [UInt8]) throws -> [UInt8] {
        let length = 2 + JPEGStructure.exifHeader.count + tiff.count
        guard length <= 0xFFFF else { throw WriteError(.fieldOverflow, "the Exif segment would grow to \(length) bytes, more than a JPEG segment holds (65535)") }
        return [0xFF, 0xE1] + BoxWriter.u16(UInt16(length)) + JPEGStructure.exifHeader + tiff
    }

    static func jpeg(_ still: Still, source: ByteSource, identifier: String) throws -> FilePatch {
        let exif = try jpegExif(still, identifier: identifier)
        var patch = FilePatch.replacingRanges([(exif.range, exif.bytes)], end: source.size)
        patch.notes = [exif.note]
        return patch
    }

    /// The Exif APP1 segment with the identifier: the range it replaces (empty: inserted after
    /// SOI, or after a leading JFIF APP0), its bytes and what changed.
    public static func jpegExif(_ still: Still, identifier: String) throws -> (range: Range<Int64>, bytes: [UInt8], note: String) {
        guard let jpeg = still.jpeg else { throw WriteError(.missingStructure, "no JPEG structure") }
        if let segment = jpeg.segments.first(where: { $0.label == "Exif" }), let exif = jpeg.exif {
            let edit = try ExifEditor.settingContentIdentifier(exif.tiff, identifier: identifier)
            let range = segment.offset..<(segment.payloadOffset + Int64(segment.length))
            return (range, try app1(edit.tiff), edit.note + (edit.inPlace ? "" : "; APP1 Exif \(segment.length + 2) → \(edit.tiff.count + 8) bytes"))
        }
        let after = jpegInsertionPoint(jpeg)
        return (after..<after, try app1(ExifEditor.newTIFF(identifier: identifier)), "new APP1 Exif segment with an Apple MakerNote holding 0x0011")
    }

    /// Where a new APP1 goes: after SOI, or after a leading JFIF APP0.
    static func jpegInsertionPoint(_ jpeg: JPEGStructure) -> Int64 {
        jpeg.segments.dropFirst().first.flatMap { $0.marker == 0xE0 ? $0.payloadOffset + Int64($0.length) : nil } ?? 2
    }

    static func heif(_ still: Still, source: ByteSource, identifier: String) throws -> FilePatch {
        guard let heif = still.heif else { throw WriteError(.missingStructure, "no HEIF structure") }
        guard let item = heif.items.first(where: { $0.type == "Exif" }) else {
            throw WriteError(.unsupportedLayout, "this HEIF has no Exif item; adding one (iinf, iloc and iref grow, so media offsets shift) is not supported")
        }
        guard item.constructionMethod == 0, item.extents.count == 1, let fields = item.location, fields.extentCount == 1 else {
            throw WriteError(.unsupportedLayout, "the Exif item is stored in \(item.extents.count) extents or in idat; only a single file extent is supported")
        }
        let (bytes, start) = try heif.data(of: item, from: source)
        let tiffStart = try HEIFStructure.exifTIFFStart(bytes, base: start, path: "Exif item")
        var prefix = Array(bytes[..<tiffStart])
        // The header's offset counts the bytes between it and the TIFF header; writers that put
        // "Exif\0\0" there and count 0 leave a TIFF other readers (ExifTool) do not find.
        let declared = prefix.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var corrected = ""
        if tiffStart >= 4, declared != UInt32(tiffStart - 4) {
            prefix.replaceSubrange(0..<4, with: BoxWriter.u32(UInt32(tiffStart - 4)))
            corrected = "; the Exif item's header offset corrected (\(declared) → \(tiffStart - 4): the TIFF header follows \"Exif\\0\\0\")"
        }
        let tiff = Array(bytes[tiffStart...])
        let edit = try ExifEditor.settingContentIdentifier(tiff, identifier: identifier)
        if edit.inPlace {
            var patch = FilePatch.replacing(start..<(start + Int64(bytes.count)), with: prefix + edit.tiff, size: source.size)
            patch.notes = [edit.note + " (Exif item, same size)" + corrected]
            return patch
        }
        // The grown item goes to a new mdat at the end; iloc's fields are rewritten in place.
        let payload = prefix + edit.tiff
        let newOffset = UInt64(source.size) + 8
        func fits(_ value: UInt64, _ width: Int) -> Bool { width == 8 || (width == 4 && value <= UInt64(UInt32.max)) }
        var replacements: [(offset: Int64, bytes: [UInt8])] = []
        if fields.offsetSize > 0 {
            guard fits(newOffset, fields.offsetSize) else { throw WriteError(.fieldOverflow, "the new Exif offset does not fit iloc's \(fields.offsetSize)-byte field") }
            replacements.append((fields.firstOffsetAt, BoxWriter.uint(newOffset, width: fields.offsetSize)))
            if fields.baseOffsetSize > 0 { replacements.append((fields.baseOffsetAt, BoxWriter.uint(0, width: fields.baseOffsetSize))) }
        } else {
            guard fields.baseOffsetSize > 0, fits(newOffset, fields.baseOffsetSize) else {
                throw WriteError(.fieldOverflow, "iloc has no room for a new Exif offset")
            }
            replacements.append((fields.baseOffsetAt, BoxWriter.uint(newOffset, width: fields.baseOffsetSize)))
        }
        if fields.lengthSize > 0 {
            guard fits(UInt64(payload.count), fields.lengthSize) else { throw WriteError(.fieldOverflow, "the Exif length does not fit iloc") }
            replacements.append((fields.firstLengthAt, BoxWriter.uint(UInt64(payload.count), width: fields.lengthSize)))
        }
        // (A zero-width length means "to the end of the file", which the appended item is.)
        var patch = FilePatch.withReplacements(replacements, size: source.size)
        patch.append(BoxWriter.box("mdat", payload))
        patch.notes = [edit.note + "; the Exif item (\(bytes.count) → \(payload.count) bytes) moves to a new mdat at the end, iloc updated in place" + corrected]
        return patch
    }
}

extension StillRewriter {
    /// An encoder's JPEG with an Exif APP1 made of `tiff`, after SOI (or a leading JFIF APP0);
    /// an APP1 Exif it already has is replaced.
    public static func jpegAddingExif(_ jpeg: [UInt8], tiff: [UInt8]) throws -> [UInt8] {
        let file = MediaFile.inspect(source: MemorySource(jpeg), path: "encoded JPEG", options: .check)
        guard let structure = file.still?.jpeg, file.error == nil else {
            throw WriteError(.inconsistentInput, "the encoder's output is no readable JPEG: \(file.error?.description ?? file.format.rawValue)")
        }
        let segment = try app1(tiff)
        if let existing = structure.segments.first(where: { $0.label == "Exif" }) {
            let range = Int(existing.offset)..<Int(existing.payloadOffset + Int64(existing.length))
            return Array(jpeg[..<range.lowerBound]) + segment + Array(jpeg[range.upperBound...])
        }
        let at = Int(jpegInsertionPoint(structure))
        return Array(jpeg[..<at]) + segment + Array(jpeg[at...])
    }
}
