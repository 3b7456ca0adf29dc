/// A HEIF/AVIF item (ISO/IEC 23008-12 §9): what `iinf` and `iloc` say of it.
public struct HEIFItem: Sendable, Equatable {
    public var id: UInt32
    public var type: FourCC
    public var name: String
    public var contentType: String?
    /// 0 = file offsets, 1 = inside `idat`, 2 = from other items.
    public var constructionMethod: UInt8
    public var baseOffset: UInt64
    public var extents: ExtentList
    public var hidden: Bool
    /// Where this item's `iloc` fields are in the file, for in-place rewriting.
    public var location: LocationFields?

    /// Absolute file offsets and widths of an item's `iloc` fields (first extent only).
    public struct LocationFields: Sendable, Equatable {
        public var baseOffsetAt: Int64
        public var baseOffsetSize: Int
        public var extentCount: Int
        public var firstOffsetAt: Int64
        public var offsetSize: Int
        public var firstLengthAt: Int64
        public var lengthSize: Int
    }

    public struct Extent: Sendable, Equatable {
        public var offset: UInt64
        public var length: UInt64
    }

    /// An item's extents in order. Nearly every item has exactly one (a HEIC's grid tiles are
    /// dozens of items), so the first is held in place and only further ones take an array.
    public struct ExtentList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
        private var head = Extent(offset: 0, length: 0)
        private var tail: [Extent] = []
        public private(set) var count = 0

        public init() {}
        public init(arrayLiteral extents: Extent...) {
            for extent in extents { append(extent) }
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        public subscript(position: Int) -> Extent {
            precondition(position >= 0 && position < count, "extent \(position) of \(count)")
            return position == 0 ? head : tail[position - 1]
        }

        public mutating func append(_ extent: Extent) {
            if count == 0 { head = extent } else { tail.append(extent) }
            count += 1
        }

        public mutating func reserveCapacity(_ capacity: Int) {
            if capacity > 1 { tail.reserveCapacity(capacity - 1) }
        }
    }

    public var totalLength: UInt64 { extents.reduce(0) { $0 &+ $1.length } }
}

public struct HEIFReference: Sendable, Equatable {
    public var type: FourCC
    public var from: UInt32
    public var to: [UInt32]
}

/// The `meta` box of a HEIF/AVIF file: items, their locations and references.
public struct HEIFStructure: Sendable {
    public var handler: FourCC?
    public var primaryItemID: UInt32?
    public var items: [HEIFItem]
    public var references: [HEIFReference]
    /// Property box types in `iprp/ipco`, in order.
    public var propertyTypes: [FourCC]
    /// `idat` payload range.
    var itemData: ByteReader?
    /// Bytes a box left unread (the rest of `meta` was read).
    public var warnings: [ParseError] = []
    /// The primary image's size, rotation and mirroring from its properties (`ipma`, `ipco`).
    public var primaryImage: ImageProperties? = nil
    var metaPath = "meta"


    /// A box model from its payload, with a warning for any byte it leaves unread.
    mutating func model<T: BoxModel>(_ reader: ByteReader, as type: T.Type, _ name: FourCC) throws -> T {
        try model(reader, name) { try T(parsing: &$0) }
    }

    /// A value `parse` reads from a box's payload, with a warning for any byte it leaves unread.
    mutating func model<T>(_ reader: ByteReader, _ name: FourCC, _ parse: (inout ByteReader) throws -> T) throws -> T {
        var reader = reader
        let value = try parse(&reader)
        if reader.remaining > 0 { warnings.append(reader.error(.invalidSize, "\(reader.remaining) unread bytes after \(name)")) }
        return value
    }

    /// `iprp`'s property list (`ipco`) and its association table (`ipma`), the last of each.
    static func propertyBoxes(_ iprp: ByteReader) throws -> (BoxList?, ByteReader?) {
        var list: BoxList?, table: ByteReader?
        var children = try BoxIterator.walk(iprp)
        while let child = children.next() {
            if child.type == "ipco" {
                list = try BoxIterator.all(children.payload)
            } else if child.type == "ipma" {
                table = children.payload
            }
        }
        return (list, table)
    }

    /// The primary image's size, rotation and mirroring from `ipma` and `ipco`; a damaged
    /// table is a warning of the structure.
    mutating func readPrimaryImage(associations: ByteReader?, properties: BoxList?) {
        guard let primary = primaryItemID, var table = associations, let properties else { return }
        do {
            if let found = try ItemPropertyAssociations.of(primary, parsing: &table) {
                primaryImage = ImageProperties.read(found, in: properties)
            }
        } catch let error as ParseError {
            warnings.append(error)
        } catch {
            warnings.append(ParseError(.invalidValue, "\(error)", offset: 0, path: metaPath + "/iprp/ipma"))
        }
    }

