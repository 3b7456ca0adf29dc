/// A still's parts: HEIF items, references and properties, JPEG segments, MPF images and the
/// image data, EXIF entries, Apple MakerNote keys, XMP properties and ICC profiles.
extension Inventory {
    mutating func addStill(_ still: Still, source: ByteSource) {
        var tiff = still.jpeg?.exif?.tiff
        if let heif = still.heif { tiff = addHEIF(heif, boxes: still.boxes, source: source) }
        if let jpeg = still.jpeg { addJPEG(jpeg, motionPhoto: still.motionPhoto, source: source) }
        var sawMakerNote = false
        for tag in still.exif {
            let name = "\(tag.ifd) 0x" + Self.hex(tag.tag)
            if tag.tag == 0x927C, let bytes = Self.makerNote(tiff, still.tiff) {
                sawMakerNote = true
                add(.exif, name, digest: FNV1a.of(bytes))
            } else {
                add(.exif, name, text: tag.value)
            }
        }
        if !sawMakerNote, let bytes = Self.makerNote(tiff, still.tiff) { add(.exif, "ExifIFD 0x927c", digest: FNV1a.of(bytes)) }
        // libexif keeps the thumbnail's offset and length to itself.
        if let range = still.tiff?.thumbnailRange, !still.exif.contains(where: { $0.ifd == "IFD1" && $0.tag == 0x0201 }) {
            add(.exif, "IFD1 0x0201", text: String(range.lowerBound))
            add(.exif, "IFD1 0x0202", text: String(range.count))
        }
        for entry in still.makerNote?.entries ?? [] {
            add(.makerNote, "key \(entry.tag)", text: "\(entry.type) \(entry.count) \(entry.value)")
        }
        for property in still.xmp?.properties ?? [] {
            add(.xmp, "\(property.namespace) \(property.name)", text: property.value)
        }
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The MakerNote's bytes inside the TIFF structure, where the layout found them.
    static func makerNote(_ tiff: [UInt8]?, _ layout: TIFFLayout?) -> ArraySlice<UInt8>? {
        guard let tiff, let range = layout?.makerNoteRange, range.lowerBound >= 0, range.upperBound <= tiff.count else { return nil }
        return tiff[range]
    }

    /// Items (their bytes), references and properties; the Exif item's TIFF bytes are returned.
    mutating func addHEIF(_ heif: HEIFStructure, boxes: [Box], source: ByteSource) -> [UInt8]? {
        let properties = itemProperties(boxes: boxes, source: source)
        var tiff: [UInt8]?
        for item in heif.items {
            var name = "\(item.id) \(item.type)"
            if let type = item.contentType, !type.isEmpty { name += " \(type)" }
            if let urn = properties.first(where: { $0.item == item.id && $0.type == "auxC" })?.auxiliaryType { name += " \(urn)" }
            var hash = FNV1a()
            hash.add(item.name)
            hash.add(item.hidden ? "hidden" : "shown")
            // An extent of length 0 runs to the end of its data: the file's size at most.
            if spend(item.totalLength == 0 ? source.size : Int64(clamping: item.totalLength)) {
                do {
                    let (bytes, offset) = try heif.data(of: item, from: source, limit: source.size)
                    hash.add(bytes)
                    if item.type == "Exif", tiff == nil, let start = try? HEIFStructure.exifTIFFStart(bytes, base: offset, path: "") {
                        tiff = Array(bytes[start...])
                    }
                } catch {
                    hash.add("unreadable")
                }
            }
            add(.heifItem, name, digest: hash.value)
        }
        for reference in heif.references {
            add(.heifReference, "\(reference.type) \(reference.from) -> " + reference.to.map(String.init).joined(separator: " "), digest: 0)
        }
        for property in properties {
            add(.heifProperty, "\(property.item) \(property.type)", digest: property.digest)
            if let profile = property.profile { add(.icc, "item \(property.item)", digest: profile) }
        }
        return tiff
    }

    struct ItemProperty {
        var item: UInt32
        var type: FourCC
        var digest: UInt64
        /// A colour property's ICC profile (`prof` restricted, `rICC` unrestricted): its digest.
        var profile: UInt64?
        var auxiliaryType: String?
    }

    /// Every item's properties in association order, each property's payload read and hashed
    /// once however many items share it; none when `iprp` cannot be read (the structure walk
    /// reports that). More associations than the budget allows refuse the inventory.
    mutating func itemProperties(boxes: [Box], source: ByteSource) -> [ItemProperty] {
        guard let meta = boxes.first(where: { $0.type == "meta" }), var reader = try? source.payload(of: meta, path: "meta"),
              (try? reader.skip(4)) != nil else { return [] }
        var children = BoxIterator(reader)
        while let child = try? children.next() {
            guard child.box.type == "iprp", let (list, table) = try? HEIFStructure.propertyBoxes(child.payload),
                  let list, var table, let associations = try? ItemPropertyAssociations.all(parsing: &table) else { continue }
            var known: [UInt16: ItemProperty] = [:]
            var result: [ItemProperty] = []
            for association in associations {
                for index in association.properties where index > 0 {
                    // An association costs its entry's bytes at least: a budget of 16 bytes each.
                    guard spend(16) else { return result }
                    if let property = known[index] {
                        result.append(ItemProperty(item: association.item, type: property.type, digest: property.digest, profile: property.profile,
                                                   auxiliaryType: property.auxiliaryType))
                        continue
                    }
                    guard let type = list.type(at: Int(index) - 1), var payload = list.payload(at: Int(index) - 1) else { continue }
                    let bytes = payload.restSlice()
                    var property = ItemProperty(item: association.item, type: type, digest: FNV1a.of(bytes))
                    if type == "colr", bytes.count > 4, bytes.starts(with: "prof".utf8) || bytes.starts(with: "rICC".utf8) {
                        property.profile = FNV1a.of(bytes.dropFirst(4))
                    }
                    if type == "auxC" { property.auxiliaryType = Self.auxiliaryType(bytes) }
                    known[index] = property
                    result.append(property)
                }
            }
            return result
        }
        return []
    }

    /// `auxC`'s auxiliary type: after version and flags, a NUL-terminated URN.
    static func auxiliaryType(_ payload: ArraySlice<UInt8>) -> String? {
        guard payload.count > 4 else { return nil }
        let text = payload.dropFirst(4).prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }
}
