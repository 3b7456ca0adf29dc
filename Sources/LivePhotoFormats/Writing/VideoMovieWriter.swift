/// A QuickTime (or MP4, `Track.container`) movie of one video track from encoded samples (the codec layer's output): `ftyp`
/// (qt), `mdat` (the samples in one chunk, written as they come: `head`, the samples, then
/// `moov`, and the `mdat`'s size set last), `moov` after it as cameras write it. Samples are
/// in presentation order (no B-frames), each with its own duration, so a variable frame rate
/// is kept exactly. `make` then adds the Live Photo markers as it does to any movie.
public enum VideoMovieWriter {
    public struct Sample: Sendable {
        public var size: Int
        public var duration: UInt32
        public var key: Bool
        public init(size: Int, duration: UInt32, key: Bool) { (self.size, self.duration, self.key) = (size, duration, key) }
    }

    public struct Track: Sendable {
        /// `avc1` or `hvc1`, and its configuration box (`avcC`, `hvcC`).
        public var format: FourCC
        public var configurationType: FourCC
        public var configuration: [UInt8]
        public var width: Int, height: Int
        /// QuickTime `colr` `nclc` codes.
        public var primaries: UInt16, transfer: UInt16, matrix: UInt16
        public var timescale: UInt32
        /// How the picture is turned when shown (`tkhd`'s matrix).
        public var turn: TrackMatrix
        /// Whether the pictures are full range (`nclx`'s flag, for MP4).
        public var fullRange = false
        public var container = MovieContainer.mov
        public init(format: FourCC, configurationType: FourCC, configuration: [UInt8], width: Int, height: Int,
                    primaries: UInt16, transfer: UInt16, matrix: UInt16, timescale: UInt32, turn: TrackMatrix = .identity) {
            (self.format, self.configurationType, self.configuration, self.width, self.height) = (format, configurationType, configuration, width, height)
            (self.primaries, self.transfer, self.matrix, self.timescale, self.turn) = (primaries, transfer, matrix, timescale, turn)
        }
    }

