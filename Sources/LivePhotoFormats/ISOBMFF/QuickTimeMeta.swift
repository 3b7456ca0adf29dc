/// A QuickTime `meta` (`moov/meta`, `moov/udta/meta`): `hdlr`, `keys` and `ilst`, where Photos
/// reads `com.apple.quicktime.content.identifier`. The reader and the writer live together so
/// that what one writes the other reads.
public enum QuickTimeMeta {
    /// The handler subtype and every `ilst` item with its key, from a `meta` payload.
    public static func read(_ reader: ByteReader) throws -> (handler: FourCC?, items: [MetadataItem]) {
        var reader = reader
        try MetaHeader.skip(&reader)
        var handler: FourCC?
        // Keys as text straight from their bytes (no copy of the bytes first).
        var keys: [(namespace: FourCC, name: String)] = []
        var ilst: ByteReader?
        var walk = try BoxIterator.walk(reader)
        while let box = walk.next() {
            switch box.type {
            case "hdlr": handler = try HandlerBox(parsing: &walk.payload).subtype
            case "keys":
                keys = []
                try KeysBox.forEachEntry(&walk.payload, reserve: { keys.reserveCapacity($0) }) { keys.append(($0, String(decoding: $1, as: UTF8.self))) }
            case "ilst": ilst = walk.payload
            default: break
            }
        }
        var items: [MetadataItem] = []
        if let ilst {
            var entries = try BoxIterator.walk(ilst)
            // One item per entry nearly always: room for them at once.
            items.reserveCapacity(entries.count)
            while let box = entries.next() {
                let index = box.type.value
                let key = index >= 1 && Int(index) <= keys.count ? keys[Int(index) - 1] : (FourCC(0), box.type.description)
                var inner = try BoxIterator.walk(entries.payload)
                while let data = inner.next() {
                    guard data.type == "data" else { continue }
                    let typeIndicator = try inner.payload.u32()
                    let locale = try inner.payload.u32()
                    let type = typeIndicator & 0x00FF_FFFF
                    let value = WellKnownType.decode(inner.payload.restSlice(), type: type)
                    items.append(MetadataItem(keyIndex: index, namespace: key.0, key: key.1, dataType: type, locale: locale, value: value))
                }
            }
        }
        return (handler, items)
    }

    /// The whole `meta` box (`existing`: the old box's bytes, header included, if any) with the
    /// content identifier set: every other child, key and item is kept byte for byte, a handler
    /// other than `mdta` becomes `mdta`, and the key is added when absent.
    public static func settingIdentifier(_ existing: [UInt8]?, headerSize: Int, identifier: String) throws -> [UInt8] {
        try settingString(existing, headerSize: headerSize, key: LivePhotoKeys.contentIdentifier, value: identifier)
    }

    /// `meta` with the UTF-8 `key` set to `value` (added to `keys` and `ilst` when absent); every
    /// other key, item and box kept as it is.
    public static func settingString(_ existing: [UInt8]?, headerSize: Int, key: String, value: String) throws -> [UInt8] {
        try setting(existing, headerSize: headerSize, key: key, type: WellKnownType.utf8, value: Array(value.utf8))
    }

