/// Finding the movie inside a motion photo by its own structure: the top-level boxes of an
/// ISO/QuickTime file walked from an `ftyp`, a Samsung SEF trailer's `MotionPhoto_Data` record,
/// or, when the XMP directory is stale, a search for the `ftyp` box after the still.
public enum EmbeddedMovie {
    /// Top-level boxes walked before a `moov` must have been seen.
    static let boxesBeforeMovie = 16

    /// The bytes of a movie whose `ftyp` starts at `start`: top-level boxes walked while their
    /// headers are sound and inside `limit`; nil unless `ftyp` comes first and a `moov` follows.
    public static func extent(at start: Int64, in source: ByteSource, limit: Int64? = nil) -> Range<Int64>? {
        walk(at: start, in: source, limit: limit)?.range
    }

    /// The walk of `extent`, and the box that runs past the end when the movie is cut short.
    public static func walk(at start: Int64, in source: ByteSource, limit: Int64? = nil) -> (range: Range<Int64>, cutShort: (type: String, offset: Int64, size: Int64)?)? {
        let end = min(limit ?? source.size, source.size)
        var cutShort: (type: String, offset: Int64, size: Int64)?
        var position = start
        var sawMovie = false
        var boxes = 0
        while position < end, boxes < Limits.maxItems {
            guard end - position >= 8, let head = try? source.read(at: position, count: 8) else { break }
            let type = Array(head[4..<8])
            guard type.allSatisfy({ (0x20...0x7E).contains($0) }) else { break }
            if boxes == 0 && type != Array("ftyp".utf8) { return nil }
            var size = Int64(head[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            if size == 1 {
                guard end - position >= 16, let large = try? source.read(at: position + 8, count: 8) else { break }
                let value = large.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard let exact = Int64(exactly: value) else { break }
                size = exact
            } else if size == 0 {
                size = end - position
            }
            guard size >= 8 else { break }
            guard size <= end - position else {
                // A box with a sound type whose size passes the end: the movie is cut short.
                if type.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x20 }) {
                    cutShort = (String(decoding: type, as: UTF8.self), position, size)
                }
                break
            }
            if type == Array("moov".utf8) { sawMovie = true }
            position += size
            boxes += 1
            // A movie names its moov within its first few boxes (ftyp, free, wide, mdat, moov):
            // a long chain without one is not a movie, and stopping bounds the search's work.
            if !sawMovie && boxes >= Self.boxesBeforeMovie { return nil }
        }
        return sawMovie ? (start..<position, cutShort) : nil
    }

    /// `ftyp` boxes tried by a search before it gives up: compressed image data rarely holds the
    /// four letters, and a file made of them must not make the search slow.
    static let searchCandidates = 64

    /// The first `ftyp` box (its header start) in `range`, read in blocks, that begins a movie.
    public static func search(in source: ByteSource, range: Range<Int64>) -> Int64? {
        var candidates = 0
        let block = 1 << 16
        let pattern = Array("ftyp".utf8)
        var position = max(0, range.lowerBound)
        let end = min(range.upperBound, source.size)
        while position < end {
            // Blocks overlap by 7 bytes so a header across a boundary is seen.
            let count = Int(min(Int64(block), end - position))
            guard count >= 8, let bytes = try? source.read(at: position, count: count) else { return nil }
            var index = 4
            while index + 4 <= bytes.count {
                if bytes[index] == pattern[0], bytes[index..<(index + 4)].elementsEqual(pattern) {
                    let start = position + Int64(index) - 4
                    if extent(at: start, in: source) != nil { return start }
                    candidates += 1
                    if candidates >= searchCandidates { return nil }
                }
                index += 1
            }
            if count < block { break }
            position += Int64(count - 7)
        }
        return nil
    }
}

/// Samsung's SEF trailer at the end of a JPEG or HEIC: records, then a directory between `SEFH`
/// and `SEFT` whose entries point back at them. Its pointers, not Samsung's XMP, say where the
/// `MotionPhoto_Data` movie is.
public struct SamsungTrailer: Sendable, Equatable {
    public struct Record: Sendable, Equatable {
        public var type: UInt16
        public var name: String
        /// The whole record (its 8-byte header and name included).
        public var range: Range<Int64>
        /// The record's data after its name.
        public var data: Range<Int64>
    }

    public var records: [Record]
    /// From the first record to the end of the file.
    public var range: Range<Int64>

    public static let motionPhotoData = "MotionPhoto_Data"

    public var motionPhoto: Record? { records.first { $0.name == Self.motionPhotoData } }

    /// Reads the trailer when the file ends with `SEFT`; nil when it does not or the directory is unsound.
    public static func read(from source: ByteSource) -> SamsungTrailer? {
        guard source.size >= 20, let tail = try? source.read(at: source.size - 8, count: 8),
              tail[4..<8].elementsEqual(Array("SEFT".utf8)) else { return nil }
        let length = Int64(tail[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let directoryStart = source.size - 8 - length
        guard length >= 12, length <= 1 << 20, directoryStart >= 0,
              let directory = try? source.read(at: directoryStart, count: Int(length)),
              directory[0..<4].elementsEqual(Array("SEFH".utf8)) else { return nil }
        func u32(_ at: Int) -> Int64 { Int64(directory[at..<(at + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) }
        let count = u32(8)
        guard count <= (length - 12) / 12 else { return nil }
        var records: [Record] = []
        for index in 0..<Int(count) {
            let entry = 12 + 12 * index
            let type = UInt16(directory[entry + 2]) | UInt16(directory[entry + 3]) << 8
            let back = u32(entry + 4), size = u32(entry + 8)
            let start = directoryStart - back
            guard back <= directoryStart, size >= 8, size <= back, let head = try? source.read(at: start, count: 8) else { return nil }
            let nameLength = Int64(head[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard nameLength <= size - 8, nameLength <= 256, let name = try? source.read(at: start + 8, count: Int(nameLength)) else { return nil }
            records.append(Record(type: type, name: String(decoding: name, as: UTF8.self), range: start..<(start + size),
                                  data: (start + 8 + nameLength)..<(start + size)))
        }
        let first = records.map(\.range.lowerBound).min() ?? directoryStart
        return SamsungTrailer(records: records, range: first..<source.size)
    }
}
