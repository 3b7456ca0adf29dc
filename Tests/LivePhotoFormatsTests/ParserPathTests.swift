import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The parsers' cheaper paths (issue 12's speed work) held to the definitions they replace:
/// sibling indexes counted in place, the XMP item found by a byte search, HEIF items joined to
/// their `infe` entries with one look-up each.
struct ParserPathTests {
    /// A fixed pseudo-random sequence (a linear congruential generator), so a failure repeats.
    struct Seeded {
        var state: UInt64
        /// The next number in `0..<bound`.
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
    }

    /// A fixed sequence over twelve types (more than the eight counted in place).
    static func childTypes(count: Int, seed: UInt64) -> [String] {
        let types = ["trak", "mvhd", "udta", "meta", "free", "skip", "uuid", "wide", "iods", "ctab", "pnot", "clip"]
        var random = Seeded(state: seed)
        return (0..<count).map { _ in types[random.next(types.count)] }
    }

    @Test("a child's path names its index among same-type siblings, past the eight types counted in place")
    func siblingIndexes() throws {
        for seed in UInt64(1)...40 {
            let types = Self.childTypes(count: 60, seed: seed)
            let bytes = types.flatMap { type in BoxBuilder.box(type, type == "uuid" ? [UInt8](repeating: 7, count: 16) : [1, 2]) }
            var iterator = BoxIterator(ByteReader(bytes, path: "moov"))
            var seen: [String: Int] = [:]
            var walked = 0
            while let (box, payload) = try iterator.next() {
                let type = types[walked]
                seen[type, default: 0] += 1
                let index = seen[type] ?? 0
                #expect(box.type == FourCC(text: type))
                #expect(payload.path == "moov/" + (index > 1 ? "\(type)[\(index)]" : type), "seed \(seed), child \(walked)")
                walked += 1
            }
            #expect(walked == types.count)
        }
    }

    /// A HEIF `meta` payload (after its box header) with `infe` entries (version 2) and `iloc`
    /// locations (version 0, 4-byte offsets and lengths, one extent each).
    static func meta(infos: [(id: UInt16, type: String, contentType: String?)], locations: [UInt16]) -> [UInt8] {
        [0, 0, 0, 0] + BoxBuilder.hdlr("pict") + iinf(infos) + iloc(locations)
    }

    static func iinf(_ infos: [(id: UInt16, type: String, contentType: String?)]) -> [UInt8] {
        let entries = infos.flatMap { info -> [UInt8] in
            var payload = BoxBuilder.u16(info.id) + BoxBuilder.u16(0) + BoxBuilder.fourCC(info.type) + [0]
            if let contentType = info.contentType { payload += Array(contentType.utf8) + [0] }
            return BoxBuilder.fullBox("infe", version: 2, payload)
        }
        return BoxBuilder.fullBox("iinf", BoxBuilder.u16(UInt16(infos.count)) + entries)
    }

    /// `trailing` bytes after the entries are left unread (a warning).
    static func iloc(_ locations: [UInt16], trailing: Int = 0) -> [UInt8] {
        let items = locations.enumerated().flatMap { index, id in
            BoxBuilder.u16(id) + BoxBuilder.u16(0) + BoxBuilder.u16(1) + BoxBuilder.u32(UInt32(100 * index)) + BoxBuilder.u32(10)
        }
        return BoxBuilder.fullBox("iloc", [0x44, 0x00] + BoxBuilder.u16(UInt16(locations.count)) + items + [UInt8](repeating: 0, count: trailing))
    }

    @Test("the XMP item is the first mime item whose content type contains rdf+xml, as a substring search finds it")
    func xmpItem() throws {
        let contentTypes = ["", "rdf+xml", "application/rdf+xml", "rdf+xm", "RDF+XML", "x-rdf+xmlz", "ééé/rdf+xml", "rdf", "application/xml"]
        for contentType in contentTypes {
            let payload = Self.meta(infos: [(1, "hvc1", nil), (2, "mime", contentType), (3, "uri ", "application/rdf+xml")], locations: [1, 2, 3])
            let heif = try HEIFStructure.parse(ByteReader(payload, path: "meta"))
            let expected = contentType.contains("rdf+xml") ? UInt32(2) : nil
            #expect(heif.xmpItem?.id == expected, "content type \(contentType)")
        }
        let two = try HEIFStructure.parse(ByteReader(Self.meta(
            infos: [(4, "mime", "text/plain"), (5, "mime", "application/rdf+xml"), (6, "mime", "application/rdf+xml")], locations: [4, 5, 6])))
        #expect(two.xmpItem?.id == 5)
    }

