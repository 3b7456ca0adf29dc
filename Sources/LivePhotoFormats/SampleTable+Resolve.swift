extension SampleTable {
    /// Number of samples according to the size table.
    public var count: Int { Int(sampleCount) }

    /// Resolves the first `limit` samples to (offset, size, decode time, presentation time)
    /// through `stsc`, `stco`/`co64`, `stts` and `ctts`. Tables that contradict each other throw.
    public func resolve(limit: Int = Limits.maxResolvedSamples, path: String = "") throws -> [Sample] {
        let wanted = min(count, limit)
        var result: [Sample] = []
        if wanted == 0 { return result }
        func fail(_ message: String) -> ParseError { ParseError(.invalidValue, message, offset: 0, path: path + "/mdia/minf/stbl") }
        guard constantSampleSize != 0 || sampleSizes.count >= count else {
            throw fail("stsz lists \(sampleSizes.count) sizes for \(count) samples")
        }
        guard !sampleToChunk.isEmpty else { throw fail("\(count) samples but no stsc entries") }
        result.reserveCapacity(min(wanted, 1 << 16))

        // Decode times from stts, composition offsets from ctts, consumed as samples go.
        var timing = TimingCursor(self)
        var decodeTime: UInt64 = 0
        var sampleIndex = 0

        for (entryIndex, entry) in sampleToChunk.enumerated() {
            guard entry.firstChunk >= 1 else { throw fail("stsc entry \(entryIndex + 1) starts at chunk 0") }
            let nextFirst = entryIndex + 1 < sampleToChunk.count ? sampleToChunk[entryIndex + 1].firstChunk : UInt32(clamping: chunkOffsets.count + 1)
            guard nextFirst > entry.firstChunk || entryIndex + 1 == sampleToChunk.count else {
                throw fail("stsc entries are not in increasing chunk order at entry \(entryIndex + 1)")
            }
            var chunk = entry.firstChunk
            while chunk < nextFirst && sampleIndex < wanted {
                guard Int(chunk) <= chunkOffsets.count else {
                    throw fail("stsc refers to chunk \(chunk) but the chunk offset table has \(chunkOffsets.count)")
                }
                var offset = chunkOffsets[Int(chunk) - 1]
                var inChunk: UInt32 = 0
                while inChunk < entry.samplesPerChunk && sampleIndex < wanted {
                    let size = constantSampleSize != 0 ? constantSampleSize : sampleSizes[sampleIndex]
                    guard let (duration, compositionOffset) = timing.next() else { throw fail("stts covers fewer samples than stsz's \(count)") }
                    let presentation = Int64(clamping: decodeTime).addingReportingOverflow(compositionOffset)
                    result.append(Sample(
                        index: sampleIndex, offset: offset, size: size, decodeTime: decodeTime, duration: duration,
                        presentationTime: presentation.overflow ? Int64.max : presentation.partialValue,
                        descriptionIndex: entry.descriptionIndex))
                    let nextOffset = offset.addingReportingOverflow(UInt64(size))
                    let nextTime = decodeTime.addingReportingOverflow(UInt64(duration))
                    guard !nextOffset.overflow, !nextTime.overflow else { throw fail("sample offsets or times overflow at sample \(sampleIndex + 1)") }
                    offset = nextOffset.partialValue
                    decodeTime = nextTime.partialValue
                    inChunk += 1
                    sampleIndex += 1
                }
                chunk += 1
            }
            if sampleIndex >= wanted { break }
        }
        guard sampleIndex >= wanted else {
            throw fail("the chunk tables hold \(sampleIndex) samples but stsz has \(count)")
        }
        return result
    }

    /// Sum of `stts` sample counts.
    public var timedSampleCount: UInt64 { timeToSample.reduce(0) { $0 + UInt64($1.count) } }
}

/// Frame durations of a video track, from its `stts`.
public struct FrameDurations: Sendable, Equatable, Codable {
    public var timescale: UInt32
    public var frameCount: UInt64
    /// The duration most frames have.
    public var nominal: UInt32
    public var minimum: UInt32
    public var maximum: UInt32
    public var zeroDurationFrames: UInt64

    public func seconds(_ ticks: UInt32) -> Double? { timescale > 0 ? Double(ticks) / Double(timescale) : nil }

    public init(timescale: UInt32, frameCount: UInt64, nominal: UInt32, minimum: UInt32, maximum: UInt32, zeroDurationFrames: UInt64) {
        (self.timescale, self.frameCount, self.nominal) = (timescale, frameCount, nominal)
        (self.minimum, self.maximum, self.zeroDurationFrames) = (minimum, maximum, zeroDurationFrames)
    }

