/// A fragmented movie written as an ordinary one: each track's sample tables list the samples
/// its fragments held (as the reader joined them), `mvex` goes, the headers' durations are the
/// samples' sums, and every top-level fragment box becomes free space of its size. The media
/// data stays where it is, in the fragments' `mdat` boxes: no sample moves.
extension MovieRewriter {
    /// Top-level boxes a fragmented movie has that an ordinary one must not: a reader that sees
    /// a `moof` without `mvex` may read its samples twice or not at all.
    static let fragmentBoxes: Set<FourCC> = ["moof", "mfra", "sidx", "ssix", "styp", "prft"]

    /// `moov`'s children made an ordinary movie's; says what was done.
    static func defragmenting(_ children: inout [(box: Box, bytes: [UInt8])], movie: Movie) throws -> [String] {
        guard let fragments = movie.fragments else { return [] }
        let paths = childPaths(children)
        var rebuilt: [(box: Box, bytes: [UInt8])] = []
        for (index, child) in children.enumerated() {
            switch child.box.type {
            case "mvex":
                continue
            case "mvhd":
                var bytes = child.bytes
                try setDuration(&bytes, headerSize: child.box.headerSize, to: movie.duration, path: "moov/mvhd")
                rebuilt.append((child.box, bytes))
            case "trak":
                guard let track = movie.tracks.first(where: { $0.path == paths[index] }) else {
                    throw WriteError(.inconsistentInput, "\(paths[index]) was not read as a track")
                }
                rebuilt.append((child.box, try ordinaryTrack(child.bytes, track: track, path: paths[index])))
            default:
                rebuilt.append(child)
            }
        }
        children = rebuilt
        let freed = movie.boxes.filter { fragmentBoxes.contains($0.type) }
        return ["join the movie's \(Plural.count(fragments.count, "fragment")) (\(Plural.count(fragments.runs, "track run"))) into ordinary sample tables, one chunk per run where its data lies, and drop mvex; "
                + "the \(Plural.count(freed.count, "top-level fragment box", plural: "top-level fragment boxes")) (\(Set(freed.map(\.type.description)).sorted().joined(separator: ", "))) become free space of their size: no sample moves"]
    }

    /// One `trak` with its sample tables listing `track`'s samples and its header durations set.
    static func ordinaryTrack(_ trak: [UInt8], track: Track, path: String) throws -> [UInt8] {
        let tables = try track.sampleTable.boxes()
        let tableTypes: Set<FourCC> = ["stts", "ctts", "stss", "stsc", "stsz", "stz2", "stco", "co64"]
        var bytes = try mappingSampleTableChildren(trak) { type, whole, _ in
            if type == "stsd" { return whole + tables }
            return tableTypes.contains(type) ? [] : whole
        }
        // tkhd, then mdia/mdhd: durations in place (their widths kept).
        // Offsets the walk gives are in `bytes`.
        var reader = ByteReader(bytes, base: 0, path: path)
        _ = try BoxHeader.parse(&reader, available: Int64(bytes.count))
        for (box, payload) in try BoxIterator.all(try reader.rest(path: path)) {
            let at = Int(box.offset)
            if box.type == "tkhd" {
                var inner = Array(bytes[at..<(at + Int(box.size))])
                try setDuration(&inner, headerSize: box.headerSize, to: track.duration, path: path + "/tkhd", trackHeader: true)
                bytes.replaceSubrange(at..<(at + inner.count), with: inner)
            } else if box.type == "mdia" {
                for (mdhd, _) in try BoxIterator.all(payload) where mdhd.type == "mdhd" {
                    let inside = Int(mdhd.offset)
                    var inner = Array(bytes[inside..<(inside + Int(mdhd.size))])
                    try setDuration(&inner, headerSize: mdhd.headerSize, to: track.mediaDuration, path: path + "/mdia/mdhd")
                    bytes.replaceSubrange(inside..<(inside + inner.count), with: inner)
                }
            }
        }
        return bytes
    }

    /// A whole `mvhd`, `mdhd` or `tkhd` box with its duration set where it said 0 (a duration the
    /// writer gave is kept).
    static func setDuration(_ bytes: inout [UInt8], headerSize: Int, to duration: UInt64, path: String, trackHeader: Bool = false) throws {
        guard bytes.count > headerSize else { throw WriteError(.missingStructure, "\(path) is empty") }
        let wide = bytes[headerSize] == 1
        // version and flags; two times; tkhd: track ID and reserved, else the timescale.
        let at = headerSize + 4 + (wide ? 16 : 8) + (trackHeader ? 8 : 4)
        let width = wide ? 8 : 4
        guard bytes.count >= at + width else { throw WriteError(.missingStructure, "\(path) is too short for its duration") }
        guard bytes[at..<(at + width)].allSatisfy({ $0 == 0 }) else { return }
        guard wide || duration <= UInt64(UInt32.max) else { throw WriteError(.fieldOverflow, "\(path) (version 0) cannot hold a duration of \(duration)") }
        bytes.replaceSubrange(at..<(at + width), with: wide ? BoxWriter.u64(duration) : BoxWriter.u32(UInt32(duration)))
    }