    @Test("HEIF items: located in iloc order with their entries (also when located twice), then unlocated entries by ID")
    func itemsJoinedToEntries() throws {
        let payload = Self.meta(infos: [(9, "Exif", nil), (5, "hvc1", nil), (3, "mime", "application/rdf+xml")], locations: [5, 7, 5, 3])
        let heif = try HEIFStructure.parse(ByteReader(payload))
        #expect(heif.items.map(\.id) == [5, 7, 5, 3, 9])
        #expect(heif.items.map(\.type) == ["hvc1", FourCC(0), "hvc1", "mime", "Exif"])
        #expect(heif.items.map(\.contentType) == [nil, nil, nil, "application/rdf+xml", nil])
        #expect(heif.items.map { $0.extents.map(\.offset) } == [[0], [100], [200], [300], []])
    }

    /// One child as a walk hands it out: everything a caller can see of it.
    struct Seen: Equatable {
        var box: Box
        var path: String
        var offset: Int64
        var remaining: Int
    }

    /// A container walked both ways: the list `all` returns, and `next` one child at a time.
    /// Each is the children seen, or the error that stopped it before any child was handed out
    /// (`all`) or after the children before it (`next`). The parsers' walk (`BoxIterator.walk`,
    /// one payload reader moved from child to child) is held to `all` here, on every container.
    static func walks(_ reader: ByteReader) -> (all: Result<[Seen], ParseError>, stepped: [Seen], steppedError: ParseError?) {
        func result(_ children: () throws -> [Seen]) -> Result<[Seen], ParseError> {
            do {
                return .success(try children())
            } catch {
                return .failure(error as? ParseError ?? ParseError(.invalidValue, "not a ParseError: \(error)", offset: -1))
            }
        }
        let all = result {
            try BoxIterator.all(reader).map { Seen(box: $0.box, path: $0.payload.path, offset: $0.payload.offset, remaining: $0.payload.remaining) }
        }
        let walked = result {
            var walk = try BoxIterator.walk(reader)
            var seen: [Seen] = []
            while let child = walk.next() {
                // What a parser reads moves the reader; the next child starts where its box does.
                seen.append(Seen(box: child.box(in: reader), path: walk.payload.path, offset: walk.payload.offset, remaining: walk.payload.remaining))
                _ = try? walk.payload.skip(walk.payload.remaining)
            }
            return seen
        }
        #expect(walked == all, "\(reader.path): the walk and all() differ")
        var iterator = BoxIterator(reader)
        var stepped: [Seen] = []
        do {
            while let (box, payload) = try iterator.next() {
                stepped.append(Seen(box: box, path: payload.path, offset: payload.offset, remaining: payload.remaining))
            }
            return (all, stepped, nil)
        } catch {
            return (all, stepped, error as? ParseError)
        }
    }

    /// Walks a container and every container below it both ways and holds them to each other.
    static func compareWalks(_ reader: ByteReader, depth: Int = 0) throws -> Int {
        let (all, stepped, error) = walks(reader)
        switch all {
        case .success(let children):
            #expect(error == nil, "\(reader.path): next() threw \(String(describing: error)) where all() did not")
            #expect(children == stepped, "\(reader.path)")
            var walked = children.count
            if depth < 8 {
                for (box, payload) in try BoxIterator.all(reader) where BoxTable.containers.contains(box.type) {
                    var inner = payload
                    if box.type == "meta" { try? MetaHeader.skip(&inner) }
                    walked += try compareWalks(inner, depth: depth + 1)
                }
            }
            return walked
        case .failure(let failure):
            #expect(failure == error, "\(reader.path): all() and next() stop at different errors")
            return 0
        }
    }

    @Test("a damaged header late in a container stops all() before any child is handed out, with its offset and path")
    func lateDamage() throws {
        let bytes = BoxBuilder.box("free", [1, 2]) + BoxBuilder.u32(100) + BoxBuilder.fourCC("trak") + [0, 0, 0, 0]
        let reader = ByteReader(bytes, base: 1000, path: "moov")
        #expect(throws: ParseError.self) { try BoxIterator.all(reader) }
        let (all, stepped, error) = Self.walks(reader)
        #expect(stepped.map(\.path) == ["moov/free"])
        let thrown = try #require(error)
        #expect(thrown.offset == 1010)
        #expect(thrown.path == "moov/trak")
        #expect(all == .failure(thrown))
    }

    static var realFiles: [SampleFact] {
        SampleFact.load().filter { ["MOV", "HEIC", "HEIF", "AVIF"].contains($0.fileType) }
    }

