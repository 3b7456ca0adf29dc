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
        for (entryBox, var entry) in try BoxIterator.all(try reader.rest()) where entryBox.type == "infe" {
            guard entries.count < Limits.maxItems else { throw entry.error(.limitExceeded, "more than \(Limits.maxItems) items") }
            let info = try FullBoxHeader(&entry)
            guard info.version >= 2 else { continue }
            let id = info.version == 2 ? UInt32(try entry.u16()) : try entry.u32()
            try entry.skip(2)
            let type = try entry.fourCC()
            let name = try entry.cString()
            let contentType = type == "mime" && !entry.isAtEnd ? try entry.cString() : nil
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
        for (refBox, var ref) in try BoxIterator.all(try reader.rest()) {
            let from = wide ? try ref.u32() : UInt32(try ref.u16())
            let count = try ref.checkCount(UInt64(try ref.u16()), entrySize: wide ? 4 : 2, what: "iref")
            var to: [UInt32] = []
            for _ in 0..<count { to.append(wide ? try ref.u32() : UInt32(try ref.u16())) }
            references.append(HEIFReference(type: refBox.type, from: from, to: to))
        }
    }
}

/// `iloc`: where each item's data is: construction method, base offset, extents, and (for the
/// rewriter, which updates them in place) where the first extent's fields sit in the file.
public struct ItemLocationBox: BoxModel {
    public typealias Location = (id: UInt32, method: UInt8, base: UInt64, extents: HEIFItem.ExtentList, fields: HEIFItem.LocationFields?)
    public var locations: [Location]

    /// `iloc` versions 0, 1 and 2 with 0/4/8-byte offset, length, base-offset and index fields.
    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        guard header.version <= 2 else { throw reader.error(.unsupported, "iloc version \(header.version)") }
        let sizes = try reader.u8()
        let more = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseSize = Int(more >> 4)
        let indexSize = header.version >= 1 ? Int(more & 0xF) : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw reader.error(.invalidValue, "iloc field size \(size) (allowed: 0, 4, 8)")
        }
        func field(_ size: Int) throws -> UInt64 { size == 0 ? 0 : try reader.uint(size) }
        let itemCount = header.version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
        let minimumEntry = (header.version < 2 ? 2 : 4) + 2 + baseSize + 2
        _ = try reader.checkCount(UInt64(itemCount), entrySize: minimumEntry, what: "iloc")
        var result: [Location] = []
        result.reserveCapacity(itemCount)
        for _ in 0..<itemCount {
            let id = header.version < 2 ? UInt32(try reader.u16()) : try reader.u32()
            let method: UInt8 = header.version >= 1 ? UInt8(try reader.u16() & 0xF) : 0
            try reader.skip(2)
            let baseAt = reader.offset
            let base = try field(baseSize)
            let extentCount = try reader.checkCount(UInt64(try reader.u16()), entrySize: indexSize + offsetSize + lengthSize, what: "iloc extents")
            var extents = HEIFItem.ExtentList()
            extents.reserveCapacity(extentCount)
            var fields: HEIFItem.LocationFields?
            for index in 0..<extentCount {
                _ = try field(indexSize)
                let offsetAt = reader.offset
                let offset = try field(offsetSize)
                let lengthAt = reader.offset
                extents.append(HEIFItem.Extent(offset: offset, length: try field(lengthSize)))
                if index == 0 {
                    fields = HEIFItem.LocationFields(baseOffsetAt: baseAt, baseOffsetSize: baseSize, extentCount: extentCount, firstOffsetAt: offsetAt,
                                                     offsetSize: offsetSize, firstLengthAt: lengthAt, lengthSize: lengthSize)
                }
            }
            result.append((id, method, base, extents, fields))
        }
        locations = result
    }
}
