/// What to change in a movie. Everything else is written back byte for byte.
public struct MovieEdits: Sendable {
    /// Set `com.apple.quicktime.content.identifier` in `moov/meta` (added if absent).
    public var contentIdentifier: String?
    /// Replace every still-image-time track with one placing the still at this moment.
    public var stillImageTime: StillImagePlacement?
    /// Make the major brand QuickTime (`qt  `), keeping `ftyp`'s size.
    public var quickTimeBrand = false

    public init(contentIdentifier: String? = nil, stillImageTime: StillImagePlacement? = nil, quickTimeBrand: Bool = false) {
        self.contentIdentifier = contentIdentifier
        self.stillImageTime = stillImageTime
        self.quickTimeBrand = quickTimeBrand
    }

    public var isEmpty: Bool { contentIdentifier == nil && stillImageTime == nil && !quickTimeBrand }
}

/// Where the still sits, and the value to store.
public struct StillImagePlacement: Sendable, Equatable {
    /// The moment in movie time, in seconds.
    public var seconds: Double
    /// -1 as cameras write.
    public var value: Int8

    public init(seconds: Double, value: Int8 = -1) {
        self.seconds = seconds
        self.value = value
    }
}

/// Rewrites a movie's metadata without touching media data: a new `moov` (in place when it can
/// keep its size by using its own `free` space, else moved to the end), a small `mdat` for the
/// new timed-metadata sample, chunk offsets of existing tracks unchanged.
public enum MovieRewriter {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static func rewrite(_ movie: Movie, source: ByteSource, edits: MovieEdits, shiftLimit: Int64 = MovieRewriter.shiftLimit) throws -> FilePatch {
        guard let moovIndex = movie.boxes.firstIndex(where: { $0.type == "moov" }) else { throw Problem(description: "no moov box") }
        let moov = movie.boxes[moovIndex]
        let payload = try source.payload(of: moov, path: "moov")
        var children = try BoxIterator.all(payload).map { (box: $0.box, bytes: try raw($0.box, payload: $0.payload, header: payload)) }
        var notes: [String] = []

