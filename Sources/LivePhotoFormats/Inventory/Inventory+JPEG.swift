/// A JPEG's parts: every marker segment before the image data (named by marker and label), the
/// ICC profile its `ICC_PROFILE` segments carry, the images its MPF index lists after the
/// primary, and the image data from the start of scan to where the still ends.
extension Inventory {
    mutating func addJPEG(_ jpeg: JPEGStructure, motionPhoto: MotionPhoto?, source: ByteSource) {
        var profile: [UInt8] = []
        var index: (bytes: [UInt8], offset: Int64)?
        var scanEnd: Int64?
        // The still ends where what follows it starts: an embedded movie, a Samsung trailer, the
        // first image after the primary in the MPF index. A segment running into the first two
        // is not the still's.
        let partEnd = min(motionPhoto?.movieRange?.lowerBound ?? source.size, motionPhoto?.samsungTrailer?.lowerBound ?? source.size)
        for segment in jpeg.segments where segment.payloadOffset + Int64(segment.length) <= partEnd {
            var name = segment.name
            if let label = segment.label { name += " \(label)" }
            guard segment.length > 0, let bytes = try? source.read(at: segment.payloadOffset, count: segment.length) else {
                add(.jpegSegment, name, digest: 0)
                continue
            }
            add(.jpegSegment, name, digest: FNV1a.of(bytes))
            // "ICC_PROFILE", NUL, sequence number, count: 14 bytes before each piece.
            if segment.label == "ICC_PROFILE", bytes.count > 14 { profile += bytes[14...] }
            if segment.label == "MPF", index == nil { index = (bytes, segment.payloadOffset) }
            if segment.marker == 0xDA { scanEnd = segment.payloadOffset + Int64(segment.length) }
        }
        if !profile.isEmpty { add(.icc, "profile", digest: FNV1a.of(profile)) }
        var stillEnd = partEnd
        let images = index.map { Self.mpfImages($0.bytes, base: $0.offset + 4) } ?? []
        for (number, image) in images.enumerated() where number > 0 {
            stillEnd = min(stillEnd, image.lowerBound)
            add(.mpfImage, "image \(number + 1)", digest: digest(of: image, in: source))
        }
        if let scanEnd, scanEnd < stillEnd { add(.jpegSegment, "image data", digest: digest(of: scanEnd..<stillEnd, in: source)) }
    }

    /// FNV-1a of a range of the source, read 1 MiB at a time, within the budget; 0 for a range
    /// outside the source.
    mutating func digest(of range: Range<Int64>, in source: ByteSource) -> UInt64 {
        guard range.lowerBound >= 0, range.upperBound <= source.size, spend(Int64(range.count)) else { return 0 }
        var hash = FNV1a()
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = Int(min(range.upperBound - offset, 1 << 20))
            guard let bytes = try? source.read(at: offset, count: count) else { return 0 }
            hash.add(bytes)
            offset += Int64(count)
        }
        return hash.value
    }

    /// The images an MPF segment's index lists (CIPA DC-007: tag 0xB002, 16 bytes an image:
    /// attributes, size, offset from the TIFF header, two dependent images), as ranges of the
    /// file; the first (the primary, offset 0) included. An index that does not fit gives none.
    static func mpfImages(_ payload: [UInt8], base: Int64) -> [Range<Int64>] {
        guard payload.count >= 12, payload.starts(with: Array("MPF".utf8) + [0]) else { return [] }
        var reader = ByteReader(Array(payload[4...]))
        guard let order = try? reader.u16(), order == 0x4949 || order == 0x4D4D else { return [] }
        let little = order == 0x4949
        guard let magic = try? reader.u16(littleEndian: little), magic == 42, let first = try? reader.u32(littleEndian: little),
              (try? reader.seek(toRelative: Int(first))) != nil, let count = try? reader.u16(littleEndian: little) else { return [] }
        let tiff = ByteReader(Array(payload[4...]))
        for _ in 0..<count {
            guard let tag = try? reader.u16(littleEndian: little), (try? reader.skip(2)) != nil,
                  let length = try? reader.u32(littleEndian: little), let at = try? reader.u32(littleEndian: little) else { return [] }
            guard tag == 0xB002 else { continue }
            var entries = tiff
            guard length % 16 == 0, (try? entries.seek(toRelative: Int(at))) != nil, entries.remaining >= Int(length) else { return [] }
            var images: [Range<Int64>] = []
            for _ in 0..<(length / 16) {
                guard (try? entries.skip(4)) != nil, let size = try? entries.u32(littleEndian: little),
                      let offset = try? entries.u32(littleEndian: little), (try? entries.skip(4)) != nil else { return [] }
                let start = offset == 0 ? 0 : base + Int64(offset)
                images.append(start..<(start + Int64(size)))
            }
            return images
        }
        return []
    }
}
