import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Fragmented movies read by ISO/IEC 14496-12 §8.8, each default and override on its own:
/// movies built here field by field, so each case names the one rule it holds.
struct MovieFragmentTests {
    typealias B = BoxBuilder

    /// `moov` with video track 1 (and sound track 2 when `sound`), empty tables, `mvex` with
    /// each track's defaults (duration 40, size 10, non-sync) unless `trex` is false.
    static func moov(sound: Bool = false, trex: Bool = true, headerDuration: UInt32 = 0) -> [UInt8] {
        func track(_ id: UInt32, _ handler: String) -> [UInt8] {
            let table = B.fullBox("stsd", B.u32(1) + B.visualEntry()) + B.stts([]) + B.stsc([]) + B.stsz(sizes: []) + B.stco([])
            return B.box("trak", B.tkhd(id: id, duration: 0) + B.box("mdia", B.mdhd(timescale: 1000, duration: 0) + B.hdlr(handler) + B.box("minf", B.box("stbl", table))))
        }
        let extends = (sound ? [1, 2] : [1] as [UInt32]).map { B.fullBox("trex", B.u32($0) + B.u32(1) + B.u32(40) + B.u32(10) + B.u32(0x1_0000)) }
        return B.box("moov", B.mvhd(timescale: 1000, duration: headerDuration) + track(1, "vide") + (sound ? track(2, "soun") : [])
                     + (trex ? B.box("mvex", extends.flatMap { $0 }) : B.box("mvex", [])))
    }

    static func traf(track: UInt32, tfhdFlags: UInt32 = 0, tfhdFields: [UInt8] = [], decodeTime: UInt64? = nil, runs: [[UInt8]]) -> [UInt8] {
        B.box("traf", B.fullBox("tfhd", flags: tfhdFlags, B.u32(track) + tfhdFields)
              + (decodeTime.map { B.fullBox("tfdt", version: 1, B.u64($0)) } ?? []) + runs.flatMap { $0 })
    }

    static func trun(flags: UInt32, count: UInt32, dataOffset: Int32? = nil, firstFlags: UInt32? = nil, samples: [[UInt32]] = []) -> [UInt8] {
        B.fullBox("trun", flags: flags, B.u32(count) + (dataOffset.map(B.i32) ?? []) + (firstFlags.map(B.u32) ?? []) + samples.flatMap { $0.flatMap(B.u32) })
    }

    static func moof(_ trafs: [[UInt8]]) -> [UInt8] { B.box("moof", B.fullBox("mfhd", B.u32(1)) + trafs.flatMap { $0 }) }

    static func read(_ bytes: [UInt8]) throws -> Movie { try Movie.read(from: MemorySource(bytes)) }

    static func samples(_ movie: Movie, track: Int = 0) throws -> [Sample] { try movie.tracks[track].sampleTable.resolve(path: "t") }

    @Test("trex's defaults, tfhd's over them, trun's per-sample values over both, first_sample_flags for the first alone; default-base-is-moof with a data offset from the moof's start")
    func defaultsAndOverrides() throws {
        let head = B.ftyp("iso5") + Self.moov()
        // Run 1: trex defaults (duration 40, size 10, non-sync) but the first sample sync.
        // tfhd overrides the duration (25); run 2 lists its own sizes.
        let run1 = Self.trun(flags: 0x001 | 0x004, count: 3, dataOffset: 0, firstFlags: 0)
        let run2 = Self.trun(flags: 0x001 | 0x200, count: 2, dataOffset: 0, samples: [[7], [9]])
        var moof = Self.moof([Self.traf(track: 1, tfhdFlags: 0x02_0000 | 0x08, tfhdFields: B.u32(25), runs: [run1, run2])])
        let payloadStart = head.count + moof.count + 8
        // Data offsets are from the moof's first byte: patch them now that the moof's size is known.
        moof = Self.moof([Self.traf(track: 1, tfhdFlags: 0x02_0000 | 0x08, tfhdFields: B.u32(25), runs: [
            Self.trun(flags: 0x001 | 0x004, count: 3, dataOffset: Int32(moof.count + 8), firstFlags: 0),
            Self.trun(flags: 0x001 | 0x200, count: 2, dataOffset: Int32(moof.count + 8 + 30), samples: [[7], [9]]),
        ])])
        let bytes = head + moof + B.box("mdat", [UInt8](repeating: 1, count: 46))
        let movie = try Self.read(bytes)
        let samples = try Self.samples(movie)
        #expect(samples.map(\.size) == [10, 10, 10, 7, 9])
        #expect(samples.map(\.duration) == [25, 25, 25, 25, 25])
        #expect(samples.map(\.decodeTime) == [0, 25, 50, 75, 100])
        #expect(samples.map(\.offset) == [0, 10, 20, 30, 37].map { UInt64(payloadStart + $0) })
        #expect(movie.tracks[0].sampleTable.syncSamples == [1], "only the first sample's flags say sync")
        #expect(movie.fragments?.count == 1 && movie.fragments?.runs == 2)
        #expect(movie.tracks[0].mediaDuration == 125 && movie.duration == 125, "durations the headers left 0 are the samples' sums")
        #expect(movie.warnings.isEmpty, "\(movie.warnings)")
    }