        // Tracks: drop old still-image-time tracks, add the new one after the last track.
        var newTrack: (build: (UInt64, Bool) -> [UInt8], id: UInt32)?
        var reused: ReusedTrack?
        var losses: [String] = []
        if let placement = edits.stillImageTime {
            let removed = Set(movie.stillImageTimeTracks.map(\.path))
            if let old = movie.stillImageTimeTracks.first {
                let trakBytes = children.enumerated().first { pathOfChild(children, $0.offset) == old.path }?.element.bytes
                switch ReusedTrack.from(old, trakBytes: trakBytes, source: source, value: placement.value) {
                case .success(let track):
                    reused = track
                    if track.keys.count > 1 { notes.append("the new track keeps track \(old.id)'s sample entry and sample: every key (\(track.keys.joined(separator: ", "))) and value, the still-image-time value set to \(placement.value)") }
                case .failure(let why):
                    let others = old.declaredKeys.map(\.key).filter { $0 != LivePhotoKeys.stillImageTime }
                    if !others.isEmpty {
                        losses.append("track \(old.id)'s keys \(others.joined(separator: ", ")) and their values are not carried over (\(why))")
                    }
                }
            }
            if !removed.isEmpty {
                let all = children
                children = all.indices.filter { !removed.contains(pathOfChild(all, $0)) }.map { all[$0] }
                notes.append("remove the old still-image-time track(s): \(movie.stillImageTimeTracks.map { "track \($0.id)" }.joined(separator: ", "))")
            }
            guard let video = movie.primaryVideoTrack else { throw Problem(description: "the movie has no video track to place the still on") }
            guard movie.timescale > 0 else { throw Problem(description: "the movie header has no timescale") }
            let highest = movie.tracks.map(\.id).max() ?? 0
            guard highest < UInt32.max - 1 else { throw Problem(description: "track ID \(highest) leaves no room for a new track") }
            let trackID = highest + 1
            let moment = UInt64(max(0, (placement.seconds * Double(movie.timescale)).rounded()))
            let spec = StillImageTimeTrack(
                trackID: trackID, videoTrackID: video.id, timescale: movie.timescale, movieDuration: movie.duration,
                momentTicks: moment, value: placement.value, sampleEntry: reused?.entry, sample: reused?.sample)
            newTrack = ({ offset, wide in spec.build(sampleOffset: offset, co64: wide) }, trackID)
            notes.append("add still-image-time track \(trackID): value \(placement.value), one tick at \(SecondsText.format(Double(moment) / Double(movie.timescale))) s after an empty edit, cdsc → track \(video.id)")
            // mvhd's next_track_ID must pass the new track.
            if let index = children.firstIndex(where: { $0.box.type == "mvhd" }) {
                var bytes = children[index].bytes
                let field = bytes.count - 4
                let next = bytes[field...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if next <= trackID { bytes.replaceSubrange(field..<bytes.count, with: BoxWriter.u32(trackID + 1)) }
                children[index].bytes = bytes
            }
        }

        if let identifier = edits.contentIdentifier {
            let metaBytes = try metaWithIdentifier(children.first { $0.box.type == "meta" }.map { ($0.box, $0.bytes) }, identifier: identifier, movie: movie)
            if let index = children.firstIndex(where: { $0.box.type == "meta" }) {
                children[index].bytes = metaBytes
            } else {
                children.append((Box(type: "meta", offset: 0, size: Int64(metaBytes.count), headerSize: 8), metaBytes))
            }
            notes.append("set \(LivePhotoKeys.contentIdentifier) = \(identifier) in moov/meta")
        }

        // Size the new moov; the new track's sample goes into an mdat placed by the layout.
        let sample = edits.stillImageTime.map { reused?.sample ?? BoxWriter.u32(9) + BoxWriter.u32(1) + [UInt8(bitPattern: $0.value)] }
        let wide = source.size + 64 > Int64(UInt32.max)
        func assemble(sampleOffset: UInt64) -> [UInt8] {
            var parts = children.map(\.bytes)
            if let newTrack {
                let lastTrack = children.lastIndex { $0.box.type == "trak" } ?? (children.firstIndex { $0.box.type == "mvhd" } ?? -1)
                parts.insert(newTrack.build(sampleOffset, wide), at: lastTrack + 1)
            }
            return parts.flatMap { $0 }
        }
        let oldSize = Int(moov.size)
        let headerSize = moov.headerSize

        // 1. In place: the new moov fits the old one's size, using moov's own free/skip space.
        let sampleAtEnd = UInt64(source.size) + 8
        let unfitted = children
        let unfittedSize = assemble(sampleOffset: sampleAtEnd).count
        let adjustedFree = unfittedSize != oldSize - headerSize
        if let adjusted = fitted(bodySize: unfittedSize, children: unfitted, target: oldSize - headerSize) {
            children = adjusted
        }
        let candidate = assemble(sampleOffset: sampleAtEnd)
        if candidate.count == oldSize - headerSize {
            let fitted = candidate
            var patch = FilePatch()
            patch.copy(0..<moov.offset)
            patch.append(moovHeader(size: oldSize, headerSize: headerSize) + fitted)
            patch.copy(moov.end..<source.size)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            patch = try branded(patch, movie: movie, source: source, edits: edits, notes: &notes)
            let how = adjustedFree ? "its own free space absorbs the change" : "same size"
            patch.losses = losses
            patch.notes = notes + ["moov rewritten in place (\(oldSize) bytes, \(how))" + (sample.map { "; the \($0.count)-byte sample goes into a new mdat at the end" } ?? "")]
            return patch
        }
        children = unfitted

        // 2. moov is the last box but free space: cut it off and append sample and moov.
        let afterMoov = movie.boxes[(moovIndex + 1)...]
        var patch = FilePatch()
        if afterMoov.allSatisfy({ ["free", "skip"].contains($0.type) }) {
            patch.copy(0..<moov.offset)
            let sampleOffset = UInt64(moov.offset) + 8
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            let body = assemble(sampleOffset: sampleOffset)
            patch.append(moovHeader(size: body.count + 8, headerSize: 8) + body)
            notes.append("moov follows mdat: rewritten at its place (\(oldSize) → \(body.count + 8) bytes)")
        } else if source.size - moov.end <= shiftLimit, moov.headerSize == 8 {
            // 3a. moov precedes a small mdat: grow moov where it is and shift the chunk offsets
            //     that point past it (stco entries that no longer fit become co64).
            let original = children
            var delta = Int64(assemble(sampleOffset: 0).count + 8 - oldSize)
            var body: [UInt8] = []
            for _ in 0..<4 {
                children = try original.map { child in
                    child.box.type == "trak" ? (child.box, try shiftingChunkOffsets(child.bytes, by: delta, from: UInt64(moov.end))) : child
                }
                body = assemble(sampleOffset: UInt64(source.size + delta) + 8)
                let measured = Int64(body.count + 8 - oldSize)
                if measured == delta { break }
                delta = measured
            }
            guard Int64(body.count + 8 - oldSize) == delta else { throw Problem(description: "chunk offsets did not settle while shifting") }
            patch.copy(0..<moov.offset)
            patch.append(moovHeader(size: body.count + 8, headerSize: 8) + body)
            patch.copy(moov.end..<source.size)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            notes.append("moov precedes mdat: moov grows in place (\(oldSize) → \(body.count + 8) bytes) and every chunk offset after it shifts by \(delta) (the \(source.size - moov.end) bytes of media after it are small enough to move)")
        } else {
            // 3b. moov precedes a large mdat: it becomes free space and a new moov goes to the end,
            //     so no chunk offset moves and no media byte is rewritten.
            patch.copy(0..<moov.offset)
            patch.append(BoxWriter.u32(UInt32(clamping: moov.size)) + FourCC("free").bytes)
            patch.copy((moov.offset + 8)..<source.size)
            guard moov.headerSize == 8 else { throw Problem(description: "a 64-bit moov before mdat is not supported") }
            let sampleOffset = UInt64(source.size) + 8
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            let body = assemble(sampleOffset: sampleOffset)
            patch.append(moovHeader(size: body.count + 8, headerSize: 8) + body)
            notes.append("moov precedes mdat: the old moov (\(oldSize) bytes) becomes free space and the new one (\(body.count + 8) bytes) is appended; no chunk offset moves (cheaper than moving \(source.size - moov.end) bytes of media)")
        }
        patch = try branded(patch, movie: movie, source: source, edits: edits, notes: &notes)
        patch.notes = notes
        patch.losses = losses
        return patch
    }

