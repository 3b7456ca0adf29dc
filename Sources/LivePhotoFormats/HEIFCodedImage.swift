/// A HEIF's primary image when it is one coded picture (an `hvc1` item, as lpcheck writes its
/// stills): its decoder configuration and its data, for a decoder. A grid or another codec is
/// refused by name; the data is held to `maxBytes` and to the file.
public struct HEIFCodedImage: Sendable, Equatable {
    public var type: FourCC
    /// The `hvcC` property's payload.
    public var configuration: [UInt8]
    /// The item's bytes: length-prefixed NAL units.
    public var data: [UInt8]

    public static func primary(in source: ByteSource, maxBytes: Int = 64 << 20) throws -> HEIFCodedImage {
        let layout = try TopLevelLayout.read(from: source)
        guard let meta = layout.boxes.first(where: { $0.type == "meta" }) else { throw ParseError(.invalidValue, "no 'meta' box: not a HEIF image", offset: 0) }
        let payload = try source.payload(of: meta, path: "meta")
        let structure = try HEIFStructure.parse(payload)
        guard let primary = structure.primaryItemID, let item = structure.items.first(where: { $0.id == primary }) else {
            throw ParseError(.invalidValue, "no primary item", offset: meta.offset, path: "meta/pitm")
        }
        guard item.type == "hvc1" else { throw ParseError(.unsupported, "the primary item is '\(item.type)', not one coded picture (hvc1)", offset: meta.offset, path: "meta/iinf") }
        guard item.constructionMethod == 0 else { throw ParseError(.unsupported, "the primary item's data is not in the file (construction method \(item.constructionMethod))", offset: meta.offset, path: "meta/iloc") }
        // The item's hvcC, through ipma and ipco.
        var reader = payload
        _ = try FullBoxHeader(&reader)
        var configuration: [UInt8]?
        for (box, child) in try BoxIterator.all(reader) where box.type == "iprp" {
            let (properties, associations) = try HEIFStructure.propertyBoxes(child)
            guard var table = associations, let properties, let found = try ItemPropertyAssociations.of(primary, parsing: &table) else { continue }
            for index in found.properties where index > 0 && properties.type(at: Int(index) - 1) == "hvcC" {
                guard var property = properties.payload(at: Int(index) - 1) else { continue }
                configuration = try property.restBytes()
                break
            }
        }
        guard let configuration else { throw ParseError(.invalidValue, "the primary item has no hvcC property", offset: meta.offset, path: "meta/iprp") }
        guard item.totalLength <= UInt64(maxBytes) else {
            throw ParseError(.limitExceeded, "the primary item's \(item.totalLength) bytes are more than \(maxBytes)", offset: meta.offset, path: "meta/iloc")
        }
        var data: [UInt8] = []
        data.reserveCapacity(Int(item.totalLength))
        for extent in item.extents {
            let (start, overflow) = item.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow, let offset = Int64(exactly: start), offset <= source.size, Int64(extent.length) <= source.size - offset else {
                throw ParseError(.outsideFile, "an extent of the primary item lies outside the file", offset: meta.offset, path: "meta/iloc")
            }
            data += try source.read(at: offset, count: Int(extent.length))
        }
        return HEIFCodedImage(type: item.type, configuration: configuration, data: data)
    }
}
