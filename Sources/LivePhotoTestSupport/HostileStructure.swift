/// Movies damaged in their structure, made from a real one: what a crafted file does to the
/// readers and writers, at sizes a fuzzer's small inputs never reach (10,000 nested boxes are
/// 80 KB of headers). The tests build each case; the fuzz targets expand their input with
/// `expand` before reading and writing it, so every writer target meets them.
public enum HostileStructure: UInt8, CaseIterable, Sendable {
    /// `count` `trak` boxes nested one in the other, added to `moov`.
    case nestedTracks
    /// `count` `moov` boxes nested one in the other, added to `moov` (a type writers copy whole).
    case nestedMovies
    /// `count` empty `free` boxes added to `moov`.
    case manyBoxes
    /// Every `stsz`, `stco` and `co64` count set to 0xFFFFFFF0 (the tables' bytes unchanged).
    case hugeCounts
    /// Every chunk offset moved `count` bytes past the end of the file.
    case chunkOffsetsPastEnd
    /// Every chunk offset set to the largest value its field holds.
    case hugeOffsets

    /// The movie with this damage; `count` is how many boxes or bytes. A file without a
    /// readable top-level `moov` comes back unchanged.
    public func apply(to movie: [UInt8], count: Int) -> [UInt8] {
        guard let moov = Self.topLevel(movie).first(where: { $0.type == "moov" }), moov.header == 8 else { return movie }
        switch self {
        case .nestedTracks, .nestedMovies:
            let type = self == .nestedTracks ? "trak" : "moov"
            var nest: [UInt8] = []
            nest.reserveCapacity(count * 8)
            // Built from the outside in: every box's size counts the boxes inside it.
            for level in 0..<count { nest += Self.u32(UInt32(clamping: 8 * (count - level))) + Array(type.utf8) }
            return Self.inserting(nest, intoMoovOf: movie, moov: moov)
        case .manyBoxes:
            var boxes: [UInt8] = []
            boxes.reserveCapacity(count * 8)
            for _ in 0..<count { boxes += Self.u32(8) + Array("free".utf8) }
            return Self.inserting(boxes, intoMoovOf: movie, moov: moov)
        case .hugeCounts:
            var out = movie
            for table in Self.tables(movie, moov: moov) where ["stsz", "stco", "co64"].contains(table.type) {
                let countField = table.payload + 4 + (table.type == "stsz" ? 4 : 0)
                guard countField + 4 <= table.end else { continue }
                out.replaceSubrange(countField..<(countField + 4), with: Self.u32(0xFFFF_FFF0))
            }
            return out
        case .chunkOffsetsPastEnd, .hugeOffsets:
            var out = movie
            let past = UInt64(movie.count) + UInt64(max(0, count))
            Self.mapChunkOffsets(&out, moov: moov) { _, wide in
                self == .hugeOffsets ? (wide ? UInt64.max : UInt64(UInt32.max)) : past
            }
            return out
        }
    }

    /// What starts a fuzz input that is a recipe (any other input is a file as it is).
    public static let recipeMark: [UInt8] = Array("LPHS".utf8)

    /// A fuzz input as a recipe: `LPHS`, then one byte picking the case (past the last: none),
    /// three bytes saying how many (at most 200,000), and the file.
    public static func expand(_ input: [UInt8]) -> [UInt8] {
        guard input.count > 8, input.starts(with: recipeMark) else { return input }
        let count = min(200_000, Int(input[5]) << 16 | Int(input[6]) << 8 | Int(input[7]))
        guard let kind = HostileStructure(rawValue: input[4]) else { return Array(input[8...]) }
        return kind.apply(to: Array(input[8...]), count: count)
    }

    /// The recipe `expand` makes this case from (a fuzz seed).
    public func recipe(for file: [UInt8], count: Int) -> [UInt8] {
        let count = UInt32(min(max(0, count), 200_000))
        return Self.recipeMark + [rawValue, UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + file
    }

    // MARK: A small box walker of its own (the readers under test are not used to damage files)

    struct Found {
        let type: String
        let start: Int
        let header: Int
        let end: Int
        var payload: Int { start + header }
    }

    static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }

    static func be(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }
    }

    /// The boxes from `start` to `end`, stopping at the first header that does not fit.
    static func children(_ bytes: [UInt8], from start: Int, to end: Int) -> [Found] {
        var found: [Found] = []
        var position = start
        while position + 8 <= end {
            var size = Int(be(bytes, position, 4))
            var header = 8
            if size == 1 {
                guard position + 16 <= end, let large = Int(exactly: be(bytes, position + 8, 8)) else { break }
                (size, header) = (large, 16)
            } else if size == 0 {
                size = end - position
            }
            guard size >= header, size <= end - position else { break }
            found.append(Found(type: String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self), start: position, header: header,
                               end: position + size))
            position += size
        }
        return found
    }

    static func topLevel(_ bytes: [UInt8]) -> [Found] { children(bytes, from: 0, to: bytes.count) }

    /// Every sample table box of every track (`moov/trak/mdia/minf/stbl/*`).
    static func tables(_ bytes: [UInt8], moov: Found) -> [Found] {
        var result: [Found] = []
        for trak in children(bytes, from: moov.payload, to: moov.end) where trak.type == "trak" {
            for mdia in children(bytes, from: trak.payload, to: trak.end) where mdia.type == "mdia" {
                for minf in children(bytes, from: mdia.payload, to: mdia.end) where minf.type == "minf" {
                    for stbl in children(bytes, from: minf.payload, to: minf.end) where stbl.type == "stbl" {
                        result += children(bytes, from: stbl.payload, to: stbl.end)
                    }
                }
            }
        }
        return result
    }

    /// Rewrites every chunk offset in place with `map(old, isCo64)`, clamped to its field.
    static func mapChunkOffsets(_ bytes: inout [UInt8], moov: Found, _ map: (UInt64, Bool) -> UInt64) {
        for table in tables(bytes, moov: moov) where table.type == "stco" || table.type == "co64" {
            let wide = table.type == "co64"
            let width = wide ? 8 : 4
            guard table.payload + 8 <= table.end else { continue }
            let count = Int(be(bytes, table.payload + 4, 4))
            for index in 0..<count {
                let at = table.payload + 8 + index * width
                guard at + width <= table.end else { break }
                let value = map(be(bytes, at, width), wide)
                let clamped = wide ? value : min(value, UInt64(UInt32.max))
                for byte in 0..<width { bytes[at + byte] = UInt8(clamped >> UInt64(8 * (width - 1 - byte)) & 0xFF) }
            }
        }
    }

    /// `extra` appended inside `moov`; chunk offsets past `moov` move with the media after it.
    static func inserting(_ extra: [UInt8], intoMoovOf movie: [UInt8], moov: Found) -> [UInt8] {
        var out = Array(movie[..<moov.end]) + extra + Array(movie[moov.end...])
        out.replaceSubrange(moov.start..<(moov.start + 4), with: u32(UInt32(clamping: moov.end - moov.start + extra.count)))
        if moov.end < movie.count, let grown = topLevel(out).first(where: { $0.type == "moov" }) {
            let shift = UInt64(extra.count)
            mapChunkOffsets(&out, moov: grown) { value, _ in value >= UInt64(moov.end) ? value + shift : value }
        }
        return out
    }
}