    /// The path (`moov/trak[2]`) of the child at `index`, counted as the reader names them.
    static func pathOfChild(_ children: [(box: Box, bytes: [UInt8])], _ index: Int) -> String {
        let type = children[index].box.type
        let position = children[..<index].filter { $0.box.type == type }.count + 1
        return position > 1 ? "moov/\(type)[\(position)]" : "moov/\(type)"
    }

    /// Media after a leading moov up to this size is moved (offsets shifted, file stays compact
    /// and streamable); above it the old moov is freed and a new one appended.
    public static let shiftLimit: Int64 = 8 << 20

    /// A box (trak and below) with every chunk offset at or past `threshold` moved by `delta`;
    /// `stco` becomes `co64` when a value no longer fits 32 bits. Other boxes are copied as they are.
    static func shiftingChunkOffsets(_ bytes: [UInt8], by delta: Int64, from threshold: UInt64) throws -> [UInt8] {
        var reader = ByteReader(bytes, base: 0, path: "trak")
        let header = try BoxHeader.parse(&reader, available: Int64(bytes.count))
        let type = header.type
        let payload = Array(bytes[header.headerSize..<Int(header.size)])
        func moved(_ value: UInt64) throws -> UInt64 {
            guard value >= threshold else { return value }
            let (result, overflow) = Int64(clamping: value).addingReportingOverflow(delta)
            guard !overflow, result >= 0 else { throw Problem(description: "a chunk offset overflows when shifted") }
            return UInt64(result)
        }
        switch type {
        case "trak", "mdia", "minf", "stbl":
            var inner = ByteReader(payload, base: 0, path: "\(type)")
            var out: [UInt8] = []
            while inner.remaining >= 8 {
                var probe = inner
                let child = try BoxHeader.parse(&probe, available: Int64(inner.remaining))
                guard child.size <= Int64(inner.remaining) else { throw Problem(description: "box '\(child.type)' runs past its parent") }
                out += try shiftingChunkOffsets(try inner.read(Int(child.size)), by: delta, from: threshold)
            }
            out += try inner.restBytes()
            return BoxWriter.box(type, out)
        case "stco", "co64":
            var table = ByteReader(payload, base: 0, path: "\(type)")
            let versionAndFlags = try table.read(4)
            let count = try table.checkCount(UInt64(try table.u32()), entrySize: type == "co64" ? 8 : 4, what: "\(type)")
            var values: [UInt64] = []
            for _ in 0..<count { values.append(try moved(type == "co64" ? try table.u64() : UInt64(try table.u32()))) }
            if type == "stco" && values.allSatisfy({ $0 <= UInt64(UInt32.max) }) {
                return BoxWriter.box("stco", versionAndFlags + BoxWriter.u32(UInt32(count)) + values.flatMap { BoxWriter.u32(UInt32($0)) })
            }
            return BoxWriter.box("co64", versionAndFlags + BoxWriter.u32(UInt32(count)) + values.flatMap { BoxWriter.u64($0) })
        default:
            return bytes
        }
    }

