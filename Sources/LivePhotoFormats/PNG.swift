/// A PNG chunk: its type, where it starts (the length field) and its data length.
public struct PNGChunk: Sendable, Equatable {
    public var type: FourCC
    public var offset: Int64
    public var length: UInt32
    public var dataOffset: Int64 { offset + 8 }
}

/// The chunks of a PNG up to `IEND` and the metadata lpcheck decodes: `eXIf` (TIFF bytes, where
/// ExifTool and others keep EXIF, the Apple MakerNote included) and the XMP packet of an `iTXt`
/// chunk with keyword `XML:com.adobe.xmp`. Reads chunk headers (8 bytes each) and only those two
/// payloads; image data (`IDAT`) is skipped by its length, never read.
public struct PNGStructure: Sendable {
    public var chunks: [PNGChunk] = []
    public var exif: (tiff: [UInt8], offset: Int64)?
    public var xmp: (bytes: [UInt8], offset: Int64)?
    /// Damage found after the header: what was read before it stays usable.
    public var warnings: [ParseError] = []

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    public static func read(from source: ByteSource) throws -> PNGStructure {
        guard try source.read(at: 0, count: min(8, Int(source.size))) == signature else {
            throw ParseError(.invalidValue, "not a PNG: no signature", offset: 0)
        }
        var structure = PNGStructure()
        var offset: Int64 = 8
        do {
            while offset < source.size {
                guard structure.chunks.count < Limits.maxBoxesPerContainer else {
                    throw ParseError(.limitExceeded, "more than \(Limits.maxBoxesPerContainer) PNG chunks", offset: offset)
                }
                let head = try source.read(at: offset, count: 8)
                let length = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
                let type = FourCC(UInt32(head[4]) << 24 | UInt32(head[5]) << 16 | UInt32(head[6]) << 8 | UInt32(head[7]))
                let path = "\(type)@\(offset)"
                // PNG caps a chunk at 2^31 - 1 bytes; data and CRC must lie inside the file.
                guard length <= 0x7FFF_FFFF else { throw ParseError(.invalidSize, "chunk length \(length) exceeds 2^31-1", offset: offset, path: path) }
                let end = offset + 12 + Int64(length)
                guard end <= source.size else {
                    throw ParseError(.truncated, "chunk '\(type)' of \(length) bytes runs past the end of the file", offset: offset, path: path)
                }
                let chunk = PNGChunk(type: type, offset: offset, length: length)
                structure.chunks.append(chunk)
                if type == "eXIf" || type == "iTXt" {
                    guard Int64(length) <= Limits.maxMetadataPayloadBytes else {
                        throw ParseError(.limitExceeded, "'\(type)' of \(length) bytes", offset: offset, path: path)
                    }
                    let data = try source.read(at: chunk.dataOffset, count: Int(length))
                    if type == "eXIf", structure.exif == nil {
                        structure.exif = (data, chunk.dataOffset)
                    } else if type == "iTXt", structure.xmp == nil, let xmp = try Self.xmp(data, offset: chunk.dataOffset, path: path) {
                        structure.xmp = xmp
                    }
                }
                offset = end
                if type == "IEND" { break }
            }
        } catch let error as ParseError {
            structure.warnings.append(error)
        }
        return structure
    }

    /// The XMP text of an `iTXt` chunk: keyword, NUL, compression flag and method, language tag,
    /// NUL, translated keyword, NUL, text. Compressed XMP (flag 1) is reported, not inflated.
    static func xmp(_ data: [UInt8], offset: Int64, path: String) throws -> (bytes: [UInt8], offset: Int64)? {
        guard data.starts(with: xmpKeyword), data.count > xmpKeyword.count + 2, data[xmpKeyword.count] == 0 else { return nil }
        var position = xmpKeyword.count + 1
        let compressed = data[position] != 0
        position += 2
        for _ in 0..<2 {
            guard let nul = data[position...].firstIndex(of: 0) else {
                throw ParseError(.invalidValue, "iTXt XMP chunk without its language and keyword fields", offset: offset, path: path)
            }
            position = nul + 1
        }
        guard !compressed else {
            throw ParseError(.unsupported, "the XMP in iTXt is compressed; lpcheck does not inflate it", offset: offset + Int64(position), path: path)
        }
        return (Array(data[position...]), offset + Int64(position))
    }
}
