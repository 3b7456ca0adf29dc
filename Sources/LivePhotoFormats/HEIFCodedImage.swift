/// One coded picture of a HEIF/AVIF (an `hvc1` or `av01` item): its decoder configuration, its
/// data and how it is shown, for a decoder. The primary image (make's read-back), or the
/// picture a report's card shows (`HEIFPicture.shown`). An item of another codec is refused by
/// name; the data is held to `maxBytes` and to the file.
public struct HEIFCodedImage: Sendable, Equatable {
    public var type: FourCC
    /// The `hvcC` or `av1C` property's payload.
    public var configuration: [UInt8]
    /// The item's bytes: length-prefixed NAL units (`hvc1`), OBUs (`av01`).
    public var data: [UInt8]
    /// The item's `irot`/`imir`, in the order its associations list them.
    public var transforms: [ImageProperties.Transform] = []

    /// The item types read, with the configuration property each needs.
    static let configurations: [FourCC: FourCC] = ["hvc1": "hvcC", "av01": "av1C"]

    /// The primary image when it is one coded picture (a grid is refused by name).
    public static func primary(in source: ByteSource, maxBytes: Int = 64 << 20) throws -> HEIFCodedImage {
        let file = try HEIFFile(source)
        return try file.coded(file.primary, role: "the primary item", maxBytes: maxBytes)
    }
}

/// A grid image (ISO/IEC 23008-12 §6.6.2.3): tiles of one size, row by row, cropped to the
/// output size at the right and bottom.
public struct HEIFGridImage: Sendable, Equatable {
    public var rows: Int, columns: Int
    public var width: Int, height: Int
    /// The tiles in `dimg` order: row by row.
    public var tiles: [HEIFCodedImage]
    /// The grid item's own `irot`/`imir`.
    public var transforms: [ImageProperties.Transform]

    /// Tiles a grid may have (256 × 256, as the field's bytes allow).
    public static let maxTiles = 65_536
}

/// The picture a card shows of a HEIF: the primary's thumbnail item where the file has one of a
/// codec read, else the primary image, one coded picture or a grid of them.
public enum HEIFPicture: Sendable, Equatable {
    case coded(HEIFCodedImage)
    case grid(HEIFGridImage)

    public static func shown(in source: ByteSource, maxBytes: Int = 64 << 20) throws -> HEIFPicture {
        let file = try HEIFFile(source)
        let structure = file.structure
        let primary = file.primary
        if let reference = structure.references.first(where: { reference in
            reference.type == "thmb" && reference.to.contains(primary.id)
                && structure.items.contains { $0.id == reference.from && HEIFCodedImage.configurations[$0.type] != nil }
        }), let item = structure.items.first(where: { $0.id == reference.from }) {
            return .coded(try file.coded(item, role: "the thumbnail item \(item.id)", maxBytes: maxBytes))
        }
        if primary.type == "grid" { return .grid(try file.grid(primary, maxBytes: maxBytes)) }
        return .coded(try file.coded(primary, role: "the primary item", maxBytes: maxBytes))
    }
}

/// A HEIF's `meta` read once for the pictures above.
struct HEIFFile {
    let source: ByteSource
    let meta: Box
    let payload: ByteReader
    let structure: HEIFStructure
    let primary: HEIFItem

    init(_ source: ByteSource) throws {
        let layout = try TopLevelLayout.read(from: source)
        guard let meta = layout.boxes.first(where: { $0.type == "meta" }) else { throw ParseError(.invalidValue, "no 'meta' box: not a HEIF image", offset: 0) }
        let payload = try source.payload(of: meta, path: "meta")
        let structure = try HEIFStructure.parse(payload)
        guard let id = structure.primaryItemID, let primary = structure.items.first(where: { $0.id == id }) else {
            throw ParseError(.invalidValue, "no primary item", offset: meta.offset, path: "meta/pitm")
        }
        (self.source, self.meta, self.payload, self.structure, self.primary) = (source, meta, payload, structure, primary)
    }

