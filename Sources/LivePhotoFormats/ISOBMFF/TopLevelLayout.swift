/// The top level of a file, read header by header from its source (no payload is loaded).
public struct TopLevelLayout: Sendable {
    public var boxes: [Box]
    /// Non-fatal problems, such as a last box that runs past the end of the file.
    public var warnings: [ParseError]

    /// Reads the top-level box headers. A box that runs past the end of the file is kept (with
    /// the size it claims) and reported as a warning; the walk stops there.
    public static func read(from source: ByteSource) throws -> TopLevelLayout {
        var boxes: [Box] = []
        // A movie or HEIF file has a handful of top-level boxes: room for them at once.
        boxes.reserveCapacity(8)
        var warnings: [ParseError] = []
        var offset: Int64 = 0
        while offset < source.size {
            let left = source.size - offset
            if left < 8 {
                let tail = try source.read(at: offset, count: Int(left))
                if tail.contains(where: { $0 != 0 }) {
                    warnings.append(ParseError(.truncated, "\(left) stray bytes after the last box", offset: offset))
                }
                break
            }
            guard boxes.count < Limits.maxBoxesPerContainer else {
                throw ParseError(.limitExceeded, "more than \(Limits.maxBoxesPerContainer) top-level boxes", offset: offset)
            }
            // Exactly the header: 8 bytes, 8 more for a 64-bit size, 16 more for a uuid.
            var headerBytes = try source.read(at: offset, count: 8)
            // After a whole box, bytes whose type is no four-character code are data appended to
            // the file (a Samsung SEF trailer), not a box cut short: said as such, the walk ends.
            // (An all-zero header stays what it was: a size-0 box to the end, zero padding.)
            if !boxes.isEmpty, headerBytes.contains(where: { $0 != 0 }), !headerBytes[4...7].allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0xA9 }) {
                let last = try source.read(at: source.size - 4, count: 4)
                let what = last.elementsEqual(Array("SEFT".utf8)) ? " (a Samsung SEF trailer, ending 'SEFT')" : ""
                warnings.append(ParseError(.invalidValue, "\(left) bytes after the last box are not a box\(what)", offset: offset))
                break
            }
            let extra = (headerBytes[0...3] == [0, 0, 0, 1] ? 8 : 0) + (headerBytes[4...7].elementsEqual(Array("uuid".utf8)) ? 16 : 0)
            if extra > 0 { headerBytes += try source.read(at: offset + 8, count: Int(min(Int64(extra), left - 8))) }
            var reader = ByteReader(headerBytes, base: offset, path: "")
            var box = try BoxHeader.parse(&reader, available: left)
            if box.size > left {
                warnings.append(ParseError(
                    .truncated, "box '\(box.type)' claims \(box.size) bytes but the file ends \(left) bytes after its start",
                    offset: offset, path: "\(box.type)"))
                boxes.append(box)
                break
            }
            box.children = []
            boxes.append(box)
            offset = box.end
        }
        return TopLevelLayout(boxes: boxes, warnings: warnings)
    }

}

extension ByteSource {
    /// Loads a box's whole payload into a reader, within the metadata limit.
    func payload(of box: Box, path: String) throws -> ByteReader {
        guard box.end <= size else {
            throw ParseError(.truncated, "box '\(box.type)' runs past the end of the file", offset: box.offset, path: path)
        }
        guard box.payloadSize <= Limits.maxMetadataBoxBytes else {
            throw ParseError(.limitExceeded, "box '\(box.type)' of \(box.payloadSize) bytes is larger than lpcheck loads",
                             offset: box.offset, path: path)
        }
        let bytes = try read(at: box.payloadOffset, count: Int(box.payloadSize))
        return ByteReader(bytes, base: box.payloadOffset, path: path)
    }
}