    static let matrix: [UInt8] = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].flatMap { BoxWriter.u32(UInt32($0)) }

    /// A track matrix's nine fields for a `width` × `height` picture: a quarter turn moved back
    /// into view (x, y) as cameras write it, any other 2×2 part as given with no translation.
    static func matrix(_ turn: TrackMatrix, width: Int, height: Int) -> [UInt8] {
        let (w, h) = (Int32(clamping: width) << 16, Int32(clamping: height) << 16)
        let (x, y): (Int32, Int32)
        switch turn.rotation {
        case 90: (x, y) = (h, 0)
        case 180: (x, y) = (w, h)
        case 270: (x, y) = (0, w)
        default: (x, y) = (0, 0)
        }
        return [turn.a, turn.b, 0, turn.c, turn.d, 0, x, y, 0x40000000].flatMap { BoxWriter.u32(UInt32(bitPattern: $0)) }
    }

    /// What comes before the samples: `ftyp`, then an `mdat` header with a 64-bit size to be set
    /// (`mdatSize`) once the samples are written, so that they can be written as they come.
    public static func head(_ container: MovieContainer) -> [UInt8] { container.ftyp + BoxWriter.u32(1) + FourCC("mdat").bytes + BoxWriter.u64(0) }
    /// Where `mdatSize` goes.
    public static func mdatSizeOffset(_ container: MovieContainer) -> Int64 { Int64(container.ftyp.count + 8) }

    /// The `mdat`'s 64-bit size for `dataBytes` of samples.
    public static func mdatSize(dataBytes: Int64) -> [UInt8] { BoxWriter.u64(UInt64(16 + dataBytes)) }

    /// The `moov` that follows the samples (written after `head`, back to back, in order).
    public static func moov(_ track: Track, samples: [Sample]) throws -> [UInt8] {
        let dataBytes = samples.reduce(0) { $0 + $1.size }
        guard !samples.isEmpty else { throw WriteError(.inconsistentInput, "a movie of no sample") }
        guard (1...0xFFFF).contains(track.width), (1...0xFFFF).contains(track.height), dataBytes < Int(UInt32.max) - 4096 else {
            throw WriteError(.fieldOverflow, "a \(track.width)×\(track.height) movie of \(dataBytes) bytes does not fit its 16- and 32-bit fields")
        }
        let duration = samples.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
        guard duration <= UInt64(UInt32.max) else { throw WriteError(.fieldOverflow, "a duration of \(duration) ticks does not fit mvhd's 32 bits") }
        let chunkOffset = UInt32(head(track.container).count)
        let ticks = UInt32(duration)
        let mvhd = BoxWriter.fullBox("mvhd", BoxWriter.u32(0) + BoxWriter.u32(0) + BoxWriter.u32(track.timescale) + BoxWriter.u32(ticks)
            + BoxWriter.u32(0x00010000) + BoxWriter.u16(0x0100) + [UInt8](repeating: 0, count: 10) + matrix + [UInt8](repeating: 0, count: 24) + BoxWriter.u32(2))
        let tkhd = BoxWriter.fullBox("tkhd", flags: 3, BoxWriter.u32(0) + BoxWriter.u32(0) + BoxWriter.u32(1) + BoxWriter.u32(0) + BoxWriter.u32(ticks)
            + [UInt8](repeating: 0, count: 8) + BoxWriter.u16(0) + BoxWriter.u16(0) + BoxWriter.u16(0) + BoxWriter.u16(0) + matrix(track.turn, width: track.width, height: track.height)
            + BoxWriter.u32(UInt32(track.width) << 16) + BoxWriter.u32(UInt32(track.height) << 16))
        let mdhd = BoxWriter.fullBox("mdhd", BoxWriter.u32(0) + BoxWriter.u32(0) + BoxWriter.u32(track.timescale) + BoxWriter.u32(ticks) + BoxWriter.u16(0x55C4) + BoxWriter.u16(0))
        let hdlr = BoxWriter.fullBox("hdlr", (track.container == .mov ? FourCC("mhlr").bytes : BoxWriter.u32(0)) + FourCC("vide").bytes + [UInt8](repeating: 0, count: 12) + [0])
        let vmhd = BoxWriter.fullBox("vmhd", flags: 1, [UInt8](repeating: 0, count: 8))
        let dinf = BoxWriter.box("dinf", BoxWriter.fullBox("dref", BoxWriter.u32(1) + BoxWriter.fullBox("url ", flags: 1, [])))
        var name = [UInt8](repeating: 0, count: 32)
        let compressor = Array((track.format == "hvc1" ? "HEVC" : "H.264").utf8)
        name[0] = UInt8(compressor.count)
        name.replaceSubrange(1...compressor.count, with: compressor)
        let codes = BoxWriter.u16(track.primaries) + BoxWriter.u16(track.transfer) + BoxWriter.u16(track.matrix)
        let colr = track.container == .mov ? BoxWriter.box("colr", FourCC("nclc").bytes + codes) : BoxWriter.box("colr", FourCC("nclx").bytes + codes + [track.fullRange ? 0x80 : 0])
        let entry = BoxWriter.box(track.format, [UInt8](repeating: 0, count: 6) + BoxWriter.u16(1) + [UInt8](repeating: 0, count: 16)
            + BoxWriter.u16(UInt16(track.width)) + BoxWriter.u16(UInt16(track.height)) + BoxWriter.u32(0x00480000) + BoxWriter.u32(0x00480000)
            + BoxWriter.u32(0) + BoxWriter.u16(1) + name + BoxWriter.u16(0x0018) + BoxWriter.u16(0xFFFF)
            + BoxWriter.box(track.configurationType, track.configuration) + colr)
        let stsd = BoxWriter.fullBox("stsd", BoxWriter.u32(1) + entry)
        var runs: [(count: UInt32, delta: UInt32)] = []
        for sample in samples {
            if let last = runs.last, last.delta == sample.duration { runs[runs.count - 1].count += 1 } else { runs.append((1, sample.duration)) }
        }
        let stts = BoxWriter.fullBox("stts", BoxWriter.u32(UInt32(runs.count)) + runs.flatMap { BoxWriter.u32($0.count) + BoxWriter.u32($0.delta) })
        let keys = samples.indices.filter { samples[$0].key }.map { UInt32($0 + 1) }
        let stss = keys.count == samples.count ? [] : BoxWriter.fullBox("stss", BoxWriter.u32(UInt32(keys.count)) + keys.flatMap { BoxWriter.u32($0) })
        let stsc = BoxWriter.fullBox("stsc", BoxWriter.u32(1) + BoxWriter.u32(1) + BoxWriter.u32(UInt32(samples.count)) + BoxWriter.u32(1))
        let stsz = BoxWriter.fullBox("stsz", BoxWriter.u32(0) + BoxWriter.u32(UInt32(samples.count)) + samples.flatMap { BoxWriter.u32(UInt32($0.size)) })
        let stco = BoxWriter.fullBox("stco", BoxWriter.u32(1) + BoxWriter.u32(chunkOffset))
        let stbl = BoxWriter.box("stbl", stsd + stts + stss + stsc + stsz + stco)
        let minf = BoxWriter.box("minf", vmhd + dinf + stbl)
        let trak = BoxWriter.box("trak", tkhd + BoxWriter.box("mdia", mdhd + hdlr + minf))
        return BoxWriter.box("moov", mvhd + trak)
    }

    /// The whole file in memory: `data` is the samples' bytes, back to back, in order.
    public static func movie(_ track: Track, samples: [Sample], data: [UInt8]) throws -> [UInt8] {
        guard samples.reduce(0, { $0 + $1.size }) == data.count else {
            throw WriteError(.inconsistentInput, "\(samples.count) samples whose sizes do not add up to their \(data.count) bytes")
        }
        var bytes = head(track.container)
        let at = Int(mdatSizeOffset(track.container))
        bytes.replaceSubrange(at..<(at + 8), with: mdatSize(dataBytes: Int64(data.count)))
        return bytes + data + (try moov(track, samples: samples))
    }
}
