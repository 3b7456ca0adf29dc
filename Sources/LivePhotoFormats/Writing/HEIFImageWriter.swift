/// Writes a HEIF still from scratch: one coded image item (the primary), its Exif item (`cdsc`
/// to it) and the properties that say how it is shown. The coded picture is a piece of the
/// patch: a range copied from the source (a movie's sample, byte for byte) or new bytes (an
/// encoder's output), so media data is never rebuilt here.
///
/// Layout: `ftyp` (heic; mif1, heic), `meta` (hdlr pict, pitm, iinf, iref, iprp, iloc), `mdat`
/// (the Exif item, then the picture). Its item and property numbering is fixed: 1 the image,
/// 2 the Exif.
public enum HEIFImageWriter {
    public struct Image: Sendable {
        /// The item type: `hvc1` (the configuration an `hvcC` payload).
        public var type: FourCC
        public var configurationType: FourCC
        public var configuration: [UInt8]
        /// The decoded size (`ispe`).
        public var width: UInt32
        public var height: UInt32
        /// Bits per channel (`pixi`), one per channel.
        public var bitDepths: [UInt8]
        /// A `colr` payload (`nclx`, `prof` or `rICC`), when known.
        public var colour: [UInt8]?
        /// `irot`: anticlockwise quarter turns (0–3); 0 writes none.
        public var anticlockwiseTurns: Int = 0
        /// `imir`'s axis (applied after the rotation), when mirrored.
        public var mirror: UInt8?
        /// The coded picture: `.copy` of the source, or `.bytes`.
        public var data: FilePatch.Piece

        public init(type: FourCC, configurationType: FourCC, configuration: [UInt8], width: UInt32, height: UInt32, bitDepths: [UInt8],
                    colour: [UInt8]?, data: FilePatch.Piece) {
            (self.type, self.configurationType, self.configuration, self.width, self.height) = (type, configurationType, configuration, width, height)
            (self.bitDepths, self.colour, self.data) = (bitDepths, colour, data)
        }
    }

    /// A `colr` payload of type `nclx` (ISO/IEC 23091-2 codes, the full-range flag).
    public static func nclx(primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool) -> [UInt8] {
        FourCC("nclx").bytes + [0, primaries, 0, transfer, 0, matrix, fullRange ? 0x80 : 0]
    }

    /// The Exif item's payload: the offset of the TIFF header past the 4-byte field, then
    /// `Exif\0\0` and the TIFF, as Apple's cameras write it.
    public static func exifItem(_ tiff: [UInt8]) -> [UInt8] {
        BoxWriter.u32(6) + JPEGStructure.exifHeader + tiff
    }

    /// The still: `exif` is a TIFF (header and IFDs).
    public static func still(_ image: Image, exif tiff: [UInt8]) throws -> FilePatch {
        let exif = exifItem(tiff)
        guard image.data.count > 0, image.data.count < Int64(UInt32.max) - Int64(exif.count) - (1 << 20) else {
            throw WriteError(.fieldOverflow, "a coded picture of \(image.data.count) bytes does not fit a HEIF still's 32-bit item fields")
        }
        guard (0..<4).contains(image.anticlockwiseTurns) else { throw WriteError(.inconsistentInput, "irot takes 0 to 3 quarter turns") }
        let ftyp = BoxWriter.box("ftyp", FourCC("heic").bytes + BoxWriter.u32(0) + FourCC("mif1").bytes + FourCC("heic").bytes)
        // iloc's offsets depend on meta's size, which does not depend on them: lay it out twice.
        var meta = self.meta(image, exifLength: exif.count, exifOffset: 0, imageOffset: 0)
        let mdatStart = ftyp.count + meta.count
        let exifOffset = UInt32(mdatStart + 8)
        meta = self.meta(image, exifLength: exif.count, exifOffset: exifOffset, imageOffset: exifOffset + UInt32(exif.count))
        let mdatSize = 8 + Int64(exif.count) + image.data.count
        var patch = FilePatch()
        patch.append(ftyp + meta + BoxWriter.u32(UInt32(mdatSize)) + FourCC("mdat").bytes + exif)
        patch.pieces.append(image.data)
        return patch
    }

    static func meta(_ image: Image, exifLength: Int, exifOffset: UInt32, imageOffset: UInt32) -> [UInt8] {
        let hdlr = BoxWriter.fullBox("hdlr", BoxWriter.u32(0) + FourCC("pict").bytes + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = BoxWriter.fullBox("pitm", BoxWriter.u16(1))
        func infe(_ id: UInt16, _ type: FourCC) -> [UInt8] { BoxWriter.fullBox("infe", version: 2, BoxWriter.u16(id) + BoxWriter.u16(0) + type.bytes + [0]) }
        let iinf = BoxWriter.fullBox("iinf", BoxWriter.u16(2) + infe(1, image.type) + infe(2, "Exif"))
        let iref = BoxWriter.fullBox("iref", BoxWriter.box("cdsc", BoxWriter.u16(2) + BoxWriter.u16(1) + BoxWriter.u16(1)))
        // Properties: the configuration (essential), ispe, pixi, colr, then the transforms
        // (essential), in the order they apply.
        var properties: [(box: [UInt8], essential: Bool)] = [
            (BoxWriter.box(image.configurationType, image.configuration), true),
            (BoxWriter.fullBox("ispe", BoxWriter.u32(image.width) + BoxWriter.u32(image.height)), false),
            (BoxWriter.fullBox("pixi", [UInt8(image.bitDepths.count)] + image.bitDepths), false),
        ]
        if let colour = image.colour { properties.append((BoxWriter.box("colr", colour), false)) }
        if image.anticlockwiseTurns != 0 { properties.append((BoxWriter.box("irot", [UInt8(image.anticlockwiseTurns)]), true)) }
        if let axis = image.mirror { properties.append((BoxWriter.box("imir", [axis & 1]), true)) }
        let ipco = BoxWriter.box("ipco", properties.flatMap(\.box))
        let associations = properties.enumerated().map { UInt8($0.offset + 1) | ($0.element.essential ? 0x80 : 0) }
        let ipma = BoxWriter.fullBox("ipma", BoxWriter.u32(1) + BoxWriter.u16(1) + [UInt8(associations.count)] + associations)
        let iprp = BoxWriter.box("iprp", ipco + ipma)
        func location(_ id: UInt16, _ offset: UInt32, _ length: UInt32) -> [UInt8] {
            BoxWriter.u16(id) + BoxWriter.u16(0) + BoxWriter.u16(1) + BoxWriter.u32(offset) + BoxWriter.u32(length)
        }
        let iloc = BoxWriter.fullBox("iloc", [0x44, 0x00] + BoxWriter.u16(2)
            + location(1, imageOffset, UInt32(image.data.count)) + location(2, exifOffset, UInt32(exifLength)))
        return BoxWriter.fullBox("meta", hdlr + pitm + iinf + iref + iprp + iloc)
    }
}
