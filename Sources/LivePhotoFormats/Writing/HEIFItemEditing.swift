

/// Adding one item to a HEIF `meta`: an entry in `iinf`, `iloc` and `iref`, each box rebuilt from
/// its own bytes with the count raised; entries already there are copied unchanged.
enum HEIFItemEditing {
    /// `iinf` with an `infe` (version 2) for an XMP `mime` item.
    static func addingInfo(to box: [UInt8], itemID: UInt16) throws -> [UInt8] {
        var reader = ByteReader(box, base: 0, path: "iinf")
        let header = try BoxHeader.parse(&reader, available: Int64(box.count))
        let version = try reader.u8()
        let flags = try reader.read(3)
        let count = version == 0 ? UInt32(try reader.u16()) : try reader.u32()
        guard count < (version == 0 ? 0xFFFF : UInt32.max) else { throw WriteError(.fieldOverflow, "iinf holds no more items") }
        let entries = Array(box[reader.position..<Int(header.size)])
        let entry = BoxWriter.fullBox("infe", version: 2, BoxWriter.u16(itemID) + BoxWriter.u16(0) + FourCC("mime").bytes + [0]
                                      + Array("application/rdf+xml".utf8) + [0])
        let countBytes = version == 0 ? BoxWriter.u16(UInt16(count + 1)) : BoxWriter.u32(count + 1)
        return BoxWriter.box("iinf", [version] + flags + countBytes + entries + entry)
    }

    /// `iref` with one more reference box.
    static func addingReference(to box: [UInt8], _ reference: [UInt8]) throws -> [UInt8] {
        var reader = ByteReader(box, base: 0, path: "iref")
        let header = try BoxHeader.parse(&reader, available: Int64(box.count))
        let version = try reader.u8()
        guard version == 0 else { throw WriteError(.unsupportedLayout, "iref version \(version) (32-bit item IDs) is not written") }
        return BoxWriter.box("iref", Array(box[header.headerSize..<Int(header.size)]) + reference)
    }

    /// `iloc` (its bytes, at `ilocOffset` in the file) with `item`'s one extent moved to `offset` in this file.
    static func relocating(_ item: HEIFItem, in box: [UInt8], ilocOffset: Int64, offset: UInt64, length: UInt64) throws -> [UInt8] {
        guard item.constructionMethod == 0, item.extents.count == 1, let fields = item.location, fields.extentCount == 1,
              [4, 8].contains(fields.offsetSize), [4, 8].contains(fields.lengthSize) else {
            throw WriteError(.unsupportedLayout, "the XMP item is stored in \(item.extents.count) extents, in idat, or without offset and length fields")
        }
        guard fields.offsetSize == 8 || offset <= UInt64(UInt32.max), fields.lengthSize == 8 || length <= UInt64(UInt32.max) else {
            throw WriteError(.fieldOverflow, "the XMP item's new offset or length does not fit iloc")
        }
        var out = box
        func put(_ value: UInt64, at absolute: Int64, width: Int) throws {
            let at = Int(absolute - ilocOffset)
            guard at >= 0, at + width <= out.count else { throw WriteError(.inconsistentInput, "an iloc field lies outside iloc") }
            out.replaceSubrange(at..<(at + width), with: BoxWriter.uint(value, width: width))
        }
        try put(offset, at: fields.firstOffsetAt, width: fields.offsetSize)
        try put(length, at: fields.firstLengthAt, width: fields.lengthSize)
        if fields.baseOffsetSize > 0 { try put(0, at: fields.baseOffsetAt, width: fields.baseOffsetSize) }
        return out
    }

    /// `iloc` with one more item: one extent in this file at `offset`.
    static func addingLocation(to box: [UInt8], itemID: UInt16, offset: UInt64, length: UInt64) throws -> [UInt8] {
        var reader = ByteReader(box, base: 0, path: "iloc")
        let header = try BoxHeader.parse(&reader, available: Int64(box.count))
        let start = reader.position
        let version = try reader.u8()
        _ = try reader.read(3)
        let sizes = try reader.u8(), more = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F), baseSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0x0F) : 0
        guard version <= 2, [4, 8].contains(offsetSize), [4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize), [0, 4, 8].contains(indexSize) else {
            throw WriteError(.unsupportedLayout, "iloc version \(version) with field sizes \(offsetSize)/\(lengthSize)/\(baseSize)/\(indexSize) is not written")
        }
        guard offsetSize == 8 || offset <= UInt64(UInt32.max), lengthSize == 8 || length <= UInt64(UInt32.max) else {
            throw WriteError(.fieldOverflow, "the XMP item's offset does not fit iloc's \(offsetSize)-byte field")
        }
        let countAt = reader.position
        let count = version < 2 ? UInt32(try reader.u16()) : try reader.u32()
        guard count < (version < 2 ? 0xFFFF : UInt32.max) else { throw WriteError(.fieldOverflow, "iloc holds no more items") }
        let entries = Array(box[reader.position..<Int(header.size)])
        var entry = version < 2 ? BoxWriter.u16(itemID) : BoxWriter.u32(UInt32(itemID))
        if version >= 1 { entry += BoxWriter.u16(0) }  // construction method 0: this file
        entry += BoxWriter.u16(0) + BoxWriter.uint(0, width: baseSize) + BoxWriter.u16(1)
        entry += BoxWriter.uint(0, width: indexSize) + BoxWriter.uint(offset, width: offsetSize) + BoxWriter.uint(length, width: lengthSize)
        let countBytes = version < 2 ? BoxWriter.u16(UInt16(count + 1)) : BoxWriter.u32(count + 1)
        return BoxWriter.box("iloc", Array(box[start..<countAt]) + countBytes + entries + entry)
    }
}