    static func moovHeader(size: Int, headerSize: Int) -> [UInt8] {
        headerSize == 16 ? BoxWriter.u32(1) + FourCC("moov").bytes + BoxWriter.u64(UInt64(size)) : BoxWriter.u32(UInt32(size)) + FourCC("moov").bytes
    }

    /// The whole box bytes of a child.
    static func raw(_ box: Box, payload: ByteReader, header parent: ByteReader) throws -> [UInt8] {
        let start = Int(box.offset - parent.base)
        return Array(parent.bytes[start..<(start + Int(box.size))])
    }

    /// Resizes moov's own free/skip children so that the assembled body becomes exactly
    /// `target` bytes (removing or shrinking them to absorb growth, adding one to pad). Returns the
    /// adjusted children, or nil when no adjustment can reach the target.
    static func fitted(bodySize: Int, children: [(box: Box, bytes: [UInt8])], target: Int) -> [(box: Box, bytes: [UInt8])]? {
        var difference = target - bodySize
        if difference == 0 { return children }
        let isFree: ((box: Box, bytes: [UInt8])) -> Bool = { ["free", "skip"].contains($0.box.type) }
        var adjusted = children
        if difference < 0 {
            var need = -difference
            for index in adjusted.indices.reversed() where need > 0 && isFree(adjusted[index]) {
                let size = adjusted[index].bytes.count
                if size - need >= 8 {
                    adjusted[index].bytes = BoxWriter.free(size: size - need)
                    need = 0
                } else {
                    need -= size
                    adjusted[index].bytes = []
                }
            }
            guard need <= 0 else { return nil }
            difference = -need
        }
        if difference != 0 {
            guard difference >= 8 else { return nil }
            adjusted.append((Box(type: "free", offset: 0, size: Int64(difference), headerSize: 8), BoxWriter.free(size: difference)))
        }
        return adjusted.filter { !$0.bytes.isEmpty }
    }

    /// Sets the major brand to QuickTime without changing ftyp's size.
    static func branded(_ patch: FilePatch, movie: Movie, source: ByteSource, edits: MovieEdits, notes: inout [String]) throws -> FilePatch {
        guard edits.quickTimeBrand, movie.majorBrand != nil, movie.majorBrand != "qt  ",
              let ftyp = movie.boxes.first(where: { $0.type == "ftyp" }), ftyp.offset == 0, ftyp.headerSize == 8 else { return patch }
        let count = Int(ftyp.payloadSize)
        guard count >= 8 else { return patch }
        var payload = FourCC("qt  ").bytes + BoxWriter.u32(0x2005_0300)
        let compatible = (count - 8) / 4
        for _ in 0..<compatible { payload += FourCC("qt  ").bytes }
        payload += [UInt8](repeating: 0, count: count - payload.count)
        notes.append("major brand '\(movie.majorBrand?.description ?? "")' → 'qt  ' (ftyp keeps its \(ftyp.size) bytes)")
        var result = FilePatch()
        var remaining = patch.pieces
        // The ftyp payload is within the first copied piece.
        if case .copy(let first)? = remaining.first, first.lowerBound == 0, first.upperBound >= ftyp.end {
            remaining.removeFirst()
            result.copy(0..<ftyp.payloadOffset)
            result.append(payload)
            result.copy(ftyp.end..<first.upperBound)
            for piece in remaining {
                switch piece {
                case .copy(let range): result.copy(range)
                case .bytes(let bytes): result.append(bytes)
                }
            }
            return result
        }
        return patch
    }

