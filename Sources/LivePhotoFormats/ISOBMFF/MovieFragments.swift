/// A fragmented movie (ISO/IEC 14496-12 §8.8): `moov` holds an `mvex` and sample tables that
/// are usually empty; the samples are listed in `moof/traf/trun` boxes, each fragment's data in
/// the `mdat` after it. lpcheck reads the fragments into each track's sample tables, as if the
/// movie were an ordinary one: one chunk per `trun`, at the offset the run's data starts.
public struct MovieFragments: Sendable, Equatable {
    /// `moof` boxes read.
    public var count: Int
    /// Track runs (`trun`) read, each one chunk in the tables.
    public var runs: Int
    /// `mehd`'s fragment duration, in movie timescale units, when present.
    public var fragmentDuration: UInt64?
    /// The durations the movie header said before the fragments were counted (0 as
    /// `empty_moov` writes them); the model's durations are then the fragments' sums.
    public var headerDuration: UInt64
    /// Whether the file ends with a movie fragment random access box (`mfra`).
    public var randomAccess: Bool
}

/// `trex`: the defaults a track's fragments take where `tfhd` and `trun` say nothing.
struct TrackExtends {
    var descriptionIndex: UInt32 = 1
    var duration: UInt32 = 0
    var size: UInt32 = 0
    var flags: UInt32 = 0
}

/// Sample flags (§8.8.3.1): bit 16, `sample_is_non_sync_sample`.
private let nonSyncFlag: UInt32 = 0x0001_0000

/// Fragment samples appended to one track's tables.
struct FragmentAppender {
    var table: SampleTable
    /// Decode time after the last sample, in media timescale units.
    var decodeEnd: UInt64 = 0
    var hasOffsets: Bool

    init(_ table: SampleTable) {
        self.table = table
        // Entries of no sample (an empty moov's `stts` may hold one) are dropped.
        self.table.timeToSample.removeAll { $0.count == 0 }
        self.table.compositionOffsets.removeAll { $0.count == 0 }
        hasOffsets = !self.table.compositionOffsets.isEmpty
        for entry in self.table.timeToSample { decodeEnd &+= UInt64(entry.count) * UInt64(entry.delta) }
        // Per-sample sizes and sync lists, as fragments need them (a track's own samples are
        // bounded by the tables already read).
        if table.constantSampleSize > 0, table.sampleCount > 0 {
            self.table.sampleSizes = Array(repeating: table.constantSampleSize, count: Int(table.sampleCount))
            self.table.constantSampleSize = 0
        }
    }

    /// One sample of a run.
    mutating func append(duration: UInt32, size: UInt32, flags: UInt32, compositionOffset: Int32) {
        let index = table.sampleCount
        if let last = table.timeToSample.last, last.delta == duration, last.count < UInt32.max {
            table.timeToSample[table.timeToSample.count - 1].count += 1
        } else {
            table.timeToSample.append(TimeToSampleEntry(count: 1, delta: duration))
        }
        if compositionOffset != 0, !hasOffsets {
            hasOffsets = true
            if index > 0 { table.compositionOffsets = [CompositionOffsetEntry(count: index, offset: 0)] }
        }
        if hasOffsets {
            if let last = table.compositionOffsets.last, last.offset == compositionOffset, last.count < UInt32.max {
                table.compositionOffsets[table.compositionOffsets.count - 1].count += 1
            } else {
                table.compositionOffsets.append(CompositionOffsetEntry(count: 1, offset: compositionOffset))
            }
        }
        let sync = flags & nonSyncFlag == 0
        if !sync, table.syncSamples == nil { table.syncSamples = index == 0 ? [] : Array(1...index) }
        if sync, table.syncSamples != nil { table.syncSamples?.append(index + 1) }
        table.sampleSizes.append(size)
        table.sampleCount = index + 1
        decodeEnd &+= UInt64(duration)
    }

    /// A chunk of `samples` samples at `offset`, described by `descriptionIndex`.
    mutating func chunk(at offset: UInt64, samples: UInt32, descriptionIndex: UInt32) {
        table.chunkOffsets.append(offset)
        let number = UInt32(table.chunkOffsets.count)
        if let last = table.sampleToChunk.last, last.samplesPerChunk == samples, last.descriptionIndex == descriptionIndex { return }
        table.sampleToChunk.append(SampleToChunkEntry(firstChunk: number, samplesPerChunk: samples, descriptionIndex: descriptionIndex))
    }

    /// Stretches the last sample so the next starts at `time` (a fragment's `tfdt` after a gap).
    /// False when there is no sample to stretch or the gap does not fit a duration.
    mutating func stretchLast(to time: UInt64) -> Bool {
        guard time > decodeEnd, let last = table.timeToSample.last, time - decodeEnd <= UInt64(UInt32.max - last.delta) else { return false }
        let longer = last.delta + UInt32(time - decodeEnd)
        if last.count == 1 {
            table.timeToSample[table.timeToSample.count - 1].delta = longer
        } else {
            table.timeToSample[table.timeToSample.count - 1].count -= 1
            table.timeToSample.append(TimeToSampleEntry(count: 1, delta: longer))
        }
        decodeEnd = time
        return true
    }
}