    @Test("without a base offset or default-base-is-moof: the first track fragment's data starts at the moof, the next one's where the previous one's data ended; a run without a data offset follows the previous run; an explicit base-data-offset wins")
    func implicitBases() throws {
        let head = B.ftyp("iso5") + Self.moov(sound: true)
        // Video: one run at data offset (moof size + 8) from the moof; sound: no offset at all.
        func build(_ offset: Int32) -> [UInt8] {
            Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0x001, count: 2, dataOffset: offset)]),
                       Self.traf(track: 2, runs: [Self.trun(flags: 0, count: 1), Self.trun(flags: 0, count: 1)])])
        }
        let moof = build(Int32(build(0).count + 8))
        let data = head.count + moof.count + 8
        func second(_ base: UInt64) -> [UInt8] { Self.moof([Self.traf(track: 1, tfhdFlags: 0x01, tfhdFields: B.u64(base), runs: [Self.trun(flags: 0, count: 1)])]) }
        let later = data + 40 + second(0).count + 8
        let bytes = head + moof + B.box("mdat", [UInt8](repeating: 2, count: 40)) + second(UInt64(later)) + B.box("mdat", [UInt8](repeating: 3, count: 10))
        let movie = try Self.read(bytes)
        #expect(try Self.samples(movie, track: 0).map(\.offset) == [UInt64(data), UInt64(data + 10), UInt64(later)])
        #expect(try Self.samples(movie, track: 1).map(\.offset) == [20, 30].map { UInt64(data + $0) })
        #expect(movie.tracks[0].sampleTable.chunkOffsets.count == 2 && movie.tracks[1].sampleTable.chunkOffsets.count == 2, "one chunk per run")
        #expect(movie.warnings.isEmpty, "\(movie.warnings)")
    }

    @Test("a fragment's tfdt past the samples so far stretches the last sample to it (the next sample decodes at the time tfdt gives); before them, a warning and the samples read as following")
    func decodeTimes() throws {
        let head = B.ftyp("iso5") + Self.moov()
        func moof(_ time: UInt64) -> [UInt8] { Self.moof([Self.traf(track: 1, tfhdFlags: 0x02_0000, decodeTime: time, runs: [Self.trun(flags: 0, count: 2)])]) }
        let gap = try Self.read(head + moof(0) + moof(100) + B.box("mdat", []))
        #expect(try Self.samples(gap).map(\.decodeTime) == [0, 40, 100, 140])
        #expect(try Self.samples(gap).map(\.duration) == [40, 60, 40, 40])
        let back = try Self.read(head + moof(0) + moof(50) + B.box("mdat", []))
        #expect(try Self.samples(back).map(\.decodeTime) == [0, 40, 80, 120])
        #expect(back.warnings.contains { $0.code == .inconsistent && $0.message.contains("starts at decode time 50") }, "\(back.warnings)")
    }

    @Test("hostile fragments: a run claiming more samples than its bytes hold is refused with its offset; more samples in all than lpcheck resolves is refused; a run whose data lies past the file, a track fragment for no track, a missing trex, a last moof cut short: each a warning, nothing crashes")
    func hostile() throws {
        let head = B.ftyp("iso5") + Self.moov()
        let tooMany = Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0x200, count: 0x7FFF_FFFF, samples: [[1]])])])
        #expect { try Self.read(head + tooMany) } throws: { error in
            guard let error = error as? ParseError else { return false }
            return error.code == .invalidSize && error.message.contains("2147483647 samples") && error.offset > Int64(head.count)
        }
        let endless = Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0, count: UInt32(Limits.maxResolvedSamples) + 1)])])
        #expect { try Self.read(head + endless) } throws: { ($0 as? ParseError)?.code == .limitExceeded }
        let outside = Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0x001, count: 2, dataOffset: 1 << 30)])])
        let far = try Self.read(head + outside)
        #expect(far.warnings.contains { $0.code == .outsideFile && $0.message.contains("past the end of the file") }, "\(far.warnings)")
        let stranger = Self.moof([Self.traf(track: 9, runs: [Self.trun(flags: 0, count: 1)])])
        #expect(try Self.read(head + stranger).warnings.contains { $0.message.contains("track 9, which moov has no track for") })
        let bare = B.ftyp("iso5") + Self.moov(trex: false)
        let silent = try Self.read(bare + Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0x100 | 0x200, count: 1, samples: [[30, 0]])])]))
        #expect(silent.warnings.contains { $0.message.contains("no defaults (trex) for track 1") })
        #expect(try Self.samples(silent).map(\.duration) == [30])
        let whole = head + Self.moof([Self.traf(track: 1, runs: [Self.trun(flags: 0, count: 1)])])
        let cut = try Self.read(Array(whole.dropLast(3)))
        #expect(cut.warnings.contains { $0.code == .truncated }, "\(cut.warnings)")
        #expect(cut.tracks[0].sampleTable.sampleCount == 0)
    }
}
