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
