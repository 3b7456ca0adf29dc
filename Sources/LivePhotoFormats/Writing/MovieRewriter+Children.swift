/// The rewriter's work on `moov`'s children: their paths, `meta` keys, header times.
extension MovieRewriter {
    /// Every child's path (`moov/trak[2]`), counted in one pass: a path per child counted
    /// anew was quadratic in the children, which a hostile moov has by the thousand.
    static func childPaths(_ children: [(box: Box, bytes: [UInt8])]) -> [String] {
        var seen: [FourCC: Int] = [:]
        return children.map { child in
            let position = (seen[child.box.type] ?? 0) + 1
            seen[child.box.type] = position
            return position > 1 ? "moov/\(child.box.type)[\(position)]" : "moov/\(child.box.type)"
        }
    }

    /// `moov/meta` (made when absent) with a UTF-8 key set.
    static func setKey(_ key: String, to value: String, in children: inout [(box: Box, bytes: [UInt8])]) throws {
        try setKey(key, type: WellKnownType.utf8, value: Array(value.utf8), in: &children)
    }

    /// The lock screen's keys of iOS 17 cameras, as IMG_3853.MOV holds them (an unsigned integer
    /// 1 and a float32 1.0), added where the movie has none of its own; says what was added.
    static func addWallpaperKeys(_ movie: Movie, to children: inout [(box: Box, bytes: [UInt8])]) throws -> [String] {
        var notes: [String] = []
        for (key, type, value) in [(LivePhotoKeys.livePhotoAuto, WellKnownType.unsignedBE, [UInt8(1)]),
                                   (LivePhotoKeys.vitalityScore, WellKnownType.float32, BoxWriter.u32(Float(1).bitPattern))]
        where !movie.metadata.contains(where: { $0.key == key }) {
            try setKey(key, type: type, value: value, in: &children)
            notes.append("add \(key) = \(type == WellKnownType.float32 ? "1.0" : "1") in moov/meta (the lock screen's wallpaper key of iOS 17 cameras)")
        }
        return notes
    }

    /// `moov/meta` (made when absent) with a key set to a value of a well-known data type.
    static func setKey(_ key: String, type: UInt32, value: [UInt8], in children: inout [(box: Box, bytes: [UInt8])]) throws {
        let index = children.firstIndex { $0.box.type == "meta" }
        let existing = index.map { children[$0] }
        // A meta written here has an 8-byte header, whatever the old one had.
        let metaBytes = try QuickTimeMeta.setting(existing?.bytes, headerSize: existing?.box.headerSize ?? 8, key: key, type: type, value: value)
        let box = Box(type: "meta", offset: 0, size: Int64(metaBytes.count), headerSize: 8)
        if let index { children[index] = (box, metaBytes) } else { children.append((box, metaBytes)) }
    }

    /// `mvhd` and every track's `tkhd` and `mdhd` with both times set; names what was set.
    static func settingHeaderTimes(_ children: inout [(box: Box, bytes: [UInt8])], seconds: UInt64) throws -> String {
        var movieHeaders = 0, trackHeaders = 0
        let paths = childPaths(children)
        for index in children.indices {
            let (box, bytes) = children[index]
            if box.type == "mvhd" {
                children[index].bytes = try HeaderTimes.setting(bytes, headerSize: box.headerSize, seconds: seconds, path: "moov/mvhd")
                movieHeaders += 1
            } else if box.type == "trak" {
                let track = try HeaderTimes.settingTrack(bytes, headerSize: box.headerSize, seconds: seconds, path: paths[index])
                children[index].bytes = track.bytes
                trackHeaders += track.set
            }
        }
        guard movieHeaders == 1 else { throw WriteError(.missingStructure, "moov has \(movieHeaders) mvhd boxes") }
        return "mvhd and \(trackHeaders) track and media \(Plural.noun(trackHeaders, "header"))"
    }

    /// `ftyp`, a new `moov` of `children` (its chunk offsets, given as the source's, moved), then
    /// the source's `data` boxes copied in order, and `extra` zero bytes in an `mdat` of their own
    /// (offsets from the source's end up land there). The moov's size fixes where the data lands
    /// and a chunk offset that needs 64 bits grows it, so the size is settled first.
    /// A fragmented movie's fragment boxes are not copied, nor `mvex` kept: the tables of
    /// `children` must list its samples (`defragmenting`, or a writer's own tables).
    static func placingMedia(after ftyp: [UInt8], children: [(box: Box, bytes: [UInt8])], data: [Box], source: ByteSource, extra: Int = 0) throws -> FilePatch {
        let children = children.filter { $0.box.type != "mvex" }
        let data = data.filter { !fragmentBoxes.contains($0.type) }
        for box in data where box.end > source.size {
            throw WriteError(.inconsistentInput, "box '\(box.type)' at \(box.offset) runs past the end of the movie")
        }
        var moovSize = 8 + children.reduce(0) { $0 + $1.bytes.count }
        var rebuilt: [[UInt8]] = []
        for _ in 0..<4 {
            var position = Int64(ftyp.count + moovSize)
            var moved: [(old: Range<Int64>, new: Int64)] = []
            for box in data {
                moved.append((box.offset..<box.end, position))
                position += box.size
            }
            if extra > 0 { moved.append((source.size..<(source.size + Int64(extra)), position + 8)) }
            rebuilt = try children.map { child in
                guard child.box.type == "trak" else { return child.bytes }
                return try mappingChunkOffsets(child.bytes) { value in
                    // The boxes are in file order: the last that starts at or before the offset.
                    var (low, high) = (0, moved.count)
                    while low < high {
                        let middle = (low + high) / 2
                        if let signed = Int64(exactly: value), moved[middle].old.lowerBound <= signed { low = middle + 1 } else { high = middle }
                    }
                    guard let signed = Int64(exactly: value), low > 0, moved[low - 1].old.contains(signed) else {
                        throw WriteError(.inconsistentInput, "chunk offset \(value) points at no media box")
                    }
                    let hit = moved[low - 1]
                    return UInt64(signed - hit.old.lowerBound + hit.new)
                }
            }
            let size = 8 + rebuilt.reduce(0) { $0 + $1.count }
            if size == moovSize { break }
            moovSize = size
        }
        guard moovSize <= Int(UInt32.max) else { throw WriteError(.fieldOverflow, "the moov box would not fit 32 bits") }
        var patch = FilePatch()
        patch.append(ftyp + moovHeader(size: moovSize, headerSize: 8) + rebuilt.flatMap { $0 })
        for box in data { patch.copy(box.offset..<box.end) }
        if extra > 0 { patch.append(BoxWriter.box("mdat", [UInt8](repeating: 0, count: extra))) }
        return patch
    }
}