    /// `meta` with `key` set to `value`, stored with the well-known data `type`.
    public static func setting(_ existing: [UInt8]?, headerSize: Int, key: String, type: UInt32, value: [UInt8]) throws -> [UInt8] {
        let dataBox = BoxWriter.box("data", BoxWriter.u32(type) + BoxWriter.u32(0) + value)
        guard let existing else {
            let keys = KeysBox(entries: [KeysBox.Entry(namespace: "mdta", key: Array(key.utf8))])
            return BoxWriter.box("meta", HandlerBox.metadataBytes + keys.bytes + BoxWriter.box("ilst", BoxWriter.box(FourCC(1), dataBox)))
        }
        var reader = ByteReader(existing, base: 0, path: "moov/meta")
        try reader.skip(headerSize)
        var body = try reader.rest(path: "moov/meta")
        let fullHeader = MetaHeader.hasFullBoxHeader(body)
        if fullHeader { try body.skip(4) }
        var parts: [[UInt8]] = []
        var keys = KeysBox(entries: [])
        var items: [UInt32: [UInt8]] = [:]
        var keysPosition: Int?
        var ilstPosition: Int?
        for (box, var child) in try BoxIterator.all(body) {
            let whole = Array(existing[Int(box.offset)..<Int(box.end)])
            switch box.type {
            case "hdlr":
                parts.append(try HandlerBox(parsing: &child).subtype == "mdta" ? whole : HandlerBox.metadataBytes)
            case "keys":
                keys = try KeysBox(parsing: &child)
                keysPosition = parts.count
                parts.append([])
            case "ilst":
                for (item, _) in try BoxIterator.all(child) { items[item.type.value] = Array(existing[Int(item.offset)..<Int(item.end)]) }
                ilstPosition = parts.count
                parts.append([])
            default:
                parts.append(whole)
            }
        }
        let index: UInt32
        if let found = keys.index(of: key) {
            index = found
        } else {
            keys.entries.append(KeysBox.Entry(namespace: "mdta", key: Array(key.utf8)))
            index = UInt32(keys.entries.count)
        }
        items[index] = BoxWriter.box(FourCC(index), dataBox)
        let ilstBox = BoxWriter.box("ilst", items.keys.sorted().flatMap { items[$0] ?? [] })
        if let keysPosition { parts[keysPosition] = keys.bytes } else { parts.append(keys.bytes) }
        if let ilstPosition { parts[ilstPosition] = ilstBox } else { parts.append(ilstBox) }
        if !parts.contains(where: { $0.count >= 8 && $0[4..<8].elementsEqual(Array("hdlr".utf8)) }) { parts.insert(HandlerBox.metadataBytes, at: 0) }
        return BoxWriter.box("meta", (fullHeader ? [0, 0, 0, 0] : []) + parts.flatMap { $0 })
    }

    /// `meta` without the keys `drop` picks and their items: the other keys renumbered in order,
    /// their items moved with them, every other box kept byte for byte. Returns the removed keys.
    public static func removing(_ existing: [UInt8], headerSize: Int, where drop: (String) -> Bool) throws -> (bytes: [UInt8], removed: [String]) {
        var reader = ByteReader(existing, base: 0, path: "moov/meta")
        try reader.skip(headerSize)
        var body = try reader.rest(path: "moov/meta")
        let fullHeader = MetaHeader.hasFullBoxHeader(body)
        if fullHeader { try body.skip(4) }
        let children = try BoxIterator.all(body)
        guard let keysChild = children.first(where: { $0.box.type == "keys" }) else { return (existing, []) }
        var keysReader = keysChild.payload
        let keys = try KeysBox(parsing: &keysReader)
        let removedIndices = Set(keys.entries.indices.filter { drop(keys.entries[$0].text) }.map { UInt32($0 + 1) })
        guard !removedIndices.isEmpty else { return (existing, []) }
        // Old index → new index for the keys kept.
        var renumbered: [UInt32: UInt32] = [:]
        var kept: [KeysBox.Entry] = []
        for (position, entry) in keys.entries.enumerated() where !removedIndices.contains(UInt32(position + 1)) {
            kept.append(entry)
            renumbered[UInt32(position + 1)] = UInt32(kept.count)
        }
        var parts: [UInt8] = []
        for (box, child) in children {
            let whole = Array(existing[Int(box.offset)..<Int(box.end)])
            switch box.type {
            case "keys": parts += KeysBox(entries: kept).bytes
            case "ilst":
                var items: [UInt8] = []
                for (item, _) in try BoxIterator.all(child) {
                    guard !removedIndices.contains(item.type.value) else { continue }
                    var bytes = Array(existing[Int(item.offset)..<Int(item.end)])
                    if let new = renumbered[item.type.value] { bytes.replaceSubrange(4..<8, with: BoxWriter.u32(new)) }
                    items += bytes
                }
                parts += BoxWriter.box("ilst", items)
            default: parts += whole
            }
        }
        let removed = removedIndices.sorted().map { keys.entries[Int($0) - 1].text }
        return (BoxWriter.box("meta", (fullHeader ? [0, 0, 0, 0] : []) + parts), removed)
    }
}
