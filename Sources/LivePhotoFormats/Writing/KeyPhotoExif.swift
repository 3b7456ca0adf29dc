/// `lpcheck keyphoto`: the old still's Exif carried to the new one, made true of the new
/// picture in place (the TIFF keeps its size and every offset).
extension ExifEditor {
    /// `tiff` with Orientation, PixelXDimension/PixelYDimension and IFD0's ImageWidth/ImageLength
    /// (where the camera wrote them, as Pixels do) set to the new picture's, and
    /// IFD0's link to IFD1 cut (the thumbnail there shows the old picture): every other entry,
    /// the MakerNote with its identifier among them, as it was. Each change is noted. Throws when
    /// the new picture needs an Orientation the TIFF has no entry for.
    public static func keyPhotoTIFF(_ tiff: [UInt8], width: UInt32, height: UInt32, orientation: UInt16, path: String = "Exif") throws -> Result {
        var reader = ByteReader(tiff, base: 0, path: path)
        let order = try reader.u16()
        guard order == 0x4949 || order == 0x4D4D else { throw reader.error(.invalidValue, "not a TIFF header") }
        let little = order == 0x4949
        try reader.skip(2)
        let ifd0Offset = Int(try reader.u32(littleEndian: little))
        let ifd0 = try TIFFLayout.entries(tiff, at: ifd0Offset, little: little, base: 0, path: path + "/IFD0")
        var out = tiff
        var notes: [String] = []
        func put(_ value: UInt32, into entry: TIFFLayout.Entry, _ name: String) throws {
            guard entry.count == 1, entry.type == 3 || entry.type == 4, entry.type == 4 || value <= 0xFFFF else {
                throw WriteError(.unsupportedLayout, "\(path): \(name) is stored as type \(entry.type) × \(entry.count); only one SHORT or LONG is rewritten")
            }
            let at = entry.position + 8
            let bytes: [UInt8] = entry.type == 3
                ? (little ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] : [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
                : (little ? BoxWriter.u32(value).reversed() : BoxWriter.u32(value))
            out.replaceSubrange(at..<(at + bytes.count), with: bytes)
        }
        if let entry = ifd0.first(where: { $0.tag == 0x0112 }) {
            if entry.valueOrOffset != UInt32(orientation) {
                try put(UInt32(orientation), into: entry, "Orientation")
            }
            notes.append("Orientation \(orientation) (the new picture's)")
        } else if orientation != 1 {
            throw WriteError(.unsupportedLayout, "\(path): the old still has no Orientation entry, and the new picture needs Orientation \(orientation)")
        }
        let sized = [(UInt16(0x0100), width, "ImageWidth"), (UInt16(0x0101), height, "ImageLength")].compactMap { tag, value, name in
            ifd0.first { $0.tag == tag }.map { ($0, value, name) }
        }
        for (entry, value, name) in sized { try put(value, into: entry, name) }
        if !sized.isEmpty { notes.append("IFD0 ImageWidth × ImageLength \(width)×\(height)") }
        if let pointer = ifd0.first(where: { $0.tag == TIFFLayout.exifIFDPointer }) {
            let exif = try TIFFLayout.entries(tiff, at: Int(pointer.valueOrOffset), little: little, base: 0, path: path + "/ExifIFD")
            for (tag, value, name) in [(UInt16(0xA002), width, "PixelXDimension"), (UInt16(0xA003), height, "PixelYDimension")] {
                if let entry = exif.first(where: { $0.tag == tag }) { try put(value, into: entry, name) }
            }
            notes.append("PixelXDimension × PixelYDimension \(width)×\(height)")
        }
        // IFD0's next-IFD offset: after its entry count and entries.
        let next = ifd0Offset + 2 + 12 * ifd0.count
        guard next + 4 <= out.count else { throw WriteError(.inconsistentInput, "\(path): IFD0 ends past the TIFF") }
        if out[next..<(next + 4)].contains(where: { $0 != 0 }) {
            out.replaceSubrange(next..<(next + 4), with: [0, 0, 0, 0])
            notes.append("IFD1 (the old picture's thumbnail) unlinked")
        }
        return Result(tiff: out, note: "the old still's Exif and MakerNote, in place: " + notes.joined(separator: "; "), inPlace: true)
    }
}

extension StillRewriter {
    /// The TIFF of a still's Exif (a JPEG's APP1, a HEIF's Exif item), nil when it has none.
    public static func exifTIFF(_ still: Still, source: ByteSource) throws -> [UInt8]? {
        switch still.format {
        case .jpeg:
            return still.jpeg?.exif?.tiff
        case .heic, .heif:
            guard let heif = still.heif, let item = heif.items.first(where: { $0.type == "Exif" }) else { return nil }
            let (bytes, start) = try heif.data(of: item, from: source)
            return Array(bytes[try HEIFStructure.exifTIFFStart(bytes, base: start, path: "Exif item")...])
        default:
            return nil
        }
    }
}
