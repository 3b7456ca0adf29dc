import LivePhotoFormats
import LivePhotoTestSupport
import Testing

typealias B = BoxBuilder

/// Box-walk and sample-table edge cases on movies built byte by byte.
struct MovieStructureTests {
    func read(_ bytes: [UInt8]) throws -> Movie {
        try Movie.read(from: MemorySource(bytes))
    }

    @Test("a camera-style movie: identifier, still-image-time after an empty edit, frame durations")
    func cameraStyle() throws {
        let movie = try read(B.movie())
        #expect(movie.contentIdentifier == "11111111-2222-3333-4444-555555555555")
        let time = try #require(movie.stillImageTime)
        #expect(time.value == -1)
        #expect(time.seconds == 20.0 / 600.0)
        #expect(time.mediaTime == 0)
        #expect(time.duration == 1)
        #expect(movie.frameDurations?.nominal == 20)
        #expect(movie.frameDurations?.frameCount == 3)
    }

    @Test("without an edit list the moment is the sample's media time")
    func noEditList() throws {
        let movie = try read(B.movie(stillImageTime: (0, nil, 20)))
        #expect(movie.stillImageTime?.seconds == 0)
        #expect(movie.stillImageTime?.value == 0)
        #expect(movie.stillImageTime?.hasEditList == false)
    }

    @Test("an edit list that never presents the sample gives no moment")
    func notPresented() throws {
        let movie = try read(B.movie(stillImageTime: (-1, [(60, 5)], 1)))
        #expect(movie.stillImageTime != nil)
        #expect(movie.stillImageTime?.seconds == nil)
    }

    @Test("elst version 1 with 64-bit fields")
    func editListVersion1() throws {
        let still = B.box("trak", B.tkhd(id: 9, duration: 60) + B.box("edts", B.elst([(30, -1), (1, 0)], version: 1)))
        let movie = try read(B.movie(extraMoovBoxes: [still]))
        let track = try #require(movie.tracks.first { $0.id == 9 })
        #expect(track.editList == [Edit(segmentDuration: 30, mediaTime: -1), Edit(segmentDuration: 1, mediaTime: 0)])
    }

    @Test("64-bit box sizes, a size-0 last box, uuid boxes, and no ftyp")
    func boxHeaderForms() throws {
        let uuid = B.box("uuid", [UInt8](repeating: 0x42, count: 16) + [1, 2, 3])
        var bytes = B.movie(lead: [B.box("wide", []), uuid])
        // Rewrite the mdat header as a 64-bit size: find it after the lead boxes.
        let mdatAt = 8 + uuid.count
        let mdatSize = Int(bytes[mdatAt]) << 24 | Int(bytes[mdatAt + 1]) << 16 | Int(bytes[mdatAt + 2]) << 8 | Int(bytes[mdatAt + 3])
        let payload = Array(bytes[(mdatAt + 8)..<(mdatAt + mdatSize)])
        let moov = Array(bytes[(mdatAt + mdatSize)...])
        // 64-bit mdat is 8 bytes longer, so move the chunk offsets by building again with a lead pad instead:
        bytes = B.box("wide", []) + uuid + moov + B.u32(0) + B.fourCC("free") + payload
        let file = MediaFile.inspect(source: MemorySource(bytes), path: "forms.mov")
        #expect(file.format == .quickTime)
        let movie = try #require(file.movie)
        #expect(movie.boxes.map(\.type) == ["wide", "uuid", "moov", "free"])
        #expect(movie.boxes[1].userType == [UInt8](repeating: 0x42, count: 16))
        #expect(movie.boxes.last?.end == Int64(bytes.count))
        let large = B.largeBox("mdat", payload)
        let withLarge = try read(B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + moov + large)
        #expect(withLarge.boxes.last?.headerSize == 16)
        #expect(withLarge.boxes.last?.size == Int64(large.count))
    }

    @Test("moov/meta with and without the ISO full-box header")
    func metaForms() throws {
        #expect(try read(B.movie(metaFullBoxHeader: false)).contentIdentifier != nil)
        #expect(try read(B.movie(metaFullBoxHeader: true)).contentIdentifier != nil)
    }