    /// `moov/meta` with the identifier set: the existing box's other children and items are kept.
    static func metaWithIdentifier(_ existing: (box: Box, bytes: [UInt8])?, identifier: String, movie: Movie) throws -> [UInt8] {
        let dataBox = BoxWriter.box("data", BoxWriter.u32(WellKnownType.utf8) + BoxWriter.u32(0) + Array(identifier.utf8))
        let mdtaHandler = BoxWriter.fullBox("hdlr", BoxWriter.u32(0) + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 12) + [0])
        guard let existing else {
            let keys = BoxWriter.fullBox("keys", BoxWriter.u32(1) + keyEntry(LivePhotoKeys.contentIdentifier))
            let ilst = BoxWriter.box("ilst", BoxWriter.box(FourCC(1), dataBox))
            return BoxWriter.box("meta", mdtaHandler + keys + ilst)
        }
        var reader = ByteReader(existing.bytes, base: 0, path: "moov/meta")
        try reader.skip(existing.box.headerSize)
        let headerless = try reader.rest(path: "moov/meta")
        var body = headerless
        let hasFullHeader: Bool
        if let head = body.peek(8), head[4..<8].elementsEqual(Array("hdlr".utf8)) { hasFullHeader = false } else { hasFullHeader = true; try body.skip(4) }
        var parts: [[UInt8]] = []
        var keys: [(namespace: FourCC, key: [UInt8])] = []
        var items: [UInt32: [UInt8]] = [:]
        var keysPosition: Int?
        var ilstPosition: Int?
        for (box, var child) in try BoxIterator.all(body) {
            switch box.type {
            case "hdlr":
                var probe = child
                let subtype = try MovieParser.handler(&probe).0
                parts.append(subtype == "mdta" ? Array(existing.bytes[Int(box.offset)..<Int(box.end)]) : mdtaHandler)
            case "keys":
                _ = try FullBoxHeader(&child)
                let count = try child.checkCount(UInt64(try child.u32()), entrySize: 8, what: "keys")
                for _ in 0..<count {
                    let size = Int(try child.u32())
                    guard size >= 8 else { throw Problem(description: "moov/meta/keys has an entry of \(size) bytes") }
                    var entry = try child.sub(count: size - 4)
                    keys.append((try entry.fourCC(), try entry.restBytes()))
                }
                keysPosition = parts.count
                parts.append([])
            case "ilst":
                for (item, _) in try BoxIterator.all(child) {
                    items[item.type.value] = Array(existing.bytes[Int(item.offset)..<Int(item.end)])
                }
                ilstPosition = parts.count
                parts.append([])
            default:
                parts.append(Array(existing.bytes[Int(box.offset)..<Int(box.end)]))
            }
        }
        let keyBytes = Array(LivePhotoKeys.contentIdentifier.utf8)
        let index: UInt32
        if let found = keys.firstIndex(where: { $0.namespace == "mdta" && $0.key == keyBytes }) {
            index = UInt32(found + 1)
        } else {
            keys.append(("mdta", keyBytes))
            index = UInt32(keys.count)
        }
        items[index] = BoxWriter.box(FourCC(index), dataBox)
        let keysBox = BoxWriter.fullBox("keys", BoxWriter.u32(UInt32(keys.count)) + keys.flatMap { BoxWriter.u32(UInt32(8 + $0.key.count)) + $0.namespace.bytes + $0.key })
        let ilstBox = BoxWriter.box("ilst", items.keys.sorted().flatMap { items[$0] ?? [] })
        if let keysPosition { parts[keysPosition] = keysBox } else { parts.append(keysBox) }
        if let ilstPosition { parts[ilstPosition] = ilstBox } else { parts.append(ilstBox) }
        if !parts.contains(where: { $0.count >= 8 && $0[4..<8].elementsEqual(Array("hdlr".utf8)) }) { parts.insert(mdtaHandler, at: 0) }
        return BoxWriter.box("meta", (hasFullHeader ? [0, 0, 0, 0] : []) + parts.flatMap { $0 })
    }

    static func keyEntry(_ key: String) -> [UInt8] { BoxWriter.u32(UInt32(8 + key.utf8.count)) + FourCC("mdta").bytes + Array(key.utf8) }

}