    /// Whether an item of `type` is a metadata item (`Exif`, `mime`: what a check reads).
    static func isMetadataItem(_ type: FourCC) -> Bool { type == "Exif" || type == "mime" }

    /// Parses the payload of the top-level `meta` box. With `metadataItemsOnly`, `items` holds
    /// only the metadata items; every table is read and checked as without it.
    public static func parse(_ payload: ByteReader, metadataItemsOnly: Bool = false) throws -> HEIFStructure {
        var reader = payload
        _ = try FullBoxHeader(&reader)
        var structure = HEIFStructure(handler: nil, primaryItemID: nil, items: [], references: [], propertyTypes: [], itemData: nil)
        var infos: [ItemInfoBox.Entry] = []
        // How many `iinf` boxes were read, and the `iloc` read with a filter from the entries
        // of the one so far (read again whole should another `iinf` come after it).
        var infoBoxes = 0
        var filtered: (reader: ByteReader, infoBoxes: Int)?
        var locations: [HEIFItem] = []
        var propertyList: BoxList?
        var associationTable: ByteReader?
        var walk = try BoxIterator.walk(reader)
        while let box = walk.next() {
            let child = walk.payload
            switch box.type {
            case "hdlr":
                structure.handler = try structure.model(child, as: HandlerBox.self, box.type).subtype
            case "pitm":
                structure.primaryItemID = try structure.model(child, as: PrimaryItemBox.self, box.type).itemID
            case "iinf":
                infos = try structure.model(child, as: ItemInfoBox.self, box.type).entries
                infoBoxes += 1
            case "iloc":
                filtered = nil
                if metadataItemsOnly && infoBoxes > 0 {
                    // The entries are known (`iinf` comes first, as cameras write it): only the
                    // metadata items' locations are kept as they are read.
                    // The metadata entries alone (in ID order, as `infos`): a camera's HEIC has
                    // dozens of tile items and two metadata ones, asked about for every item.
                    let kept = infos.filter { isMetadataItem($0.type) }
                    locations = try structure.model(child, box.type) { reader in
                        try ItemLocationBox(parsing: &reader, keeping: kept).locations
                    }
                    filtered = (child, infoBoxes)
                } else {
                    locations = try structure.model(child, as: ItemLocationBox.self, box.type).locations
                }
            case "iref":
                structure.references += try structure.model(child, as: ItemReferenceBox.self, box.type).references
            case "idat":
                structure.itemData = child
            case "iprp":
                (propertyList, associationTable) = try propertyBoxes(child)
                structure.propertyTypes = propertyList?.types ?? []
            default:
                break
            }
        }
        structure.readPrimaryImage(associations: associationTable, properties: propertyList)
        if let filtered, filtered.infoBoxes != infoBoxes {
            // Entries came after the filter was made: every location again (it was read once
            // without an error, so it reads again without one), filtered below.
            var reader = filtered.reader
            locations = try ItemLocationBox(parsing: &reader).locations
        }
        // `infos` is ordered by ID: each located item finds its entry by binary search (an ID
        // located twice finds it again), takes what it says in place and marks it located; the
        // rest follow in ID order.
        structure.items = locations
        locations = []
        var located = [Bool](repeating: false, count: infos.count)
        for index in structure.items.indices {
            guard let slot = ItemInfoBox.slot(of: structure.items[index].id, in: infos) else { continue }
            located[slot] = true
            structure.items[index].type = infos[slot].type
            structure.items[index].name = infos[slot].name
            structure.items[index].contentType = infos[slot].contentType
            structure.items[index].hidden = infos[slot].hidden
        }
        if metadataItemsOnly {
            // Whatever order the tables came in: the located items that are not metadata go.
            structure.items.removeAll { !isMetadataItem($0.type) }
        }
        for (slot, info) in infos.enumerated() where !located[slot] && (!metadataItemsOnly || isMetadataItem(info.type)) {
            structure.items.append(HEIFItem(id: info.id, type: info.type, name: info.name, contentType: info.contentType, constructionMethod: 0,
                                            baseOffset: 0, extents: [], hidden: info.hidden, location: nil))
        }
        return structure
    }