    /// `patch` with every top-level fragment box's type made `free` where the patch copies it.
    static func freeingFragments(_ patch: FilePatch, movie: Movie) -> FilePatch {
        guard movie.fragments != nil else { return patch }
        let edits = movie.boxes.filter { fragmentBoxes.contains($0.type) }.map { (offset: $0.offset + 4, bytes: FourCC("free").bytes) }
        return patch.overwritingCopied(edits)
    }
}

extension SampleTable {
    /// The tables as boxes, in the order writers use: `stts`, `ctts` (version 1 when an offset
    /// is negative), `stss` (when not every sample is one), `stsc`, `stsz`, `stco` (`co64` when
    /// an offset needs 64 bits).
    public func boxes() throws -> [UInt8] {
        var out = BoxWriter.fullBox("stts", BoxWriter.u32(UInt32(timeToSample.count)) + timeToSample.flatMap { BoxWriter.u32($0.count) + BoxWriter.u32($0.delta) })
        if !compositionOffsets.isEmpty {
            let negative = compositionOffsets.contains { $0.offset < 0 }
            out += BoxWriter.fullBox("ctts", version: negative ? 1 : 0, BoxWriter.u32(UInt32(compositionOffsets.count))
                + compositionOffsets.flatMap { BoxWriter.u32($0.count) + BoxWriter.i32($0.offset) })
        }
        if let syncSamples { out += BoxWriter.fullBox("stss", BoxWriter.u32(UInt32(syncSamples.count)) + syncSamples.flatMap { BoxWriter.u32($0) }) }
        out += BoxWriter.fullBox("stsc", BoxWriter.u32(UInt32(sampleToChunk.count))
            + sampleToChunk.flatMap { BoxWriter.u32($0.firstChunk) + BoxWriter.u32($0.samplesPerChunk) + BoxWriter.u32($0.descriptionIndex) })
        if constantSampleSize > 0 {
            out += BoxWriter.fullBox("stsz", BoxWriter.u32(constantSampleSize) + BoxWriter.u32(sampleCount))
        } else {
            guard sampleSizes.count == Int(sampleCount) else { throw WriteError(.inconsistentInput, "\(sampleSizes.count) sample sizes for \(sampleCount) samples") }
            out += BoxWriter.fullBox("stsz", BoxWriter.u32(0) + BoxWriter.u32(sampleCount) + sampleSizes.flatMap { BoxWriter.u32($0) })
        }
        if chunkOffsets.allSatisfy({ $0 <= UInt64(UInt32.max) }) {
            out += BoxWriter.fullBox("stco", BoxWriter.u32(UInt32(chunkOffsets.count)) + chunkOffsets.flatMap { BoxWriter.u32(UInt32($0)) })
        } else {
            out += BoxWriter.fullBox("co64", BoxWriter.u32(UInt32(chunkOffsets.count)) + chunkOffsets.flatMap { BoxWriter.u64($0) })
        }
        return out
    }
}

extension FilePatch {
    /// The patch with `edits` (offsets in the source, sorted, not overlapping) written over the
    /// source bytes it copies; bytes it does not copy are left as they are.
    func overwritingCopied(_ edits: [(offset: Int64, bytes: [UInt8])]) -> FilePatch {
        var result = FilePatch()
        result.notes = notes
        result.losses = losses
        var next = 0
        for piece in pieces {
            guard case .copy(let range) = piece else {
                if case .bytes(let bytes) = piece { result.append(bytes) } else { result.pieces.append(piece) }
                continue
            }
            // Edits wholly before this range are past; an edit may straddle two ranges.
            while next < edits.count, edits[next].offset + Int64(edits[next].bytes.count) <= range.lowerBound { next += 1 }
            var at = range.lowerBound
            var index = next
            while index < edits.count, edits[index].offset < range.upperBound {
                let edit = edits[index]
                let start = max(edit.offset, at), end = min(edit.offset + Int64(edit.bytes.count), range.upperBound)
                if start < end {
                    result.copy(at..<start)
                    result.append(Array(edit.bytes[Int(start - edit.offset)..<Int(end - edit.offset)]))
                    at = end
                }
                index += 1
            }
            result.copy(at..<range.upperBound)
        }
        return result
    }
}
