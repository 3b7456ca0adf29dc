/// A JPEG marker segment: its marker, where it is, and what lpcheck recognised in it.
public struct JPEGSegment: Sendable, Equatable {
    public var marker: UInt8
    public var offset: Int64
    /// Length of the segment's payload (after the 2-byte length field); 0 for markers without one.
    public var length: Int
    /// `Exif`, `XMP`, `ExtendedXMP`, `MPF`, `JFIF`, `ICC_PROFILE`, ... where recognised.
    public var label: String?

    public var payloadOffset: Int64 { offset + 4 }

    public var name: String {
        switch marker {
        case 0xD8: return "SOI"
        case 0xD9: return "EOI"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xC4: return "DHT"
        case 0xDD: return "DRI"
        case 0xFE: return "COM"
        case _ where Self.isFrameHeader(marker): return "SOF\(marker - 0xC0)"
        case 0xE0...0xEF: return "APP\(marker - 0xE0)"
        default: return "0xFF" + String(marker, radix: 16, uppercase: true)
        }
    }

    /// A start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC, which share the range).
    static func isFrameHeader(_ marker: UInt8) -> Bool { (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC }
}

/// A picture's size in pixels as stored (before any orientation is applied).
public struct PixelSize: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
}

/// The segments of a JPEG up to the start of scan, and the payloads lpcheck decodes.
public struct JPEGStructure: Sendable {
    public var segments: [JPEGSegment]
    /// The TIFF bytes of the APP1 Exif segment and their file offset.
    public var exif: (tiff: [UInt8], offset: Int64)?
    /// The standard XMP packet and its offset; extended XMP parts are appended in order.
    public var xmp: (bytes: [UInt8], offset: Int64)?
    /// The stored picture's size from the first SOFn frame header (before EXIF Orientation).
    public var frameSize: PixelSize? = nil

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extendedXMPHeader: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// Reads segment headers one by one (marker and length in one 4-byte read), whole APP1
    /// segments (Exif, XMP) and the first 40 bytes of other APPn segments; nothing else.
    public static func read(from source: ByteSource) throws -> JPEGStructure {
        let soi = try source.read(at: 0, count: 2)
        guard soi == [0xFF, 0xD8] else { throw ParseError(.invalidValue, "not a JPEG: no SOI marker", offset: 0, path: "SOI") }
        var structure = JPEGStructure(segments: [JPEGSegment(marker: 0xD8, offset: 0, length: 0, label: nil)], exif: nil, xmp: nil, extendedXMP: nil)
        var extended: [(offset: UInt32, bytes: [UInt8])] = []
        var offset: Int64 = 2
        do {
            try walk()
        } catch let error as ParseError {
            // What was read before the damage (Exif, XMP) stays usable; the damage is reported.
            structure.warnings.append(error)
        }
        if let first = extended.first {
            structure.extendedXMP = (extended.sorted { $0.offset < $1.offset }.flatMap(\.bytes), Int64(first.offset))
        }
        return structure

        func walk() throws {
        while true {
            guard structure.segments.count < Limits.maxBoxesPerContainer else {
                throw ParseError(.limitExceeded, "more than \(Limits.maxBoxesPerContainer) JPEG segments", offset: offset)
            }
            // Marker and length in one read (4 bytes; 2 at the very end). Markers may be preceded
            // by fill bytes 0xFF.
            func header() throws -> [UInt8] { try source.read(at: offset, count: Int(min(4, max(2, source.size - offset)))) }
            var head = try header()
            guard head[0] == 0xFF else {
                throw ParseError(.invalidValue, "expected a marker (0xFF), found 0x\(String(head[0], radix: 16))", offset: offset, path: "segment[\(structure.segments.count + 1)]")
            }
            var fill = 0
            while head[1] == 0xFF {
                fill += 1
                guard fill < 4096 else { throw ParseError(.invalidValue, "endless fill bytes", offset: offset) }
                offset += 1
                head = try header()
            }
            let marker = head[1]
            if marker == 0xD9 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                structure.segments.append(JPEGSegment(marker: marker, offset: offset, length: 0, label: nil))
                if marker == 0xD9 { break }
                offset += 2
                continue
            }
            let segmentOffset = offset
            var path: String { "\(JPEGSegment(marker: marker, offset: 0, length: 0).name)@\(segmentOffset)" }
            // From the header read when it holds all 4 bytes (no array made for the two).
            let lengthBytes = head.count >= 4 ? head[2..<4] : try source.read(at: offset + 2, count: 2)[...]
            let length = Int(lengthBytes[lengthBytes.startIndex]) << 8 | Int(lengthBytes[lengthBytes.startIndex + 1])
            guard length >= 2 else {
                throw ParseError(.invalidSize, "segment length \(length) is below 2", offset: offset + 2, path: path)
            }
            var segment = JPEGSegment(marker: marker, offset: offset, length: length - 2, label: nil)
            guard segment.payloadOffset + Int64(segment.length) <= source.size else {
                throw ParseError(.truncated, "segment of \(length) bytes runs past the end of the file", offset: offset, path: path)
            }
            if marker == 0xE1 {
                try readAPP1(&segment, path: path, source: source, into: &structure, extended: &extended)
            } else if structure.frameSize == nil, JPEGSegment.isFrameHeader(marker), segment.length >= 5 {
                // Precision (1 byte), then the number of lines and of samples per line.
                let frame = try source.read(at: segment.payloadOffset, count: 5)
                let size = PixelSize(width: Int(frame[3]) << 8 | Int(frame[4]), height: Int(frame[1]) << 8 | Int(frame[2]))
                if size.width > 0 && size.height > 0 { structure.frameSize = size }
            } else if (0xE0...0xEF).contains(marker) {
                segment.label = label(marker: marker, probe: try source.read(at: segment.payloadOffset, count: min(segment.length, 40))[...])
            }
            structure.segments.append(segment)
            if marker == 0xDA { break }
            offset = segment.payloadOffset + Int64(segment.length)
        }
        }
    }

    /// An APP1 segment: Exif or XMP nearly always, and at most 64 KB. Its first bytes come from
    /// the window of the header just read: an Exif segment's TIFF bytes are then read where they
    /// start (not copied out of the segment), any other is read whole.
    static func readAPP1(_ segment: inout JPEGSegment, path: String, source: ByteSource, into structure: inout JPEGStructure,
                         extended: inout [(offset: UInt32, bytes: [UInt8])]) throws {
        let probe = try source.read(at: segment.payloadOffset, count: min(segment.length, exifHeader.count))
        if probe.elementsEqual(exifHeader) {
            segment.label = "Exif"
            if structure.exif == nil {
                let start = segment.payloadOffset + Int64(exifHeader.count)
                structure.exif = (try source.read(at: start, count: segment.length - exifHeader.count), start)
            }
            return
        }
        let payload = probe + (try source.read(at: segment.payloadOffset + Int64(probe.count), count: segment.length - probe.count))
        segment.label = label(marker: 0xE1, probe: payload.prefix(40))
        if segment.label == "XMP", structure.xmp == nil {
            structure.xmp = (Array(payload.dropFirst(xmpHeader.count)), segment.payloadOffset + Int64(xmpHeader.count))
        } else if segment.label == "ExtendedXMP", segment.length > extendedXMPHeader.count + 40 {
            var reader = ByteReader(payload, base: segment.payloadOffset, path: path)
            try reader.skip(extendedXMPHeader.count + 32 + 4)
            let partOffset = try reader.u32()
            extended.append((partOffset, try reader.restBytes()))
        }
    }

    /// Damage found after the start of image: the segments before it were read.
    public var warnings: [ParseError] = []

    /// The extended XMP packet (a separate XML document split over APP1 segments), if any.
    public var extendedXMP: (bytes: [UInt8], offset: Int64)?

    static func label(marker: UInt8, probe: ArraySlice<UInt8>) -> String? {
        func starts(_ text: StaticString) -> Bool {
            probe.starts(with: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        switch marker {
        case 0xE0: return starts("JFIF") ? "JFIF" : starts("JFXX") ? "JFXX" : nil
        case 0xE1:
            if probe.starts(with: exifHeader) { return "Exif" }
            if probe.starts(with: xmpHeader.prefix(min(xmpHeader.count, probe.count))) && probe.count >= 29 { return "XMP" }
            if starts("http://ns.adobe.com/xmp/exten") { return "ExtendedXMP" }
            return nil
        case 0xE2: return starts("ICC_PROFILE") ? "ICC_PROFILE" : starts("MPF") ? "MPF" : nil
        case 0xEE: return starts("Adobe") ? "Adobe" : nil
        case 0xEB:
            // A JUMBF packet (common identifier JP, box instance, sequence) whose superbox's
            // description box is of C2PA's manifest-store type: a store's first packet.
            guard probe.count >= 28, starts("JP") else { return nil }
            let at = probe.startIndex
            return probe[(at + 12)..<(at + 16)].elementsEqual("jumb".utf8) && probe[(at + 20)..<(at + 24)].elementsEqual("jumd".utf8)
                && probe[(at + 24)..<(at + 28)].elementsEqual("c2pa".utf8) ? "C2PA" : nil
        default: return nil
        }
    }
}
