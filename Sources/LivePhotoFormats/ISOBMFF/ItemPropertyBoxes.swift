/// `ipma` (ISO/IEC 23008-12 §9.3): which properties of `ipco` each item has, as 1-based
/// indices in the order they apply. Only the entry of one item is kept: a camera's HEIC lists
/// dozens of tiles, and a check asks about its primary image alone; every entry is still read
/// and bounded.
public struct ItemPropertyAssociations: Equatable {
    public var item: UInt32
    /// 1-based indices into `ipco`'s children (0: no property), the essential flag dropped.
    public var properties: [UInt16]

    /// The associations of `item` in an `ipma` payload; nil when it has none. The entries up to
    /// the item's are walked and bounded, on the table's bytes in place (a camera's HEIC has
    /// dozens of tiles, and this runs for every HEIC of a check); those after it are not read.
    public static func of(_ item: UInt32, parsing reader: inout ByteReader) throws -> ItemPropertyAssociations? {
        let header = try FullBoxHeader(&reader)
        let idWidth = header.version >= 1 ? 4 : 2, indexWidth = header.flags & 1 == 1 ? 2 : 1
        // The smallest entry: an item ID and a zero association count.
        let count = try reader.entryCount(UInt32.self, entrySize: idWidth + 1, what: "ipma")
        let table = reader
        let bytes = reader.restSlice()
        var found: ItemPropertyAssociations?
        var cutAt: Int?
        bytes.withUnsafeBufferPointer { raw in
            var position = 0
            func load(_ width: Int) -> UInt32 {
                var value: UInt32 = 0
                for index in 0..<width { value = value << 8 | UInt32(raw[position + index]) }
                position += width
                return value
            }
            for _ in 0..<count {
                guard raw.count - position >= idWidth + 1 else { return cutAt = position }
                let id = load(idWidth)
                let associations = Int(load(1))
                guard raw.count - position >= associations * indexWidth else { return cutAt = position }
                if id == item && found == nil {
                    var indices: [UInt16] = []
                    indices.reserveCapacity(associations)
                    for _ in 0..<associations { indices.append(UInt16(truncatingIfNeeded: load(indexWidth)) & (indexWidth == 2 ? 0x7FFF : 0x7F)) }
                    found = ItemPropertyAssociations(item: id, properties: indices)
                    // Entries after it say nothing of the item (a repeated one is ignored).
                    return
                } else {
                    position += associations * indexWidth
                }
            }
        }
        if let cutAt {
            var at = table
            try? at.skip(cutAt)
            throw at.error(.truncated, "ipma: an entry runs past the table's \(bytes.count) bytes")
        }
        return found
    }
}

extension ItemPropertyAssociations {
    /// Every entry of an `ipma` payload in table order: the preservation ledger compares every
    /// item's properties. Each entry is checked against the bytes left before it is read.
    public static func all(parsing reader: inout ByteReader) throws -> [ItemPropertyAssociations] {
        let header = try FullBoxHeader(&reader)
        let idWidth = header.version >= 1 ? 4 : 2, indexWidth = header.flags & 1 == 1 ? 2 : 1
        let count = try reader.entryCount(UInt32.self, entrySize: idWidth + 1, what: "ipma")
        var entries: [ItemPropertyAssociations] = []
        for _ in 0..<count {
            let item = UInt32(truncatingIfNeeded: try reader.uint(idWidth))
            let associations = Int(try reader.u8())
            try reader.require(associations * indexWidth, "ipma: the associations of item \(item)")
            var indices: [UInt16] = []
            for _ in 0..<associations {
                indices.append(UInt16(truncatingIfNeeded: try reader.uint(indexWidth)) & (indexWidth == 2 ? 0x7FFF : 0x7F))
            }
            entries.append(ItemPropertyAssociations(item: item, properties: indices))
        }
        return entries
    }
}

/// What an image item's properties say of how it is shown: its stored size (`ispe`), its
/// rotation (`irot`, anticlockwise quarter turns) and mirroring (`imir`, the axis), in the
/// order they apply.
public struct ImageProperties: Sendable, Equatable {
    public var size: PixelSize?
    /// Transformations in the order the item's associations list them.
    public var transforms: [Transform] = []

    public enum Transform: Sendable, Equatable {
        /// `irot`: anticlockwise quarter turns (0–3).
        case rotation(Int)
        /// `imir`: 0 mirrors about a vertical axis (left and right swap), 1 about a horizontal one.
        case mirror(UInt8)
    }

    public init(size: PixelSize? = nil, transforms: [Transform] = []) {
        self.size = size
        self.transforms = transforms
    }

    /// The properties of an item from its associations and `ipco`'s children; properties that
    /// cannot be read are left out (the structure walk reports damaged boxes).
    static func read(_ associations: ItemPropertyAssociations, in properties: BoxList) -> ImageProperties {
        var image = ImageProperties()
        for index in associations.properties where index > 0 {
            // Only the three properties read get a payload reader.
            guard let type = properties.type(at: Int(index) - 1), type == "ispe" || type == "irot" || type == "imir",
                  var payload = properties.payload(at: Int(index) - 1) else { continue }
            switch type {
            case "ispe":
                // Version and flags, then width and height.
                guard (try? FullBoxHeader(&payload)) != nil, let width = try? payload.u32(), let height = try? payload.u32(),
                      width > 0, height > 0, let w = Int(exactly: width), let h = Int(exactly: height) else { continue }
                if image.size == nil { image.size = PixelSize(width: w, height: h) }
            case "irot":
                if let byte = try? payload.u8() { image.transforms.append(.rotation(Int(byte & 3))) }
            case "imir":
                if let byte = try? payload.u8() { image.transforms.append(.mirror(byte & 1)) }
            default:
                break
            }
        }
        return image
    }
}