    public init?(_ table: SampleTable, timescale: UInt32) {
        // The entries that count frames, ordered by duration; then each duration's frames are
        // summed in one pass (no dictionary: a track has one to a few durations).
        var entries = table.timeToSample.compactMap { $0.count > 0 ? (delta: $0.delta, count: UInt64($0.count)) : nil }
        guard let first = entries.first else { return nil }
        var ordered = true
        for index in entries.indices.dropFirst() where entries[index - 1].delta > entries[index].delta { ordered = false }
        if !ordered { entries.sort { $0.delta < $1.delta } }
        self.timescale = timescale
        frameCount = table.timedSampleCount
        // The duration most frames have; of durations with as many, the shortest.
        (nominal, zeroDurationFrames) = (first.delta, 0)
        var most: UInt64 = 0
        var index = 0
        while index < entries.count {
            let delta = entries[index].delta
            var frames: UInt64 = 0
            while index < entries.count, entries[index].delta == delta {
                frames += entries[index].count
                index += 1
            }
            if frames > most { (nominal, most) = (delta, frames) }
            if delta == 0 { zeroDurationFrames = frames }
        }
        minimum = entries[0].delta
        maximum = entries[entries.count - 1].delta
    }
}

extension SampleTable {
    /// Presentation times and durations of the first `limit` samples, from `stts` and `ctts` alone
    /// (no chunk tables needed).
    public func timing(limit: Int = Limits.maxResolvedSamples) -> [(presentation: Int64, duration: UInt32)] {
        var result: [(presentation: Int64, duration: UInt32)] = []
        // Room for the samples `stsz` counts, up to a few thousand: that count is the file's
        // word (a constant-size `stsz` need not back it with bytes), so more grow as read.
        result.reserveCapacity(min(limit, Int(sampleCount), 4096))
        var decode: Int64 = 0
        var cursor = TimingCursor(self)
        while result.count < limit, let (duration, shift) = cursor.next() {
            result.append((decode.addingReportingOverflow(shift).partialValue, duration))
            decode = decode.addingReportingOverflow(Int64(duration)).partialValue
        }
        return result
    }
}

/// Walks `stts` and `ctts` together, one sample at a time: its duration and composition offset.
/// The one place both tables are read sample by sample (`resolve` and `timing` use it).
struct TimingCursor {
    let table: SampleTable
    var sttsIndex = 0, sttsLeft: Int
    var cttsIndex = 0, cttsLeft: Int

    init(_ table: SampleTable) {
        self.table = table
        sttsLeft = table.timeToSample.first.map { Int($0.count) } ?? 0
        cttsLeft = table.compositionOffsets.first.map { Int($0.count) } ?? 0
    }

    /// The next sample's duration and composition offset (0 past `ctts`); nil past `stts`.
    mutating func next() -> (duration: UInt32, compositionOffset: Int64)? {
        while sttsLeft == 0 && sttsIndex + 1 < table.timeToSample.count {
            sttsIndex += 1
            sttsLeft = Int(table.timeToSample[sttsIndex].count)
        }
        guard sttsLeft > 0 else { return nil }
        sttsLeft -= 1
        var offset: Int64 = 0
        while cttsLeft == 0 && cttsIndex + 1 < table.compositionOffsets.count {
            cttsIndex += 1
            cttsLeft = Int(table.compositionOffsets[cttsIndex].count)
        }
        if cttsLeft > 0 {
            offset = Int64(table.compositionOffsets[cttsIndex].offset)
            cttsLeft -= 1
        }
        return (table.timeToSample[sttsIndex].delta, offset)
    }
}

extension Movie {
    /// The primary video track's frames in movie time (edit list applied), sorted: start and
    /// duration in seconds. Frames the edit list does not present are left out.
    public func videoFrames(limit: Int = 100_000) -> [(start: Double, duration: Double)] {
        guard let video = primaryVideoTrackIndex, tracks[video].mediaTimescale > 0 else { return [] }
        let (timescale, editList) = (tracks[video].mediaTimescale, tracks[video].editList)
        let scale = Double(timescale)
        let timing = tracks[video].sampleTable.timing(limit: limit)
        // One list, made once at its size (a `compactMap` grew it half a dozen times), and
        // sorted only when the presentation order differs from the decoding order.
        var frames: [(start: Double, duration: Double)] = []
        frames.reserveCapacity(timing.count)
        var sorted = true
        for frame in timing {
            guard let start = movieSeconds(forMediaTime: frame.presentation, mediaTimescale: timescale, editList: editList) else { continue }
            if let last = frames.last, last.start > start { sorted = false }
            frames.append((start, Double(frame.duration) / scale))
        }
        if !sorted { frames.sort { $0.start < $1.start } }
        return frames
    }
}
