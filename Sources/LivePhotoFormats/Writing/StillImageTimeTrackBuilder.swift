/// A timed-metadata track with one still-image-time sample, as cameras write it: sample entry
/// `mebx` declaring `mdta/com.apple.quicktime.still-image-time` with `dtyp` 0/65 (signed 8-bit),
/// a `cdsc` reference to the video, media timescale = movie timescale, one one-tick sample placed
/// by an edit list of an empty edit up to the moment and a one-tick edit.
public struct StillImageTimeTrackBuilder: Sendable {
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

    static func from(_ track: Track, trakBytes: [UInt8]?, source: ByteSource, value: Int8) -> Result<ReusedTrack, WriteError> {
        guard track.timedMetadataError == nil else { return .failure(WriteError(.unsupportedLayout, "its sample cannot be read")) }
        guard track.sampleDescriptions.count == 1, track.sampleDescriptions[0].format == "mebx" else {
            return .failure(WriteError(.unsupportedLayout, "it has \(track.sampleDescriptions.count) sample descriptions"))
        }
        guard track.timedMetadata.count == 1, let timed = track.timedMetadata.first else {
            return .failure(WriteError(.unsupportedLayout, "it has \(track.timedMetadata.count) samples, not one"))
        }
        guard let key = track.declaredKeys.first(where: { $0.key == LivePhotoKeys.stillImageTime }),
              timed.items.contains(where: { $0.localID == key.localID && $0.byteCount == 1 }) else {
            return .failure(WriteError(.unsupportedLayout, "its sample holds no one-byte still-image-time value"))
        }
        guard let trakBytes, let entry = try? firstSampleEntry(trakBytes) else { return .failure(WriteError(.unsupportedLayout, "its sample entry cannot be read")) }
        guard let offset = Int64(exactly: timed.sample.offset), var sample = try? source.read(at: offset, count: Int(timed.sample.size)) else {
            return .failure(WriteError(.unsupportedLayout, "its sample cannot be read"))
        }
        // Items: size (u32), local key id (u32), value. Set the still-image-time value.
        var position = 0
        while position + 8 <= sample.count {
            let size = Int(sample[position]) << 24 | Int(sample[position + 1]) << 16 | Int(sample[position + 2]) << 8 | Int(sample[position + 3])
            let id = UInt32(sample[position + 4]) << 24 | UInt32(sample[position + 5]) << 16 | UInt32(sample[position + 6]) << 8 | UInt32(sample[position + 7])
            guard size >= 8, position + size <= sample.count else { return .failure(WriteError(.unsupportedLayout, "its sample's items do not add up")) }
            if id == key.localID, size == 9 { sample[position + 8] = UInt8(bitPattern: value) }
            position += size
        }
        return .success(ReusedTrack(entry: entry, sample: sample, keys: track.declaredKeys.map(\.key)))
    }

    /// trak/mdia/minf/stbl/stsd's first entry, whole.
    static func firstSampleEntry(_ trak: [UInt8]) throws -> [UInt8] {
        var bytes = trak
        let path = BoxTable.trackToSampleTable + ["stsd"]
        for (level, type) in path.enumerated() {
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
            let next = path[level + 1]
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
