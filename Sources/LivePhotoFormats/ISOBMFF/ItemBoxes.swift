/// `pitm`: the primary item.
public struct PrimaryItemBox: BoxModel, Equatable {
    public var itemID: UInt32
    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        itemID = header.version == 0 ? UInt32(try reader.u16()) : try reader.u32()
    }
}

/// `iinf` with its `infe` entries (versions 2 and 3; older entries carry no item type and are skipped).
public struct ItemInfoBox: BoxModel, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: UInt32
        public var type: FourCC
        public var name: String
        public var contentType: String?
        public var hidden: Bool
    }

    /// Entries in item ID order, one per ID (a later entry with the same ID replaces an earlier
    /// one). A sorted list rather than a dictionary: no hashing, and one allocation.
    public var entries: [Entry]

    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        let declared = header.version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
        // Room for the entries it declares, as many as its bytes can hold (an `infe` is at least
        // 12 bytes), so the list is not grown as they are read.
        var entries: [Entry] = []
        entries.reserveCapacity(min(declared, reader.remaining / 12, Limits.maxItems))
        var ordered = true
        var walk = try BoxIterator.walk(try reader.rest())
        while let entryBox = walk.next() {
            guard entryBox.type == "infe" else { continue }
            guard entries.count < Limits.maxItems else { throw walk.payload.error(.limitExceeded, "more than \(Limits.maxItems) items") }
            let info = try FullBoxHeader(&walk.payload)
            guard info.version >= 2 else { continue }
            let id = info.version == 2 ? UInt32(try walk.payload.u16()) : try walk.payload.u32()
            try walk.payload.skip(2)
            let type = try walk.payload.fourCC()
            let name = try walk.payload.cString()
            let contentType = type == "mime" && !walk.payload.isAtEnd ? try walk.payload.cString() : nil
            if let last = entries.last, last.id >= id { ordered = false }
            entries.append(Entry(id: id, type: type, name: name, contentType: contentType, hidden: info.flags & 1 != 0))
        }
        if !ordered {
            // By ID, then by the order read: of an ID's entries, the one read last is kept.
            let order = entries.indices.sorted { (entries[$0].id, $0) < (entries[$1].id, $1) }
            var kept: [Entry] = []
            kept.reserveCapacity(entries.count)
            for entry in order.map({ entries[$0] }) {
                if kept.last?.id == entry.id { kept[kept.count - 1] = entry } else { kept.append(entry) }
            }
            entries = kept
        }
        self.entries = entries
    }

    /// The index of the entry for `id` in `entries` (ordered by ID), by binary search.
    static func slot(of id: UInt32, in entries: [Entry]) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].id == id ? low : nil
    }
}

/// `iref`: typed references from one item to others (16 or 32-bit IDs by version).
public struct ItemReferenceBox: BoxModel, Equatable {
    public var references: [HEIFReference] = []

    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        let wide = header.version != 0
        var walk = try BoxIterator.walk(try reader.rest())
        references.reserveCapacity(walk.count)
        while let refBox = walk.next() {
            let from = wide ? try walk.payload.u32() : UInt32(try walk.payload.u16())
            let count = try walk.payload.entryCount(UInt16.self, entrySize: wide ? 4 : 2, what: "iref")
            // The count is checked against the bytes: room for all of them at once (a grid
            // refers to dozens of tiles).
            var to: [UInt32] = []
            to.reserveCapacity(count)
            for _ in 0..<count { to.append(wide ? try walk.payload.u32() : UInt32(try walk.payload.u16())) }
            references.append(HEIFReference(type: refBox.type, from: from, to: to))
        }
    }
}

/// `iloc`: where each item's data is: construction method, base offset, extents, and (for the
/// rewriter, which updates them in place) where the first extent's fields sit in the file.
public struct ItemLocationBox: BoxModel {
    /// The located items in the order `iloc` lists them, with what `iloc` says of them; what
    /// `iinf` says (type, name, content type, hidden) is left empty for the caller to join.
    /// Items rather than tuples: the join fills them in place, where a list of tuples was
    /// copied element by element into items.
    public var locations: [HEIFItem]

    /// `iloc` versions 0, 1 and 2 with 0/4/8-byte offset, length, base-offset and index fields.
    public init(parsing reader: inout ByteReader) throws {
        try self.init(parsing: &reader, keeping: nil)
    }

    /// Every entry read and checked; only those with an entry in `keeping` (ordered by ID, as
    /// `ItemInfoBox.entries`) are kept, all of them when it is nil. An entry not kept is checked
    /// and passed over without its extents being built.
    init(parsing reader: inout ByteReader, keeping: [ItemInfoBox.Entry]?) throws {
        let header = try FullBoxHeader(&reader)
        guard header.version <= 2 else { throw reader.error(.unsupported, "iloc version \(header.version)") }
        let sizes = try reader.u8()
        let more = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseSize = Int(more >> 4)
        let indexSize = header.version >= 1 ? Int(more & 0xF) : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw reader.error(.invalidValue, "iloc field size \(size) (allowed: 0, 4, 8)")
        }
        let itemCount = header.version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
        let minimumEntry = (header.version < 2 ? 2 : 4) + 2 + baseSize + 2
        _ = try reader.checkCount(UInt64(itemCount), entrySize: minimumEntry, what: "iloc")
        var result: [HEIFItem] = []
        if keeping == nil { result.reserveCapacity(itemCount) }
        for _ in 0..<itemCount {
            let id = header.version < 2 ? UInt32(try reader.u16()) : try reader.u32()
            let method: UInt8 = header.version >= 1 ? UInt8(try reader.u16() & 0xF) : 0
            try reader.skip(2)
            let baseAt = reader.offset
            let base = try Self.field(&reader, baseSize)
            let extentSize = indexSize + offsetSize + lengthSize
            let extentCount = try reader.entryCount(UInt16.self, entrySize: extentSize, what: "iloc extents")
            if let keeping, ItemInfoBox.slot(of: id, in: keeping) == nil {
                // The count was checked against the bytes left: its extents are there to pass.
                try reader.skip(extentCount * extentSize)
                continue
            }
            var extents = HEIFItem.ExtentList()
            extents.reserveCapacity(extentCount)
            var fields: HEIFItem.LocationFields?
            for index in 0..<extentCount {
                _ = try Self.field(&reader, indexSize)
                let offsetAt = reader.offset
                let offset = try Self.field(&reader, offsetSize)
                let lengthAt = reader.offset
                extents.append(HEIFItem.Extent(offset: offset, length: try Self.field(&reader, lengthSize)))
                if index == 0 {
                    fields = HEIFItem.LocationFields(baseOffsetAt: baseAt, baseOffsetSize: baseSize, extentCount: extentCount, firstOffsetAt: offsetAt,
                                                     offsetSize: offsetSize, firstLengthAt: lengthAt, lengthSize: lengthSize)
                }
            }
            result.append(HEIFItem(id: id, type: FourCC(0), name: "", contentType: nil, constructionMethod: method, baseOffset: base, extents: extents,
                                   hidden: false, location: fields))
        }
        locations = result
    }

    /// A field of `size` bytes (0, 4 or 8, checked by the caller); 0 when the box leaves it out.
    /// A function of its own: a local one capturing the reader copied the reader at every call.
    private static func field(_ reader: inout ByteReader, _ size: Int) throws -> UInt64 {
        switch size {
        case 0: return 0
        case 4:
            try reader.require(4, "4-byte integer")
            return UInt64(try reader.u32())
        case 8:
            try reader.require(8, "8-byte integer")
            return try reader.u64()
        default: return try reader.uint(size)
        }
    }
}
