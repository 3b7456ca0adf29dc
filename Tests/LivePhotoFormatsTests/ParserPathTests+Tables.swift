import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// More of the parsers' cheaper paths held to their definitions: child lists, the file source, metadata values, uuid boxes,
/// HEIF item tables, text trimming, table counts, frame durations and the header scan.
extension ParserPathTests {
    @Test("all() gives what next() gives for containers of 0 to 40, 300 and 5,000 children of any size, however the list is sized")
    func childCounts() throws {
        var random = Seeded(state: 3)
        for count in Array(0...40) + [300, 5000] {
            var bytes: [UInt8] = []
            for index in 0..<count {
                // Mostly 8-byte boxes (more children than 16 bytes each would suggest), some larger.
                let payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: random.next(4) == 0 ? random.next(60) : 0)
                bytes += BoxBuilder.box(["free", "skip", "trak", "infe"][random.next(4)], payload)
            }
            let (all, stepped, error) = Self.walks(ByteReader(bytes, base: 7, path: "moov"))
            #expect(error == nil, "\(count) children")
            #expect(all == .success(stepped), "\(count) children")
            #expect(stepped.count == count)
        }
    }

    @Test("a file source serves reads from its head, its window and what it read ahead: the same bytes and read counts as reading the file")
    func fileSourceHead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-head-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        var random = Seeded(state: 5)
        // A file within one window, and one of several windows (large reads, read ahead, the
        // head kept while the window moves, reads across the two and past the end).
        for fileSize in [300, 20_000] {
            let bytes = (0..<fileSize).map { _ in UInt8(truncatingIfNeeded: random.next(256)) }
            try Data(bytes).write(to: url)
            for round in 0..<200 {
                let source = try FileSource(path: url.path)
                var expected = ReadStats()
                // The first read at 0 (of 0 to 60 bytes) fills the head; then reads anywhere, of
                // up to 6,000 bytes, some right after the last one, some past the end.
                var next = 0
                for step in 0..<12 {
                    let offset = step == 0 ? 0 : random.next(3) == 0 ? next : random.next(fileSize + 80)
                    let count = random.next(step == 0 ? 61 : random.next(2) == 0 ? 40 : 6000)
                    let wanted = offset + count <= bytes.count ? Array(bytes[offset..<(offset + count)]) : nil
                    let got = try? source.read(at: Int64(offset), count: count)
                    #expect(got == wanted, "\(fileSize) bytes, round \(round), \(count) bytes at \(offset)")
                    if wanted != nil, count > 0 {
                        expected.bytesRead += Int64(count)
                        expected.reads += 1
                        expected.largestRead = max(expected.largestRead, count)
                    }
                    next = offset + count
                }
                #expect(source.stats == expected, "\(fileSize) bytes, round \(round)")
                #expect(throws: ParseError.self) { try source.read(at: Int64(fileSize - 10), count: 20) }
            }
        }
    }

    @Test("metadata values decoded from bytes in place (a slice not starting at 0) equal those decoded from a copy")
    func valuesFromSlices() {
        var random = Seeded(state: 11)
        let types: [UInt32] = [WellKnownType.utf8, WellKnownType.utf8Sort, WellKnownType.utf16, WellKnownType.signedBE, WellKnownType.int8,
                               WellKnownType.int16, WellKnownType.uint32, WellKnownType.float32, WellKnownType.float64, 0, 99]
        for round in 0..<600 {
            let bytes = (0..<random.next(24)).map { _ in random.next(3) == 0 ? UInt8(ascii: "a") : UInt8(truncatingIfNeeded: random.next(256)) }
            let start = random.next(bytes.count + 1)
            let slice = bytes[start...]
            let type = types[random.next(types.count)]
            // Compared as text: a float that is NaN equals itself there.
            #expect("\(WellKnownType.decode(slice, type: type))" == "\(WellKnownType.decode(Array(slice), type: type))", "round \(round), type \(type)")
        }
    }

    @Test("uuid children keep their extended type, offset and sizes in all() as in next(), among plain boxes")
    func uuidChildren() throws {
        let userType = (0..<16).map { UInt8($0 * 7) }
        for count in [1, 3, 4, 5, 9] {
            var bytes: [UInt8] = []
            for index in 0..<count {
                let payload: [UInt8] = index % 2 == 0 ? userType + [UInt8(index)] : [UInt8(index), 1]
                bytes += index % 2 == 0 ? BoxBuilder.box("uuid", payload) : BoxBuilder.largeBox("free", payload)
            }
            let reader = ByteReader(bytes, base: 40, path: "moov")
            let (all, stepped, error) = Self.walks(reader)
            #expect(error == nil)
            #expect(all == .success(stepped))
            let boxes = try BoxIterator.all(reader).map(\.box)
            #expect(boxes.count == count)
            for (index, box) in boxes.enumerated() {
                #expect(box.userType == (index % 2 == 0 ? userType : nil), "child \(index) of \(count)")
                #expect(box.headerSize == (index % 2 == 0 ? 24 : 16))
                #expect(box.payloadSize == (index % 2 == 0 ? 1 : 2))
            }
            #expect(boxes.first?.offset == 40)
        }
    }

    @Test("iinf entries out of order and repeated: one per ID, the last read kept, unlocated ones in ID order")
    func repeatedItemEntries() throws {
        let payload = Self.meta(infos: [(8, "hvc1", nil), (2, "mime", "text/plain"), (8, "Exif", nil), (4, "grid", nil), (2, "mime", "application/rdf+xml")],
                                locations: [4])
        let heif = try HEIFStructure.parse(ByteReader(payload))
        #expect(heif.items.map(\.id) == [4, 2, 8])
        #expect(heif.items.map(\.type) == ["grid", "mime", "Exif"])
        #expect(heif.xmpItem?.id == 2)
    }

    @Test("an item's extents in order, however many; an item list compares by its extents")
    func itemExtents() throws {
        let extents: [[(UInt32, UInt32)]] = [[(10, 5)], [(20, 1), (40, 2), (80, 3)], [], [(7, 0), (9, 9)]]
        var items: [UInt8] = []
        for (index, list) in extents.enumerated() {
            items += BoxBuilder.u16(UInt16(index + 1)) + BoxBuilder.u16(0) + BoxBuilder.u16(UInt16(list.count))
            for (offset, length) in list { items += BoxBuilder.u32(offset) + BoxBuilder.u32(length) }
        }
        let iloc = BoxBuilder.fullBox("iloc", [0x44, 0x00] + BoxBuilder.u16(UInt16(extents.count)) + items)
        let heif = try HEIFStructure.parse(ByteReader([0, 0, 0, 0] + BoxBuilder.hdlr("pict") + iloc))
        let expected: [[[UInt64]]] = extents.map { list in list.map { [UInt64($0.0), UInt64($0.1)] } }
        #expect(heif.items.map { item in item.extents.map { [$0.offset, $0.length] } } == expected)
        #expect(heif.items.map(\.totalLength) == [5, 6, 0, 9])
        let list: HEIFItem.ExtentList = [.init(offset: 1, length: 2), .init(offset: 3, length: 4)]
        var built = HEIFItem.ExtentList()
        built.append(.init(offset: 1, length: 2))
        #expect(built != list)
        built.append(.init(offset: 3, length: 4))
        #expect(built == list)
        #expect(Array(built) == [.init(offset: 1, length: 2), .init(offset: 3, length: 4)])
    }

    @Test("trimming XMP text gives what trimming character by character gives, CR LF and combining marks included")
    func trimmingMatchesCharacters() {
        let set = " \n\r\t"
        let drop = Set(set)
        func definition(_ text: String) -> String {
            var slice = Substring(text)
            while let first = slice.first, drop.contains(first) { slice.removeFirst() }
            while let last = slice.last, drop.contains(last) { slice.removeLast() }
            return String(slice)
        }
        let pieces = ["", " ", "\n", "\r\n", "\t", "a", "é", " \u{301}", "1.0", "\r", "x y"]
        for first in pieces { for middle in pieces { for last in pieces {
            let text = first + middle + last
            #expect(text.trimmingCharacters(in: set) == definition(text), "\(Array(text.unicodeScalars))")
        } } }
    }

    @Test("a four-character code's text and a media language code are what their byte-by-byte definitions give")
    func fourCCAndLanguageText() {
        func definition(_ value: UInt32) -> String {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
            return bytes.map { byte in
                byte == 0xA9 ? "©" : byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16).leftPadded(to: 2)
            }.joined()
        }
        for byte in 0...255 {
            for value in [UInt32(byte) << 24 | 0x6F_6F76, 0x6D6F_6F00 | UInt32(byte), UInt32(byte) * 0x0101_0101] {
                #expect(FourCC(value).description == definition(value), "0x\(String(value, radix: 16))")
            }
        }
        func language(_ packed: UInt16) -> String {
            if packed < 0x400 { return packed == 0 ? "eng" : "mac:\(packed)" }
            if packed == 0x7FFF { return "und" }
            let letters = [(packed >> 10) & 0x1F, (packed >> 5) & 0x1F, packed & 0x1F].map { UInt8($0) + 0x60 }
            return letters.allSatisfy { (0x61...0x7A).contains($0) } ? String(decoding: letters, as: UTF8.self) : "und"
        }
        for packed in stride(from: UInt16(0), through: 0x7FFF, by: 7) {
            #expect(MediaHeaderBox.language(packed) == language(packed), "\(packed)")
        }
        #expect(MediaHeaderBox.language(0x15C7) == "eng")
    }

    // Eighth pass (issue 12): counts read with their check, EXIF text trimmed on its bytes,
    // frame durations without a dictionary, video frames made in one list.

    @Test("a table's count is checked against the bytes from its count field on, with errors at the count field, as before")
    func entryCounts() throws {
        var random = Seeded(state: 99)
        func next(_ bound: Int) -> Int { random.next(bound) }
        for round in 0..<400 {
            let wide = next(2) == 0
            let entrySize = [0, 1, 2, 4, 8, 12][next(6)]
            let declared = [0, 1, 2, 3, 5, 0xFFFF, 0xFFFF_FFFF][next(7)] & (wide ? 0xFFFF_FFFF : 0xFFFF)
            let width = wide ? 4 : 2
            let tail = next(30)
            var bytes = [UInt8](repeating: 0xAA, count: 3)
            bytes += (0..<width).map { UInt8(truncatingIfNeeded: declared >> (8 * (width - 1 - $0))) } + [UInt8](repeating: 7, count: tail)
            var reader = ByteReader(bytes, base: 1000, path: "moov/trak/stco")
            try reader.skip(3)
            // The definition: the check asked of the reader as it was before the count was read.
            let before = reader
            let expected = Result { try before.checkCount(UInt64(declared), entrySize: entrySize, what: "table") }
            let got = Result { wide ? try reader.entryCount(UInt32.self, entrySize: entrySize, what: "table")
                                    : try reader.entryCount(UInt16.self, entrySize: entrySize, what: "table") }
            switch (got, expected) {
            case let (.success(count), .success(want)):
                #expect(count == want, "round \(round)")
                #expect(reader.position == 3 + width, "round \(round): the count field is read")
            case let (.failure(error as ParseError), .failure(want as ParseError)):
                #expect(error.message == want.message && error.offset == want.offset && error.path == want.path, "round \(round): \(error) vs \(want)")
                #expect(error.offset == 1003, "round \(round): not at the count field")
            default:
                Issue.record("round \(round): \(got) against \(expected)")
            }
        }
    }

    @Test("EXIF text loses trailing spaces and NULs and leading spaces as trimming character by character does")
    func exifTextTrimming() {
        func definition(_ text: String) -> String {
            var slice = Substring(text)
            while slice.last == " " || slice.last == "\0" { slice.removeLast() }
            while slice.first == " " { slice.removeFirst() }
            return String(slice)
        }
        let pieces = ["", " ", "\0", "  ", "Apple", "é", " \u{301}", "\u{0600} ", "iPhone 15 Pro", "\0 ", "x y"]
        for first in pieces { for middle in pieces { for last in pieces {
            let text = first + middle + last
            #expect(text.trimmingSpaces == definition(text), "\(Array(text.unicodeScalars))")
        } } }
    }

    @Test("frame durations (frames, most common, shortest, longest, zero) are what a count per duration gives")
    func frameDurationsMatchTheirDefinition() {
        var random = Seeded(state: 7)
        func next(_ bound: Int) -> Int { random.next(bound) }
        for round in 0..<500 {
            var table = SampleTable()
            table.timeToSample = (0..<next(6)).map { _ in
                TimeToSampleEntry(count: UInt32([0, 1, 2, 30, 1_000_000][next(5)]), delta: UInt32([0, 1, 512, 600, 601, 1001][next(6)]))
            }
            let counted = table.timeToSample.filter { $0.count > 0 }
            var perDelta: [UInt32: UInt64] = [:]
            for entry in counted { perDelta[entry.delta, default: 0] += UInt64(entry.count) }
            let got = FrameDurations(table, timescale: 600)
            guard !counted.isEmpty else {
                #expect(got == nil, "round \(round)")
                continue
            }
            let nominal = perDelta.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key ?? 0
            let want = FrameDurations(timescale: 600, frameCount: table.timedSampleCount, nominal: nominal, minimum: counted.map(\.delta).min() ?? 0,
                                      maximum: counted.map(\.delta).max() ?? 0, zeroDurationFrames: perDelta[0] ?? 0)
            #expect(got == want, "round \(round): \(table.timeToSample)")
        }
    }

    @Test("on real movies, video frames are the presented samples in movie time, sorted, as mapping then sorting gives",
          .enabled(if: Locations.hasSharedSamples), arguments: realFiles.filter { $0.fileType == "MOV" })
    func videoFramesOnRealMovies(_ fact: SampleFact) throws {
        let url = try #require(fact.url)
        let movie = try #require(MediaFile.inspect(path: url.path).movie)
        let video = try #require(movie.primaryVideoTrack, "\(fact.file): no video track")
        let scale = Double(video.mediaTimescale)
        let expected = video.sampleTable.timing().compactMap { frame in
            movie.movieSeconds(forMediaTime: frame.presentation, in: video).map { (start: $0, duration: Double(frame.duration) / scale) }
        }.sorted { $0.start < $1.start }
        let got = movie.videoFrames()
        #expect(!got.isEmpty, "\(fact.file)")
        #expect(got.map(\.start) == expected.map(\.start) && got.map(\.duration) == expected.map(\.duration), "\(fact.file)")
    }

    /// The items and warnings a check reads: metadata items only, against every item filtered.
    static func expectMetadataItems(_ payload: ByteReader, _ label: String) throws {
        let full = try HEIFStructure.parse(payload)
        let lean = try HEIFStructure.parse(payload, metadataItemsOnly: true)
        #expect(lean.items == full.items.filter { HEIFStructure.isMetadataItem($0.type) }, "\(label)")
        #expect(lean.warnings.map(\.description) == full.warnings.map(\.description), "\(label)")
        #expect(lean.xmpItem == full.xmpItem && lean.items.first { $0.type == "Exif" } == full.items.first { $0.type == "Exif" }, "\(label)")
    }

    @Test("HEIF items read for a check are the metadata items of a full read, whatever order and number the tables come in")
    func metadataItems() throws {
        let first: [(id: UInt16, type: String, contentType: String?)] = [(1, "hvc1", nil), (2, "Exif", nil), (3, "mime", "application/rdf+xml"), (4, "grid", nil)]
        // A later iinf that says otherwise of items 1 and 2.
        let second: [(id: UInt16, type: String, contentType: String?)] = [(1, "Exif", nil), (2, "hvc1", nil), (3, "mime", "application/rdf+xml")]
        let locations: [UInt16] = [1, 2, 3, 4, 5, 2]
        let layouts: [(String, [UInt8])] = [
            ("iinf, iloc", Self.iinf(first) + Self.iloc(locations)),
            ("iloc, iinf", Self.iloc(locations) + Self.iinf(first)),
            ("iinf, iloc, iinf", Self.iinf(first) + Self.iloc(locations) + Self.iinf(second)),
            ("iinf, iloc, iinf, iloc", Self.iinf(first) + Self.iloc(locations) + Self.iinf(second) + Self.iloc([4, 1])),
            ("iloc with unread bytes", Self.iinf(first) + Self.iloc(locations, trailing: 3)),
            ("no iinf", Self.iloc(locations)),
            ("no iloc", Self.iinf(first)),
        ]
        for (label, boxes) in layouts {
            try Self.expectMetadataItems(ByteReader([0, 0, 0, 0] + BoxBuilder.hdlr("pict") + boxes, path: "meta"), label)
        }
    }

    @Test("on real HEIF files, the items read for a check are the metadata items of a full read",
          .enabled(if: Locations.hasSharedSamples), arguments: realFiles.filter { $0.fileType != "MOV" })
    func metadataItemsOnRealHEIF(_ fact: SampleFact) throws {
        try Self.expectMetadataItems(try Self.metaPayload(fact), fact.file)
    }

    /// The payload of a real HEIF file's top-level `meta` box.
    static func metaPayload(_ fact: SampleFact) throws -> ByteReader {
        let url = try #require(fact.url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let layout = try TopLevelLayout.read(from: MemorySource(bytes))
        let meta = try #require(layout.boxes.first { $0.type == "meta" && $0.end <= Int64(bytes.count) })
        return ByteReader(Array(bytes[Int(meta.payloadOffset)..<Int(meta.end)]), base: meta.payloadOffset, path: "meta")
    }

    @Test("on real HEIF files, items are what a dictionary of infe entries (the last of an ID kept) joined to iloc gives",
          .enabled(if: Locations.hasSharedSamples), arguments: realFiles.filter { $0.fileType != "MOV" })
    func itemsOnRealHEIF(_ fact: SampleFact) throws {
        let payload = try Self.metaPayload(fact)
        let heif = try HEIFStructure.parse(payload)
        // The definition: every infe entry by ID, a later one replacing an earlier one.
        var body = payload
        try MetaHeader.skip(&body)
        var infos: [UInt32: (type: FourCC, contentType: String?)] = [:]
        var locations: [(id: UInt32, offsets: [UInt64])] = []
        for (box, child) in try BoxIterator.all(body) {
            if box.type == "iinf" {
                var header = child
                let version = try header.u8()
                try header.skip(3 + (version == 0 ? 2 : 4))
                for (entryBox, var entry) in try BoxIterator.all(try header.rest()) where entryBox.type == "infe" {
                    let entryVersion = try entry.u8()
                    try entry.skip(3)
                    guard entryVersion >= 2 else { continue }
                    let id = entryVersion == 2 ? UInt32(try entry.u16()) : try entry.u32()
                    try entry.skip(2)
                    let type = try entry.fourCC()
                    _ = try entry.cString()
                    infos[id] = (type, type == "mime" && !entry.isAtEnd ? try entry.cString() : nil)
                }
            } else if box.type == "iloc" {
                var reader = child
                locations = try ItemLocationBox(parsing: &reader).locations.map { ($0.id, $0.extents.map(\.offset)) }
            }
        }
        #expect(!infos.isEmpty, "\(fact.file): no infe entry")
        let located = Set(locations.map(\.id))
        let expected = locations.map { ($0.id, infos[$0.id]?.type ?? FourCC(0), infos[$0.id]?.contentType, $0.offsets) }
            + infos.keys.sorted().filter { !located.contains($0) }.map { ($0, infos[$0]?.type ?? FourCC(0), infos[$0]?.contentType, [UInt64]()) }
        #expect(heif.items.map(\.id) == expected.map(\.0), "\(fact.file)")
        #expect(heif.items.map(\.type) == expected.map(\.1), "\(fact.file)")
        #expect(heif.items.map(\.contentType) == expected.map(\.2), "\(fact.file)")
        #expect(heif.items.map { Array($0.extents.map(\.offset)) } == expected.map(\.3), "\(fact.file)")
    }

    @Test("the check's header scan (BoxTable.headersAreSound) passes every real moov and meta, and never passes what the display walk refuses: real files, hostile structures, byte flips")
    func headerScanAgreesWithWalk() throws {
        var payloads: [(ByteReader, String)] = []
        var files = [Locations.samples.appendingPathComponent("camera-pair.mov"), Locations.samples.appendingPathComponent("software-pair.mov")]
        files += SharedSamples.mediaFiles().filter { ["mov", "mp4", "heic", "heif"].contains($0.pathExtension.lowercased()) }
        for url in files {
            let bytes = try [UInt8](Data(contentsOf: url))
            let hostile = HostileStructure.allCases.map { ("\($0)", $0.apply(to: bytes, count: 40)) }
            for (label, variant) in [("as is", bytes)] + hostile {
                let source = MemorySource(variant)
                guard let layout = try? TopLevelLayout.read(from: source),
                      let box = layout.boxes.first(where: { ($0.type == "moov" || $0.type == "meta") && $0.end <= source.size }),
                      var payload = try? source.payload(of: box, path: "\(box.type)") else { continue }
                if box.type == "meta" { try payload.skip(4) }
                payloads.append((payload, "\(url.lastPathComponent) \(label)"))
                if label == "as is" { #expect(BoxTable.headersAreSound(payload, depth: 1), "\(url.lastPathComponent)") }
            }
        }
        #expect(payloads.count > 20)
        var random = Seeded(state: 25)
        var refused = 0
        for (payload, label) in payloads {
            // Each payload as it is and with bytes flipped in its first kilobyte of headers.
            let own = Array(payload.bytes[payload.position..<payload.end])
            var variants = [own]
            for _ in 0..<20 {
                var flipped = own
                let span = min(flipped.count, 1024)
                guard span > 0 else { break }
                for _ in 0..<3 { flipped[random.next(span)] ^= UInt8(1 + random.next(255)) }
                variants.append(flipped)
            }
            for bytes in variants {
                let reader = ByteReader(bytes, base: payload.offset, path: "moov")
                let walked = (try? BoxTable.tree(reader, depth: 1)) != nil
                if !walked {
                    refused += 1
                    #expect(!BoxTable.headersAreSound(reader, depth: 1), "\(label): the scan passed what the walk refuses")
                    #expect(throws: ParseError.self) { try BoxTable.checkStructure(reader, depth: 1) }
                }
            }
        }
        #expect(refused > 50, "the flips reach the walk's refusals: \(refused)")
    }
}