/// A timed-metadata track with one still-image-time sample, as cameras write it: sample entry
/// `mebx` declaring `mdta/com.apple.quicktime.still-image-time` with `dtyp` 0/65 (signed 8-bit),
/// a `cdsc` reference to the video, media timescale = movie timescale, one one-tick sample placed
/// by an edit list of an empty edit up to the moment and a one-tick edit.
public struct StillImageTimeTrack: Sendable {
    public var trackID: UInt32
    public var videoTrackID: UInt32
    public var timescale: UInt32
    public var movieDuration: UInt64
    public var momentTicks: UInt64
    public var value: Int8
    /// The old track's `mebx` sample entry and sample, when they are kept (every key and value).
    public var sampleEntry: [UInt8]?
    public var sample: [UInt8]?

    public func build(sampleOffset: UInt64, co64: Bool) -> [UInt8] {
        typealias W = BoxWriter
        let duration32 = UInt32(clamping: movieDuration)
        let matrix: [UInt8] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000].flatMap { W.u32($0) }
        var tkhd = W.u32(0) + W.u32(0) + W.u32(trackID) + W.u32(0) + W.u32(duration32)
        tkhd += [UInt8](repeating: 0, count: 16) + matrix + W.u32(0) + W.u32(0)
        var edits: [UInt8] = []
        var count: UInt32 = 0
        if momentTicks > 0 {
            edits += W.u32(UInt32(clamping: momentTicks)) + W.i32(-1) + W.u32(0x10000)
            count += 1
        }
        edits += W.u32(1) + W.i32(0) + W.u32(0x10000)
        count += 1
        let edts = W.box("edts", W.fullBox("elst", W.u32(count) + edits))
        let tref = W.box("tref", W.box("cdsc", W.u32(videoTrackID)))
        let mdhd = W.fullBox("mdhd", W.u32(0) + W.u32(0) + W.u32(timescale) + W.u32(1) + W.u16(0x55C4) + W.u16(0))
        let name = Array("Core Media Metadata".utf8)
        let hdlr = W.fullBox("hdlr", FourCC("mhlr").bytes + FourCC("meta").bytes + FourCC("appl").bytes + [UInt8](repeating: 0, count: 8) + [UInt8(name.count)] + name)
        let gmhd = W.box("gmhd", W.fullBox("gmin", W.u16(0x40) + W.u16(0x8000) + W.u16(0x8000) + W.u16(0x8000) + W.u16(0) + W.u16(0)))
        let dataName = Array("Core Media Data Handler".utf8)
        let dhlr = W.fullBox("hdlr", FourCC("dhlr").bytes + FourCC("alis").bytes + FourCC("appl").bytes + [UInt8](repeating: 0, count: 8) + [UInt8(dataName.count)] + dataName)
        let dinf = W.box("dinf", W.fullBox("dref", W.u32(1) + W.fullBox("alis", flags: 1, [])))
        let key = W.box("keyd", FourCC("mdta").bytes + Array(LivePhotoKeys.stillImageTime.utf8)) + W.box("dtyp", W.u32(0) + W.u32(WellKnownType.int8))
        let keys = W.box("keys", W.box(FourCC(1), key))
        let mebx = sampleEntry ?? W.box("mebx", [0, 0, 0, 0, 0, 0] + W.u16(1) + keys)
        var stbl = W.fullBox("stsd", W.u32(1) + mebx)
        stbl += W.fullBox("stts", W.u32(1) + W.u32(1) + W.u32(1))
        stbl += W.fullBox("stsc", W.u32(1) + W.u32(1) + W.u32(1) + W.u32(1))
        stbl += W.fullBox("stsz", W.u32(UInt32(clamping: sample?.count ?? 9)) + W.u32(1))
        stbl += co64 ? W.fullBox("co64", W.u32(1) + W.u64(sampleOffset)) : W.fullBox("stco", W.u32(1) + W.u32(UInt32(clamping: sampleOffset)))
        let minf = W.box("minf", gmhd + dhlr + dinf + W.box("stbl", stbl))
        let mdia = W.box("mdia", mdhd + hdlr + minf)
        return W.box("trak", W.fullBox("tkhd", flags: 0xF, tkhd) + edts + tref + mdia)
    }
}

