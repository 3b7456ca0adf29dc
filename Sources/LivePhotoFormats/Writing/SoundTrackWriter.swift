/// A sound encoded elsewhere (the codec helper's AAC), as a track of an MP4: its parameters and
/// its packets in order.
public struct EncodedSound: Sendable, Equatable {
    public var sampleRate: UInt32
    public var channels: UInt16
    public var bitRate: UInt32
    /// Samples of the encoder's priming, before the source's first: the edit list skips them.
    public var delay: UInt32
    /// The source's length, samples a channel: what the edit list shows.
    public var frames: UInt64
    /// The AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1), the `esds` descriptor's specific info.
    public var configuration: [UInt8]
    public var packets: [(duration: UInt32, data: [UInt8])]

    public init(sampleRate: UInt32, channels: UInt16, bitRate: UInt32, delay: UInt32, frames: UInt64, configuration: [UInt8], packets: [(duration: UInt32, data: [UInt8])]) {
        (self.sampleRate, self.channels, self.bitRate, self.delay, self.frames, self.configuration, self.packets) = (sampleRate, channels, bitRate, delay, frames, configuration, packets)
    }

    public static func == (a: EncodedSound, b: EncodedSound) -> Bool {
        (a.sampleRate, a.channels, a.bitRate, a.delay, a.frames, a.configuration) == (b.sampleRate, b.channels, b.bitRate, b.delay, b.frames, b.configuration)
            && a.packets.elementsEqual(b.packets) { $0.duration == $1.duration && $0.data == $1.data }
    }

    /// The packets' bytes back to back: the track's one chunk.
    public var data: [UInt8] { packets.flatMap(\.data) }

    /// What it is, for a plan: "AAC-LC, 1 channel, 44100 Hz, 96 kb/s".
    public var description: String { "AAC-LC, \(Plural.count(Int(channels), "channel")), \(sampleRate) Hz, \(bitRate / 1000) kb/s" }
}

/// An MP4 sound track (`trak`) for an `EncodedSound`: `mp4a` with its `esds`, one chunk at
/// `chunkOffset`, and an edit list that shows what the source's showed (`Span`), past the
/// encoder's priming.
public enum SoundTrackWriter {
    /// What the source track's edit list shows of its sound: silence first (`empty`, movie
    /// ticks), then `duration` movie ticks from sample `start` (samples a channel).
    public struct Span: Sendable, Equatable {
        public var empty: UInt64, start: UInt64, duration: UInt64
    }

    /// The span `track`'s edit list shows: leading empty edits, then one edit at rate 1 (what
    /// cameras write); no edit list shows every sample from the start. Any other list throws.
    public static func span(of track: Track, sound: EncodedSound, movieTimescale: UInt32) throws -> Span {
        let all = sound.frames.multipliedReportingOverflow(by: UInt64(movieTimescale))
        guard let edits = track.editList, !edits.isEmpty else { return Span(empty: 0, start: 0, duration: all.overflow ? .max : all.partialValue / UInt64(sound.sampleRate)) }
        let empty = edits.prefix { $0.isEmpty }
        let shown = edits.dropFirst(empty.count)
        guard shown.count == 1, let edit = shown.first, edit.rate == 1, edit.mediaTime >= 0, track.mediaTimescale > 0 else {
            throw WriteError(.unsupportedLayout, "track \(track.id)'s edit list (\(Plural.count(edits.count, "edit"))) is not one span of its sound")
        }
        let (samples, overflow) = UInt64(edit.mediaTime).multipliedReportingOverflow(by: UInt64(sound.sampleRate))
        guard !overflow else { throw WriteError(.fieldOverflow, "track \(track.id)'s edit starts past what 64 bits count") }
        return Span(empty: empty.reduce(0) { $0 &+ $1.segmentDuration }, start: samples / UInt64(track.mediaTimescale), duration: edit.segmentDuration)
    }