    @Test("the still-image-time track is found by its key, not its position")
    func byKeyNotPosition() throws {
        // A timed-metadata track with another key comes first.
        var table = B.fullBox("stsd", B.u32(1) + B.mebx([(1, "com.apple.quicktime.live-photo-info", 0)]))
        table += B.stts([(1, 20)]) + B.stsc([(1, 1, 1)]) + B.stsz(constant: 9, sizes: [], count: 1) + B.stco([8])
        let other = B.box("trak", B.tkhd(id: 7, duration: 60) + B.box("mdia", B.mdhd(timescale: 600, duration: 20) + B.hdlr("meta") + B.box("minf", B.box("stbl", table))))
        let movie = try read(B.movie(extraMoovBoxes: [other]))
        #expect(movie.stillImageTimeTracks.map(\.id) == [2])
        #expect(movie.stillImageTime?.trackID == 2)
    }

    @Test("co64 and stz2 sample tables resolve like stco and stsz")
    func alternativeTables() throws {
        var table = SampleTable()
        table.timeToSample = [TimeToSampleEntry(count: 4, delta: 10)]
        table.sampleToChunk = [SampleToChunkEntry(firstChunk: 1, samplesPerChunk: 2, descriptionIndex: 1)]
        table.sampleCount = 4
        table.sampleSizes = [5, 6, 7, 8]
        table.chunkOffsets = [1 << 33, (1 << 33) + 100]
        table.compositionOffsets = [CompositionOffsetEntry(count: 4, offset: 10)]
        let samples = try table.resolve()
        let base: UInt64 = 1 << 33
        let expected: [UInt64] = [base, base + 5, base + 100, base + 107]
        #expect(samples.map(\.offset) == expected)
        #expect(samples.map(\.decodeTime) == [0, 10, 20, 30])
        #expect(samples.map(\.presentationTime) == [10, 20, 30, 40])

        let stz2 = B.fullBox("stz2", [0, 0, 0, 4] + B.u32(3) + [0x12, 0x30])
        var stbl = B.fullBox("stsd", B.u32(1) + B.visualEntry()) + B.stts([(3, 20)]) + B.stsc([(1, 3, 1)]) + stz2 + B.co64([8])
        stbl = B.box("stbl", stbl)
        let trak = B.box("trak", B.tkhd(id: 5, duration: 60) + B.box("mdia", B.mdhd(timescale: 600, duration: 60) + B.hdlr("vide") + B.box("minf", stbl)))
        let movie = try read(B.movie(extraMoovBoxes: [trak]))
        let track = try #require(movie.tracks.first { $0.id == 5 })
        #expect(track.sampleTable.sizeBox == "stz2")
        #expect(track.sampleTable.sampleSizes == [1, 2, 3])
        #expect(track.sampleTable.chunkOffsetBox == "co64")
        #expect(try track.sampleTable.resolve().map(\.offset) == [8, 9, 11])
    }

    @Test("a box smaller than its header is an error with offset and path")
    func boxBelowHeader() throws {
        let bytes = B.ftyp("qt  ") + B.u32(4) + B.fourCC("moov") + [0, 0, 0, 0]
        let file = MediaFile.inspect(source: MemorySource(bytes), path: "box-size-below-header.mov")
        let error = try #require(file.error)
        #expect(error.code == .invalidSize)
        #expect(error.offset == 16)
        #expect(error.path == "moov")
    }

    @Test("a child that runs past its parent is an error naming the box path")
    func childPastParent() throws {
        var bytes = B.movie()
        // Find the first 'tkhd' and claim it is huge.
        let tkhd = try #require(indexOf(Array("tkhd".utf8), in: bytes))
        bytes.replaceSubrange((tkhd - 4)..<tkhd, with: B.u32(0x7FFF_0000))
        let error = try #require(MediaFile.inspect(source: MemorySource(bytes), path: "x").error)
        #expect(error.code == .invalidSize)
        #expect(error.path == "moov/trak/tkhd")
        #expect(error.offset == Int64(tkhd - 4))
    }

