internal import CExif

/// One standard EXIF tag as libexif decodes it.
public struct ExifTag: Sendable, Equatable {
    public var ifd: String
    public var tag: UInt16
    public var name: String
    public var value: String
}

/// Standard EXIF (IFD0, Exif, GPS, Interoperability, IFD1) through libexif. The MakerNote is
/// neutralised in the copy handed to libexif: libexif 0.6.24 misreads Apple MakerNote values, so
/// `AppleMakerNote` decodes it instead.
public enum ExifReader {
    public static func tags(tiff: [UInt8], makerNoteRange: Range<Int>?) -> [ExifTag] {
        var copy = [UInt8]("Exif".utf8) + [0, 0] + tiff
        if let range = makerNoteRange, !range.isEmpty {
            copy[6 + range.lowerBound] ^= 0xFF
        }
        guard copy.count <= Int(UInt32.max), let exifData = exif_data_new() else { return [] }
        defer { exif_data_unref(exifData) }
        // By default libexif "follows the specification": it invents mandatory tags the file does
        // not have (XResolution, ExifVersion, ...) and drops tags it does not know. A forensic
        // reader reports what is there, so both options are off.
        exif_data_unset_option(exifData, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(exifData, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        copy.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { exif_data_load_data(exifData, base, UInt32(buffer.count)) }
        }
        let ifds: [(ExifIfd, String)] = [
            (EXIF_IFD_0, "IFD0"), (EXIF_IFD_EXIF, "ExifIFD"), (EXIF_IFD_GPS, "GPS"),
            (EXIF_IFD_INTEROPERABILITY, "InteropIFD"), (EXIF_IFD_1, "IFD1"),
        ]
        // The MakerNote's own bytes (the copy libexif reads has its first byte neutralised).
        let original = makerNoteRange.map { Array(tiff[$0.clamped(to: tiff.indices)]) } ?? []
        var result: [ExifTag] = []
        withUnsafePointer(to: exifData.pointee.ifd) { contents in
            contents.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) { table in
                for (ifd, label) in ifds {
                    guard let content = table[Int(ifd.rawValue)], let entries = content.pointee.entries else { continue }
                    for index in 0..<Int(content.pointee.count) {
                        guard let entry = entries[index] else { continue }
                        let tag = entry.pointee.tag
                        let name = exif_tag_get_name_in_ifd(tag, ifd).map { String(cString: $0) } ?? "0x" + String(tag.rawValue, radix: 16)
                        var buffer = [CChar](repeating: 0, count: 1024)
                        let text = buffer.withUnsafeMutableBufferPointer { out -> String in
                            guard let base = out.baseAddress, exif_entry_get_value(entry, base, UInt32(out.count)) != nil else { return "" }
                            return String(cString: base)
                        }
                        let value = tag.rawValue == TIFFLayout.makerNoteTag ? makerNoteText(original, size: Int(entry.pointee.size)) : text
                        result.append(ExifTag(ifd: label, tag: UInt16(tag.rawValue), name: name, value: value))
                    }
                }
            }
        }
        return result
    }

    /// What the MakerNote row says: only an Apple one is decoded (as MakerApple, listed apart).
    static func makerNoteText(_ bytes: [UInt8], size: Int) -> String {
        if AppleMakerNote.isAppleMakerNote(bytes[...]) { return "(\(size) bytes, Apple: decoded as MakerApple)" }
        // Vendors start theirs with a name ("Nikon", "HDRP", "OLYMP"): shown when 4 letters or more.
        let name = bytes.prefix(8).prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        let vendor = name.count >= 4 ? " '" + String(decoding: name, as: UTF8.self) + "'" : ""
        return "(\(size) bytes\(vendor), another vendor's MakerNote: not decoded)"
    }
}