    @Test("on real movies and HEIF files, all() and next() give the same children in every container",
          .enabled(if: Locations.hasSharedSamples), arguments: realFiles)
    func walksAgreeOnRealFiles(_ fact: SampleFact) throws {
        let url = try #require(fact.url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let layout = try TopLevelLayout.read(from: MemorySource(bytes))
        var walked = 0
        for box in layout.boxes where box.type == "moov" || box.type == "meta" {
            guard box.end <= Int64(bytes.count) else { continue }
            var reader = ByteReader(Array(bytes[Int(box.payloadOffset)..<Int(box.end)]), base: box.payloadOffset, path: "\(box.type)")
            if box.type == "meta" { try MetaHeader.skip(&reader) }
            walked += try Self.compareWalks(reader)
        }
        #expect(walked > 0, "\(fact.file): no container walked")
    }

    @Test("on real movies, the track accessors give what their definitions over declared keys and video tracks give",
          .enabled(if: Locations.hasSharedSamples), arguments: realFiles.filter { $0.fileType == "MOV" })
    func trackAccessorsOnRealMovies(_ fact: SampleFact) throws {
        let url = try #require(fact.url)
        let movie = try #require(MediaFile.inspect(path: url.path).movie)
        for track in movie.tracks {
            #expect(track.declaresStillImageTime == track.declaredKeys.contains { $0.key == LivePhotoKeys.stillImageTime })
        }
        let videos = movie.tracks.filter(\.isVideo)
        #expect(movie.primaryVideoTrack?.id == (videos.first { $0.flags & 1 != 0 } ?? videos.first)?.id)
        #expect(movie.videoTrackIDs == videos.map(\.id))
        #expect(movie.timedMetadataTrackCount == movie.tracks.filter(\.isTimedMetadata).count)
        #expect(movie.stillImageTimeTracks.map(\.id) == movie.tracks.filter { $0.declaredKeys.contains { $0.key == LivePhotoKeys.stillImageTime } }.map(\.id))
        #expect((movie.stillImageTime != nil) == (fact.stillImageTimeValue != nil))
    }

    // Seventh pass (issue 12): the readers' fixed-width loads, the walk's plain-data headers,
    // HEIF item tables without dictionaries, MakerNote values decoded on demand.