    @Test("a table claiming billions of entries is refused before anything is allocated")
    func hugeCounts() throws {
        var stbl = B.fullBox("stsd", B.u32(1) + B.visualEntry()) + B.stts([(3, 20)]) + B.stsc([(1, 3, 1)])
        stbl += B.fullBox("stsz", B.u32(0) + B.u32(0xFFFF_FFFF) + B.u32(1)) + B.stco([8])
        let trak = B.box("trak", B.tkhd(id: 5, duration: 60) + B.box("mdia", B.mdhd(timescale: 600, duration: 60) + B.hdlr("vide") + B.box("minf", B.box("stbl", stbl))))
        let error = try #require(MediaFile.inspect(source: MemorySource(B.movie(extraMoovBoxes: [trak])), path: "x").error)
        #expect(error.code == .invalidSize)
        #expect(error.path.hasSuffix("stbl/stsz"))
        // A constant-size stsz may claim 4 billion samples in 20 bytes: resolving stops at the limit.
        var table = SampleTable()
        table.constantSampleSize = 9
        table.sampleCount = 0xFFFF_FFFF
        table.timeToSample = [TimeToSampleEntry(count: 0xFFFF_FFFF, delta: 1)]
        table.sampleToChunk = [SampleToChunkEntry(firstChunk: 1, samplesPerChunk: 0xFFFF_FFFF, descriptionIndex: 1)]
        table.chunkOffsets = [0]
        #expect(try table.resolve(limit: 1000).count == 1000)
    }

    @Test("a mebx sample entry with too many keys is refused")
    func tooManyKeys() throws {
        var keys: [UInt8] = []
        for id in 1...(Limits.maxKeys + 1) { keys += B.u32(8) + B.u32(UInt32(id)) }
        let mebx = B.box("mebx", [0, 0, 0, 0, 0, 0] + B.u16(1) + B.box("keys", keys))
        let stbl = B.box("stbl", B.fullBox("stsd", B.u32(1) + mebx) + B.stts([]) + B.stsc([]) + B.stsz(sizes: []) + B.stco([]))
        let trak = B.box("trak", B.tkhd(id: 5, duration: 60) + B.box("mdia", B.mdhd(timescale: 600, duration: 60) + B.hdlr("meta") + B.box("minf", stbl)))
        let error = try #require(MediaFile.inspect(source: MemorySource(B.movie(extraMoovBoxes: [trak])), path: "x").error)
        #expect(error.code == .limitExceeded)
    }

    @Test("nesting deeper than the limit is refused")
    func deepNesting() throws {
        var inner = B.box("free", [])
        for _ in 0..<(Limits.maxDepth + 2) { inner = B.box("udta", inner) }
        let error = try #require(MediaFile.inspect(source: MemorySource(B.movie(extraMoovBoxes: [inner])), path: "x").error)
        #expect(error.code == .limitExceeded)
    }

    @Test("a timed sample pointing past the end of a whole file is reported on its track as outside the file, not as a cut file; the table's extent says so too")
    func sampleOutsideFile() throws {
        var bytes = B.movie()
        let stco = try #require(lastIndexOf(Array("stco".utf8), in: bytes))
        bytes.replaceSubrange((stco + 12)..<(stco + 16), with: B.u32(0x00FF_FFFF))
        let movie = try #require(MediaFile.inspect(source: MemorySource(bytes), path: "x").movie)
        let track = try #require(movie.stillImageTimeTracks.first)
        #expect(track.timedMetadataError?.code == .outsideFile)
        #expect(movie.stillImageTime == nil)
        #expect(movie.warnings.contains { $0.code == .outsideFile && $0.message.hasPrefix("chunk 1 of 1 starts at byte 16777215, past the end of the file") })
        #expect(!movie.warnings.contains { $0.code == .truncated })
    }

    @Test("a timed sample past the end of a file whose last box is cut short stays a truncation")
    func sampleInCutFile() throws {
        var bytes = B.movie()
        let stco = try #require(lastIndexOf(Array("stco".utf8), in: bytes))
        bytes.replaceSubrange((stco + 12)..<(stco + 16), with: B.u32(UInt32(bytes.count + 8)))
        // A last box that claims more than the file holds: the file is cut.
        bytes += B.u32(4096) + Array("mdat".utf8) + [0, 0, 0, 0]
        let movie = try #require(MediaFile.inspect(source: MemorySource(bytes), path: "x").movie)
        let track = try #require(movie.stillImageTimeTracks.first)
        #expect(track.timedMetadataError?.code == .truncated)
    }

    func indexOf(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func lastIndexOf(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).last { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