    /// Reads an item's bytes (all extents), from the file or from `idat`, within `limit` bytes.
    public func data(of item: HEIFItem, from source: ByteSource, limit: Int64 = Limits.maxMetadataPayloadBytes) throws -> (bytes: [UInt8], offset: Int64) {
        let path = "\(metaPath)/iloc/item[\(item.id)]"
        guard item.constructionMethod <= 1 else {
            throw ParseError(.unsupported, "item \(item.id) is built from other items (construction method 2)", offset: 0, path: path)
        }
        var bytes: [UInt8] = []
        var firstOffset: Int64 = 0
        for (index, extent) in item.extents.enumerated() {
            let (start, overflow) = item.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow, let start64 = Int64(exactly: start) else {
                throw ParseError(.invalidSize, "item \(item.id) extent offset overflows", offset: 0, path: path)
            }
            var length = extent.length
            if length == 0 && item.extents.count == 1 {
                // Length 0: the extent runs to the end of its data.
                let available = item.constructionMethod == 1 ? Int64(itemData?.remaining ?? 0) : source.size
                length = UInt64(max(0, available - start64))
            }
            guard Int64(exactly: length).map({ $0 <= limit - Int64(bytes.count) }) == true else {
                throw ParseError(.limitExceeded, "item \(item.id) is larger than \(limit) bytes", offset: min(start64, source.size), path: path)
            }
            if index == 0 { firstOffset = start64 }
            if item.constructionMethod == 1 {
                guard var idat = itemData else {
                    throw ParseError(.invalidValue, "item \(item.id) lives in 'idat' but there is none", offset: 0, path: path)
                }
                guard start64 <= Int64(idat.remaining) else {
                    throw idat.error(.truncated, "item \(item.id) extent starts \(start64) bytes into a \(idat.remaining)-byte idat")
                }
                try idat.skip(Int(start64))
                if index == 0 { firstOffset = idat.offset }
                bytes += try idat.read(Int(length))
            } else {
                do {
                    bytes += try source.read(at: start64, count: Int(length))
                } catch var error as ParseError {
                    error.path = path
                    error.message = "item \(item.id) (\(item.type)) data: " + error.message
                    throw error
                }
            }
        }
        return (bytes, firstOffset)
    }
}

extension HEIFStructure {
    /// The item holding the image's XMP packet, chosen as Google's motion-photo reader chooses
    /// it (libmotionphoto, `ChooseXmpItemId`): the first XMP item whose `cdsc` reference names
    /// the primary item, else the first XMP item. An iPhone HEIC with a gain map has two: the gain
    /// map's own (describing the `hdrgainmap` item) comes first, the primary's after it.
    public var xmpItem: HEIFItem? {
        var first: HEIFItem?
        for item in items where Self.isXMP(item) {
            if let primaryItemID, describes(item.id, primaryItemID) { return item }
            if first == nil { first = item }
        }
        return first
    }

    /// The XMP item that describes the primary item: what libheif gives as the primary image's
    /// XMP, and where a writer puts properties of the image. Nil when no XMP item describes it.
    public var primaryXMPItem: HEIFItem? {
        guard let primaryItemID else { return nil }
        return items.first { Self.isXMP($0) && describes($0.id, primaryItemID) }
    }

    /// Every XMP item, in item order.
    public var xmpItems: [HEIFItem] { items.filter(Self.isXMP) }

    /// The items a `cdsc` ("content describes") reference from `item` names.
    public func described(by item: UInt32) -> [UInt32] {
        references.filter { $0.type == "cdsc" && $0.from == item }.flatMap(\.to)
    }

    func describes(_ item: UInt32, _ target: UInt32) -> Bool {
        references.contains { $0.type == "cdsc" && $0.from == item && $0.to.contains(target) }
    }

    /// A `mime` item whose content type names RDF/XML (`application/rdf+xml`). The content type
    /// is searched as bytes: Swift's generic substring search is slow for a string this short.
    static func isXMP(_ item: HEIFItem) -> Bool {
        guard item.type == "mime", var type = item.contentType else { return false }
        return type.withUTF8 { bytes in
            let needle: StaticString = "rdf+xml"
            let count = needle.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            return (0...(bytes.count - count)).contains { start in
                (0..<count).allSatisfy { bytes[start + $0] == needle.utf8Start[$0] }
            }
        }
    }

    /// Where the TIFF data starts inside an `Exif` item's bytes: after the 4-byte offset the item
    /// begins with (ISO/IEC 23008-12 Annex A), and after a JPEG-style `Exif\0\0` header some
    /// writers keep. The one reading of that header (reader and rewriter both use it).
    public static func exifTIFFStart(_ bytes: [UInt8], base: Int64, path: String) throws -> Int {
        var reader = ByteReader(bytes, base: base, path: path)
        let skip = Int(try reader.u32())
        guard skip <= reader.remaining else {
            throw reader.error(.invalidSize, "Exif item header offset \(skip) passes its \(bytes.count) bytes")
        }
        try reader.skip(skip)
        if reader.peek(6) == JPEGStructure.exifHeader { try reader.skip(6) }
        return reader.position
    }
}
