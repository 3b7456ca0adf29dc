/// What the last bytes of a JPEG say of a motion photo that no XMP declares: a Samsung SEF
/// trailer, or a whole movie after the image.
extension Still {
    /// A Samsung JPEG whose movie is declared only by its SEF trailer's `MotionPhoto_Data`
    /// record (no motion-photo XMP). The probe reads the last 64 bytes, the range the check of
    /// the image's EOI reads next, so that read costs nothing more.
    static func trailerMotionPhoto(_ still: Still, tail: [UInt8]?, source: ByteSource) -> MotionPhoto? {
        guard still.format == .jpeg, let tail, tail.count >= 8, tail.suffix(4).elementsEqual(Array("SEFT".utf8)),
              let record = SamsungTrailer.read(from: source)?.motionPhoto, movieStarts(at: record.data.lowerBound, in: source) else { return nil }
        return MotionPhoto(source: .samsungTrailer, version: nil, videoOffset: record.data.lowerBound, videoLength: Int64(record.data.count),
                           videoFound: true, presentationTimestampUs: nil)
    }

    /// A JPEG whose movie nothing declares (no motion-photo XMP, no SEF trailer; immich
    /// #30654), found by the `ftyp` after its image. Searched only when the file does not end
    /// with an EOI marker (its last 64 bytes, the range the EOI check reads), so a plain JPEG
    /// costs no read more; claimed only when a whole movie runs from that `ftyp` to the file's end.
    /// A JPEG cut short ends without an EOI too: the search reads at most `trailingSearchLimit`
    /// bytes after the start of scan, so a large damaged file is not read whole.
    static func trailingMotionPhoto(_ still: Still, tail: [UInt8]?, source: ByteSource) -> MotionPhoto? {
        guard still.format == .jpeg, let tail, tail.count >= 8, !tail.suffix(2).elementsEqual([0xFF, 0xD9]), !tail.suffix(4).elementsEqual(Array("SEFT".utf8)),
              let scan = still.jpeg?.segments.last(where: { $0.marker == 0xDA }),
              let start = EmbeddedMovie.search(in: source, range: scan.payloadOffset..<min(source.size, scan.payloadOffset + trailingSearchLimit)),
              let walk = EmbeddedMovie.walk(at: start, in: source), walk.cutShort == nil, walk.range.upperBound == source.size else { return nil }
        // Nothing gives an offset or a length: the movie's place is what the search found.
        var motion = MotionPhoto(source: .trailingMovie, version: nil, videoOffset: nil, videoLength: nil, videoFound: true, presentationTimestampUs: nil)
        motion.movieRange = walk.range
        return motion
    }

    /// How far after the start of scan a trailing movie's `ftyp` is looked for: a phone's JPEG
    /// image data is a few megabytes; 32 MiB leaves room for the largest.
    static let trailingSearchLimit: Int64 = 32 << 20
}