/// What a new still-image-time track keeps of the old one: its `mebx` sample entry (every
/// declared key) and its one sample (every value), with only the still-image-time value set.
struct ReusedTrack {
    var entry: [UInt8]
    var sample: [UInt8]
    var keys: [String]

    static func from(_ track: Track, trakBytes: [UInt8]?, source: ByteSource, value: Int8) -> Result<ReusedTrack, ReuseProblem> {
        guard track.timedMetadataError == nil else { return .failure(ReuseProblem("its sample cannot be read")) }
        guard track.sampleDescriptions.count == 1, track.sampleDescriptions[0].format == "mebx" else {
            return .failure(ReuseProblem("it has \(track.sampleDescriptions.count) sample descriptions"))
        }
        guard track.timedMetadata.count == 1, let timed = track.timedMetadata.first else {
            return .failure(ReuseProblem("it has \(track.timedMetadata.count) samples, not one"))
        }
        guard let key = track.declaredKeys.first(where: { $0.key == LivePhotoKeys.stillImageTime }),
              timed.items.contains(where: { $0.localID == key.localID && $0.byteCount == 1 }) else {
            return .failure(ReuseProblem("its sample holds no one-byte still-image-time value"))
        }
        guard let trakBytes, let entry = try? firstSampleEntry(trakBytes) else { return .failure(ReuseProblem("its sample entry cannot be read")) }
        guard let offset = Int64(exactly: timed.sample.offset), var sample = try? source.read(at: offset, count: Int(timed.sample.size)) else {
            return .failure(ReuseProblem("its sample cannot be read"))
        }
        // Items: size (u32), local key id (u32), value. Set the still-image-time value.
        var position = 0
        while position + 8 <= sample.count {
            let size = Int(sample[position]) << 24 | Int(sample[position + 1]) << 16 | Int(sample[position + 2]) << 8 | Int(sample[position + 3])
            let id = UInt32(sample[position + 4]) << 24 | UInt32(sample[position + 5]) << 16 | UInt32(sample[position + 6]) << 8 | UInt32(sample[position + 7])
            guard size >= 8, position + size <= sample.count else { return .failure(ReuseProblem("its sample's items do not add up")) }
            if id == key.localID, size == 9 { sample[position + 8] = UInt8(bitPattern: value) }
            position += size
        }
        return .success(ReusedTrack(entry: entry, sample: sample, keys: track.declaredKeys.map(\.key)))
    }

    /// trak/mdia/minf/stbl/stsd's first entry, whole.
    static func firstSampleEntry(_ trak: [UInt8]) throws -> [UInt8] {
        var bytes = trak
        for type in ["trak", "mdia", "minf", "stbl", "stsd"] as [FourCC] {
            var reader = ByteReader(bytes, base: 0, path: "\(type)")
            let header = try BoxHeader.parse(&reader, available: Int64(bytes.count))
            guard header.type == type, header.size <= Int64(bytes.count) else { throw ParseError(.invalidValue, "no \(type)", offset: 0) }
            let payload = Array(bytes[header.headerSize..<Int(header.size)])
            if type == "stsd" {
                var entries = ByteReader(payload, base: 0, path: "stsd")
                try entries.skip(8)
                var probe = entries
                let entry = try BoxHeader.parse(&probe, available: Int64(entries.remaining))
                guard entry.size <= Int64(entries.remaining) else { throw ParseError(.invalidSize, "stsd entry runs past stsd", offset: 8) }
                return try entries.read(Int(entry.size))
            }
            let next: FourCC = type == "trak" ? "mdia" : type == "mdia" ? "minf" : type == "minf" ? "stbl" : "stsd"
            var inner = ByteReader(payload, base: 0, path: "\(type)")
            var found: [UInt8]?
            while inner.remaining >= 8, found == nil {
                var probe = inner
                let child = try BoxHeader.parse(&probe, available: Int64(inner.remaining))
                guard child.size >= 8, child.size <= Int64(inner.remaining) else { throw ParseError(.invalidSize, "box runs past its parent", offset: 0) }
                let childBytes = try inner.read(Int(child.size))
                if child.type == next { found = childBytes }
            }
            guard let found else { throw ParseError(.invalidValue, "no \(next)", offset: 0) }
            bytes = found
        }
        throw ParseError(.invalidValue, "no stsd", offset: 0)
    }
}

struct ReuseProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