    /// An item's property of `type` (its payload) and its transforms, through ipma and ipco.
    func properties(of item: UInt32, configuration type: FourCC?) throws -> (configuration: [UInt8]?, transforms: [ImageProperties.Transform]) {
        var reader = payload
        _ = try FullBoxHeader(&reader)
        for (box, child) in try BoxIterator.all(reader) where box.type == "iprp" {
            let (properties, associations) = try HEIFStructure.propertyBoxes(child)
            guard var table = associations, let properties, let found = try ItemPropertyAssociations.of(item, parsing: &table) else { continue }
            var configuration: [UInt8]?
            for index in found.properties where index > 0 && type != nil && properties.type(at: Int(index) - 1) == type {
                guard var property = properties.payload(at: Int(index) - 1) else { continue }
                configuration = try property.restBytes()
                break
            }
            return (configuration, ImageProperties.read(found, in: properties).transforms)
        }
        return (nil, [])
    }

    func coded(_ item: HEIFItem, role: String, maxBytes: Int) throws -> HEIFCodedImage {
        guard let propertyType = HEIFCodedImage.configurations[item.type] else {
            throw ParseError(.unsupported, "\(role) is '\(item.type)', not one coded picture (hvc1, av01)", offset: meta.offset, path: "meta/iinf")
        }
        guard item.constructionMethod <= 1 else { throw ParseError(.unsupported, "\(role)'s data is built from other items (construction method 2)", offset: meta.offset, path: "meta/iloc") }
        let (configuration, transforms) = try properties(of: item.id, configuration: propertyType)
        guard let configuration else { throw ParseError(.invalidValue, "\(role) has no \(propertyType) property", offset: meta.offset, path: "meta/iprp") }
        let data = try structure.data(of: item, from: source, limit: Int64(maxBytes)).bytes
        return HEIFCodedImage(type: item.type, configuration: configuration, data: data, transforms: transforms)
    }

    /// A grid item: its layout from its data, its tiles through `dimg`, all held to `maxBytes`
    /// together.
    func grid(_ item: HEIFItem, maxBytes: Int) throws -> HEIFGridImage {
        let path = "meta/iloc/item[\(item.id)]"
        var reader = ByteReader(try structure.data(of: item, from: source, limit: 64).bytes, base: 0, path: path)
        guard try reader.u8() == 0 else { throw ParseError(.unsupported, "the grid item \(item.id) is of a version other than 0", offset: meta.offset, path: path) }
        let wide = try reader.u8() & 1 == 1
        let rows = Int(try reader.u8()) + 1, columns = Int(try reader.u8()) + 1
        let width = wide ? Int(try reader.u32()) : Int(try reader.u16())
        let height = wide ? Int(try reader.u32()) : Int(try reader.u16())
        let ids = structure.references.filter { $0.type == "dimg" && $0.from == item.id }.flatMap(\.to)
        guard ids.count == rows * columns, ids.count <= HEIFGridImage.maxTiles, width > 0, height > 0 else {
            throw ParseError(.invalidValue, "the grid item \(item.id) is \(rows)×\(columns) of \(width)×\(height) with \(Plural.count(ids.count, "tile")) (dimg)", offset: meta.offset, path: "meta/iref")
        }
        var tiles: [HEIFCodedImage] = []
        var budget = maxBytes
        for id in ids {
            guard let tile = structure.items.first(where: { $0.id == id }) else {
                throw ParseError(.invalidValue, "the grid's tile \(id) is no item", offset: meta.offset, path: "meta/iref")
            }
            let coded = try coded(tile, role: "the grid's tile \(id)", maxBytes: budget)
            budget -= coded.data.count
            tiles.append(coded)
        }
        let transforms = try properties(of: item.id, configuration: nil).transforms
        return HEIFGridImage(rows: rows, columns: columns, width: width, height: height, tiles: tiles, transforms: transforms)
    }
}