    public static func trak(_ sound: EncodedSound, id: UInt32, movieTimescale: UInt32, chunkOffset: UInt32, span: Span) throws -> [UInt8] {
        let mediaDuration = sound.packets.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
        guard !sound.packets.isEmpty, sound.sampleRate > 0, sound.sampleRate <= 0xFFFF, sound.channels > 0, movieTimescale > 0,
              mediaDuration <= UInt64(UInt32.max), sound.configuration.count < 100, sound.data.count < Int(UInt32.max) else {
            throw WriteError(.fieldOverflow, "a sound of \(sound.packets.count) packets at \(sound.sampleRate) Hz does not fit an MP4 sound entry's fields")
        }
        let (total, overflow) = span.empty.addingReportingOverflow(span.duration)
        let (start, past) = span.start.addingReportingOverflow(UInt64(sound.delay))
        guard !overflow, !past, total <= UInt64(UInt32.max), start <= UInt64(UInt32.max), span.empty <= UInt64(UInt32.max) else {
            throw WriteError(.fieldOverflow, "the sound's span does not fit tkhd's and elst's 32 bits")
        }
        let trackTicks = UInt32(total)
        let identity: [UInt32] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000]
        // Flags 3: enabled and in the movie; alternate group 1, volume 1.0.
        let tkhd = BoxWriter.fullBox("tkhd", flags: 3, BoxWriter.u32(0) + BoxWriter.u32(0) + BoxWriter.u32(id) + BoxWriter.u32(0) + BoxWriter.u32(trackTicks)
            + [UInt8](repeating: 0, count: 8) + BoxWriter.u16(0) + BoxWriter.u16(1) + BoxWriter.u16(0x0100) + BoxWriter.u16(0)
            + identity.flatMap(BoxWriter.u32) + BoxWriter.u32(0) + BoxWriter.u32(0))
        // The source's span, its start moved past the encoder's priming.
        let leading = span.empty > 0 ? BoxWriter.u32(UInt32(span.empty)) + BoxWriter.u32(UInt32.max) + BoxWriter.u32(0x0001_0000) : []
        let elst = BoxWriter.fullBox("elst", BoxWriter.u32(span.empty > 0 ? 2 : 1) + leading + BoxWriter.u32(UInt32(span.duration)) + BoxWriter.u32(UInt32(start)) + BoxWriter.u32(0x0001_0000))
        let mdhd = BoxWriter.fullBox("mdhd", BoxWriter.u32(0) + BoxWriter.u32(0) + BoxWriter.u32(sound.sampleRate) + BoxWriter.u32(UInt32(mediaDuration)) + BoxWriter.u16(0x55C4) + BoxWriter.u16(0))
        let hdlr = BoxWriter.fullBox("hdlr", BoxWriter.u32(0) + FourCC("soun").bytes + [UInt8](repeating: 0, count: 12) + Array("SoundHandler".utf8) + [0])
        let smhd = BoxWriter.fullBox("smhd", BoxWriter.u16(0) + BoxWriter.u16(0))
        let dinf = BoxWriter.box("dinf", BoxWriter.fullBox("dref", BoxWriter.u32(1) + BoxWriter.fullBox("url ", flags: 1, [])))
        let largest = UInt32(sound.packets.map(\.data.count).max() ?? 0)
        let entry = BoxWriter.box("mp4a", [UInt8](repeating: 0, count: 6) + BoxWriter.u16(1) + [UInt8](repeating: 0, count: 8)
            + BoxWriter.u16(sound.channels) + BoxWriter.u16(16) + BoxWriter.u16(0) + BoxWriter.u16(0) + BoxWriter.u32(sound.sampleRate << 16)
            + esds(sound, bufferSize: largest))
        let stsd = BoxWriter.fullBox("stsd", BoxWriter.u32(1) + entry)
        var runs: [(count: UInt32, delta: UInt32)] = []
        for packet in sound.packets {
            if let last = runs.last, last.delta == packet.duration { runs[runs.count - 1].count += 1 } else { runs.append((1, packet.duration)) }
        }
        let stts = BoxWriter.fullBox("stts", BoxWriter.u32(UInt32(runs.count)) + runs.flatMap { BoxWriter.u32($0.count) + BoxWriter.u32($0.delta) })
        let count = UInt32(sound.packets.count)
        let stsc = BoxWriter.fullBox("stsc", BoxWriter.u32(1) + BoxWriter.u32(1) + BoxWriter.u32(count) + BoxWriter.u32(1))
        let stsz = BoxWriter.fullBox("stsz", BoxWriter.u32(0) + BoxWriter.u32(count) + sound.packets.flatMap { BoxWriter.u32(UInt32($0.data.count)) })
        let stco = BoxWriter.fullBox("stco", BoxWriter.u32(1) + BoxWriter.u32(chunkOffset))
        let minf = BoxWriter.box("minf", smhd + dinf + BoxWriter.box("stbl", stsd + stts + stsc + stsz + stco))
        return BoxWriter.box("trak", tkhd + BoxWriter.box("edts", elst) + BoxWriter.box("mdia", mdhd + hdlr + minf))
    }

    /// The `esds` box (ISO/IEC 14496-1 7.2.6.5, 14496-14 5.6): an ES descriptor holding the
    /// decoder configuration (MPEG-4 audio, 0x40; an audio stream) with the AudioSpecificConfig,
    /// and the SL configuration MP4 files carry (predefined 2).
    static func esds(_ sound: EncodedSound, bufferSize: UInt32) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, UInt8(body.count)] + body }
        let specific = descriptor(0x05, sound.configuration)
        let decoder = descriptor(0x04, [0x40, 0x15] + Array(BoxWriter.u32(bufferSize).dropFirst()) + BoxWriter.u32(sound.bitRate) + BoxWriter.u32(sound.bitRate) + specific)
        let elementary = descriptor(0x03, BoxWriter.u16(0) + [0] + decoder + descriptor(0x06, [0x02]))
        return BoxWriter.fullBox("esds", elementary)
    }
}