    @Test("fixed-width reads, integers of any width and C strings give what a byte-by-byte definition gives, and stop at the end")
    func readsMatchTheirDefinition() throws {
        var random = Seeded(state: 12345)
        func next(_ bound: Int) -> Int { random.next(bound) }
        for round in 0..<300 {
            let bytes = (0..<(1 + next(40))).map { _ in next(4) == 0 ? UInt8(0) : UInt8(truncatingIfNeeded: next(256)) }
            let start = next(bytes.count + 1)
            // A reader on a window of the bytes, as a child box's payload is.
            var outer = ByteReader(bytes, base: 500, path: "moov")
            try outer.skip(start)
            var reader = try outer.rest()
            var position = start
            func expected(_ width: Int) -> UInt64? {
                guard position + width <= bytes.count else { return nil }
                return bytes[position..<(position + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            for _ in 0..<12 {
                let width = [1, 2, 4, 8, 3, 5, 6, 7, 0][next(9)]
                // Every width also through `uint`, which loads the common ones at once.
                let generic = next(2) == 0
                let before = reader.position
                if width == 0 {
                    let stop = bytes[position...].firstIndex(of: 0) ?? bytes.count
                    let text = try reader.cString()
                    #expect(text == String(decoding: bytes[position..<stop], as: UTF8.self), "round \(round)")
                    position = min(stop + 1, bytes.count)
                    #expect(reader.position == position)
                    continue
                }
                let want = expected(width)
                let got: UInt64?
                switch generic ? 0 : width {
                case 1: got = try? UInt64(reader.u8())
                case 2: got = try? UInt64(reader.u16())
                case 4: got = try? UInt64(reader.u32())
                case 8: got = try? reader.u64()
                default: got = try? reader.uint(width)
                }
                #expect(got == want, "round \(round), \(width) bytes at \(position)")
                if want == nil {
                    #expect(reader.position == before, "a read past the end moved the reader")
                } else {
                    position += width
                }
            }
        }
    }

    @Test("a path names every box above a reader, below a fixed text or none; setting an empty path clears it")
    func readerPaths() throws {
        let inner = BoxBuilder.box("mdia", BoxBuilder.box("minf", [1]))
        let bytes = BoxBuilder.box("trak", [9]) + BoxBuilder.box("trak", inner)
        for (text, prefix) in [("moov", "moov/"), ("", "")] {
            let list = try BoxIterator.all(ByteReader(bytes, path: text))
            let (_, second) = try #require(Array(list).last)
            let (_, mdia) = try #require(Array(try BoxIterator.all(second)).first)
            let (_, minf) = try #require(Array(try BoxIterator.all(mdia)).first)
            #expect(second.path == prefix + "trak[2]")
            #expect(minf.path == prefix + "trak[2]/mdia/minf")
            var renamed = minf
            renamed.path = ""
            #expect(renamed.path == "")
            var damaged = minf
            do {
                _ = try damaged.u32()
                Issue.record("a 4-byte read of a 1-byte payload did not throw")
            } catch let error as ParseError {
                #expect(error.path == prefix + "trak[2]/mdia/minf")
            }
        }
    }

    @Test("paths of readers nested 1 to 9 deep, walked by all(), next() and walk(), below a text, a sub-reader or none; errors at every depth")
    func deepPaths() throws {
        // Level k holds a `free` box and then two `skip` boxes; the second `skip` holds level k+1.
        let depth = 9
        var bytes: [UInt8] = [0xEE]
        for _ in 0..<depth {
            bytes = BoxBuilder.box("free", []) + BoxBuilder.box("skip", [1]) + BoxBuilder.box("skip", bytes)
        }
        for (text, prefix) in [("moov", "moov/"), ("", ""), ("meta/item[3] Exif", "meta/item[3] Exif/")] {
            for way in ["all", "next", "walk"] {
                var reader = ByteReader(bytes, base: 100, path: text)
                var expected = prefix.dropLast(prefix.isEmpty ? 0 : 1).description
                for level in 1...depth {
                    var children: [(box: Box, payload: ByteReader)] = []
                    switch way {
                    case "next":
                        var iterator = BoxIterator(reader)
                        while let child = try iterator.next() { children.append(child) }
                    case "walk":
                        // The walk's reader copied at each child: the copy keeps that child's payload and path.
                        var walk = try BoxIterator.walk(reader)
                        while let child = walk.next() { children.append((child.box(in: reader), walk.payload)) }
                    default:
                        children = Array(try BoxIterator.all(reader))
                    }
                    #expect(children.map(\.box.type) == ["free", "skip", "skip"], "level \(level)")
                    expected += (expected.isEmpty ? "" : "/") + "skip[2]"
                    let next = try #require(children.last).payload
                    #expect(next.path == expected, "level \(level), \(way)")
                    #expect(children[0].payload.path == expected.replacingOccurrences(of: "skip[2]", with: "free", options: .backwards,
                                                                                      range: expected.range(of: "skip[2]", options: .backwards)))
                    // A sub-reader keeps the path; an error names it.
                    var sub = next
                    sub = try sub.rest()
                    #expect(sub.path == expected)
                    var damaged = children[1].payload
                    do {
                        _ = try damaged.u32()
                        Issue.record("a 4-byte read of a 1-byte payload did not throw")
                    } catch let error as ParseError {
                        #expect(error.path == expected.dropLast("skip[2]".count) + "skip", "level \(level)")
                    }
                    reader = next
                }
                #expect(try reader.u8() == 0xEE)
            }
        }
        // A header that runs past its parent, deep down: the error names the box where it is.
        var damaged: [UInt8] = [0, 0, 0, 99] + Array("bad ".utf8)
        for _ in 0..<5 { damaged = BoxBuilder.box("skip", damaged) }
        var reader = ByteReader(damaged, path: "moov")
        for _ in 0..<5 { reader = try #require(Array(try BoxIterator.all(reader)).first).payload }
        #expect(throws: ParseError.self) { try BoxIterator.all(reader) }
        do {
            _ = try BoxIterator.all(reader)
        } catch let error as ParseError {
            #expect(error.path == "moov/skip/skip/skip/skip/skip/bad ")
        }
    }

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

/// The header scan's switch of container codes is the box table's list.
struct BoxTableTests {
    @Test("BoxTable.descends is true for exactly the containers and stsd")
    func descendsMatchesContainers() {
        for code in BoxTable.containers.map(\.value) + [FourCC("stsd").value] { #expect(BoxTable.descends(code), "\(String(code, radix: 16))") }
        for other in ["mdat", "free", "stco", "hdlr", "keys", "mvhd", "tkhd", "iinf", "iprp", "ftyp", "uuid"] {
            #expect(!BoxTable.descends(FourCC(text: other).value), "\(other)")
        }
        #expect(BoxTable.containers.count == 14)
    }
}
