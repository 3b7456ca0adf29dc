import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Value decoding, the MakerNote decoder, format detection and our own generated samples.
struct StillAndValueTests {
    @Test("an XMP packet is read and edited in UTF-8 or UTF-16, told by its first bytes; an encoding declaration saying otherwise is left out")
    func xmpEncodings() throws {
        func packet(declaring encoding: String?) -> String {
            let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
            return declaration + """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                 GCamera:MotionPhoto="1" GCamera:MotionPhotoPresentationTimestampUs="733000"><dc:source>Caf\u{E9} \u{1F4F7}</dc:source>
                </rdf:Description></rdf:RDF></x:xmpmeta>
                """
        }
        let camera = XMPPacket.cameraNamespace, dc = "http://purl.org/dc/elements/1.1/"
        let expected = try XMPPacket.parse(Array(packet(declaring: nil).utf8), base: 0, path: "APP1 XMP")
        #expect(expected.value(camera, "MotionPhoto") == "1")
        #expect(expected.value(camera, "MotionPhotoPresentationTimestampUs") == "733000")
        #expect(expected.value(dc, "source") == "Caf\u{E9} \u{1F4F7}")
        func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
            (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + text.utf16.flatMap { unit in
                bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        }
        let encoded: [(String, [UInt8])] = [
            ("UTF-8 with a byte order mark", [0xEF, 0xBB, 0xBF] + Array(packet(declaring: nil).utf8)),
            ("UTF-8 declaring ISO-8859-1", Array(packet(declaring: "ISO-8859-1").utf8)),
            ("UTF-16LE", utf16(packet(declaring: nil), bigEndian: false)),
            ("UTF-16BE declaring UTF-16", utf16(packet(declaring: "UTF-16"), bigEndian: true)),
        ]
        for (name, bytes) in encoded {
            #expect(try XMPPacket.parse(bytes, base: 0, path: "APP1 XMP") == expected, "\(name)")
        }
        // Not XML in any of them: an error, not an empty packet.
        #expect(throws: ParseError.self) { try XMPPacket.parse(Array("<x:xmpmeta>".utf8), base: 0, path: "APP1 XMP") }
        // The editor reads them as the reader does and writes UTF-8: removing the motion-photo
        // fields from the UTF-16 packet gives what removing them from the UTF-8 one gives.
        let fromUTF8 = try XMPEditor.removingMotionPhoto(Array(packet(declaring: nil).utf8), path: "APP1 XMP")
        let fromUTF16 = try XMPEditor.removingMotionPhoto(utf16(packet(declaring: "UTF-16"), bigEndian: false), path: "APP1 XMP")
        #expect(fromUTF16.bytes == fromUTF8.bytes)
        #expect(fromUTF16.removed == fromUTF8.removed && !fromUTF8.removed.isEmpty)
        let edited = try XMPPacket.parse(fromUTF16.bytes, base: 0, path: "APP1 XMP")
        #expect(edited.value(camera, "MotionPhoto") == nil)
        #expect(edited.value(dc, "source") == "Caf\u{E9} \u{1F4F7}")
    }

    @Test("QuickTime well-known types decode by their declared width")
    func wellKnownTypes() {
        #expect(WellKnownType.decode([0xFF], type: WellKnownType.int8) == .signed(-1))
        #expect(WellKnownType.decode([0xFF, 0xFE], type: WellKnownType.signedBE) == .signed(-2))
        #expect(WellKnownType.decode([0x80, 0, 0], type: WellKnownType.signedBE) == .signed(-8_388_608))
        #expect(WellKnownType.decode([0xFF, 0xFE], type: WellKnownType.unsignedBE) == .unsigned(0xFFFE))
        #expect(WellKnownType.decode([0, 0, 0, 0, 0, 0, 1, 0], type: WellKnownType.int64) == .signed(256))
        #expect(WellKnownType.decode([0x3F, 0x80, 0, 0], type: WellKnownType.float32) == .float(1))
        #expect(WellKnownType.decode([0x40, 0, 0, 0, 0, 0, 0, 0], type: WellKnownType.float64) == .float(2))
        #expect(WellKnownType.decode([0, 0x41, 0, 0x42], type: WellKnownType.utf16) == .string("AB"))
        #expect(WellKnownType.decode(Array("é".utf8), type: WellKnownType.utf8) == .string("é"))
        // A width that does not fit the type stays raw, so a checker can say so.
        #expect(WellKnownType.decode([0xFF, 0xFF], type: WellKnownType.int8) == .data([0xFF, 0xFF]))
        #expect(WellKnownType.decode([1, 2, 3, 4, 5], type: WellKnownType.signedBE) == .data([1, 2, 3, 4, 5]))
    }

    /// A MakerNote: header, big-endian IFD, values past 4 bytes stored after it (offsets from the MakerNote start).
    static func makerNote(entries: [(UInt16, UInt16, UInt32, [UInt8])]) -> [UInt8] {
        let header = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
        var table = BoxBuilder.u16(UInt16(entries.count))
        var tail: [UInt8] = []
        let tailStart = header.count + 2 + 12 * entries.count + 4
        for (tag, type, count, value) in entries {
            table += BoxBuilder.u16(tag) + BoxBuilder.u16(type) + BoxBuilder.u32(count)
            if value.count <= 4 {
                table += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                table += BoxBuilder.u32(UInt32(tailStart + tail.count))
                tail += value
            }
        }
        return header + table + BoxBuilder.u32(0) + tail
    }

    @Test("MakerApple: every entry decoded, values out of line read from the MakerNote's own start")
    func makerApple() throws {
        let identifier = Array("ABCDEF01-2345-6789-ABCD-EF0123456789".utf8) + [0]
        let bytes = Self.makerNote(entries: [
            (0x0001, 9, 1, BoxBuilder.u32(14)),
            (0x0008, 10, 1, BoxBuilder.u32(UInt32(bitPattern: -1)) + BoxBuilder.u32(4)),
            (0x0011, 2, UInt32(identifier.count), identifier),
            (0x0099, 3, 2, BoxBuilder.u16(7) + BoxBuilder.u16(8)),
        ])
        let note = try AppleMakerNote.read(bytes, base: 1000, path: "MakerApple")
        #expect(note.entries.count == 4)
        #expect(note.entry(0x0001)?.value == .integers([14]))
        #expect(note.entry(0x0008)?.value == .rationals([-0.25]))
        #expect(note.contentIdentifier == "ABCDEF01-2345-6789-ABCD-EF0123456789")
        #expect(note.entry(0x0099)?.name == nil)
        #expect(note.entry(0x0099)?.value == .integers([7, 8]))
    }

    @Test("MakerApple: a value offset outside the MakerNote is an error at the entry")
    func makerAppleBadOffset() throws {
        var bytes = Self.makerNote(entries: [(0x0011, 2, 37, [UInt8](repeating: 0x41, count: 37))])
        bytes.replaceSubrange(24..<28, with: BoxBuilder.u32(0xFFFF))
        #expect(throws: ParseError.self) { try AppleMakerNote.read(bytes, base: 500, path: "MakerApple") }
        do {
            _ = try AppleMakerNote.read(bytes, base: 500, path: "MakerApple")
        } catch let error as ParseError {
            #expect(error.offset == 516)
            #expect(error.path == "MakerApple")
        }
    }

    @Test("formats are recognised from content")
    func detection() {
        #expect(FileFormat.detect([0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(FileFormat.detect(BoxBuilder.ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(FileFormat.detect(BoxBuilder.ftyp("mif1", ["mif1", "avif"])) == .avif)
        #expect(FileFormat.detect(BoxBuilder.ftyp("qt  ", ["qt  "])) == .quickTime)
        #expect(FileFormat.detect(BoxBuilder.ftyp("isom", ["isom", "mp42"])) == .mp4)
        #expect(FileFormat.detect(BoxBuilder.box("wide", []) + BoxBuilder.box("mdat", [])) == .quickTime)
        #expect(FileFormat.detect([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A]) == .png)
        #expect(FileFormat.detect(Array("hello world, not media".utf8)) == .unknown)
        // The brand list ends where the box does, not where the bytes do; a late brand counts;
        // a box too short for its brands, or cut off, is nothing.
        let mif1 = BoxBuilder.ftyp("mif1", ["mif1"])
        #expect(FileFormat.detect(mif1 + Array("avif".utf8)) == .heif)
        #expect(FileFormat.detect(BoxBuilder.ftyp("mif1", Array(repeating: "mif1", count: 40) + ["avif"])) == .avif)
        #expect(FileFormat.detect(BoxBuilder.ftyp("isom", Array(repeating: "mp42", count: 40) + ["qt  "])) == .quickTime)
        #expect(FileFormat.detect(Array(mif1.prefix(15))) == .unknown)
        #expect(FileFormat.detect(BoxBuilder.u32(12) + Array("ftypheic".utf8) + BoxBuilder.u32(0)) == .unknown)
        #expect(FileFormat.detect(Array("GIF89a".utf8)) == .gif && FileFormat.detect([0x4D, 0x4D, 0x00, 0x2A]) == .tiff)
        #expect(FileFormat.detect(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp && FileFormat.detect(Array("RIFF".utf8)) == .unknown)
    }

    @Test("our camera-style sample: identifier in both files, -1 one tick after an empty edit, at the middle frame")
    func generatedCameraPair() throws {
        let still = MediaFile.inspect(path: Locations.samples.appendingPathComponent("camera-pair.jpg").path)
        let movie = MediaFile.inspect(path: Locations.samples.appendingPathComponent("camera-pair.mov").path)
        #expect(still.error == nil && movie.error == nil)
        #expect(still.contentIdentifier != nil)
        #expect(still.contentIdentifier == movie.contentIdentifier)
        let time = try #require(movie.movie?.stillImageTime)
        #expect(time.value == -1)
        #expect(time.duration == 1)
        #expect(time.hasEditList)
        let frames = try #require(movie.movie?.frameDurations)
        let seconds = try #require(time.seconds)
        let middleFrame = Double(frames.frameCount / 2) * Double(frames.nominal) / Double(frames.timescale)
        #expect(abs(seconds - middleFrame) < 0.001)
    }

    @Test("our software-style sample: value 0, one frame long, no edit list")
    func generatedSoftwarePair() throws {
        let movie = try #require(MediaFile.inspect(path: Locations.samples.appendingPathComponent("software-pair.mov").path).movie)
        let time = try #require(movie.stillImageTime)
        #expect(time.value == 0)
        #expect(!time.hasEditList)
        #expect(time.seconds == 0)
        let frame = try #require(movie.frameDurations.flatMap { $0.seconds($0.nominal) })
        #expect(abs((time.durationSeconds ?? 0) - frame) < 0.002)
    }

    @Test("plain ffmpeg output has no Live Photo markers")
    func plainFiles() {
        let still = MediaFile.inspect(path: Locations.samples.appendingPathComponent("plain-frame.jpg").path)
        let movie = MediaFile.inspect(path: Locations.samples.appendingPathComponent("plain-clip.mov").path)
        #expect(still.error == nil && movie.error == nil)
        #expect(still.contentIdentifier == nil && still.still?.makerNote == nil)
        #expect(movie.contentIdentifier == nil && movie.movie?.stillImageTime == nil)
    }

    @Test("reading a movie touches box headers, moov and the timed samples, never the rest of mdat")
    func readsOnlyMetadata() throws {
        let bytes = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let source = RecordingSource(bytes)
        let file = MediaFile.inspect(source: source, path: "camera-pair.mov")
        let movie = try #require(file.movie)
        let mdat = try #require(movie.boxes.first { $0.type == "mdat" })
        let moov = try #require(movie.boxes.first { $0.type == "moov" })
        let timed = movie.tracks.flatMap(\.timedMetadata).map { Int64($0.sample.offset)..<Int64($0.sample.offset) + Int64($0.sample.size) }
        for range in source.ranges {
            let insideMdatPayload = range.overlaps(mdat.payloadOffset..<mdat.end)
            if insideMdatPayload {
                // Allowed: the timed samples, and the 32 bytes at the start that recognise the format.
                #expect(timed.contains(range) || range.lowerBound == 0 && range.count <= 32, "read \(range) inside mdat")
            }
        }
        let budget = moov.size + 64 * Int64(movie.boxes.count) + timed.reduce(0) { $0 + Int64($1.count) } + 64
        #expect(file.stats.bytesRead <= budget)
        #expect(file.stats.bytesRead < Int64(bytes.count) / 2)
    }

    @Test("reading a JPEG: one read per segment header, APP1 payloads after a 6-byte probe, the last bytes for the EOI; never the scan")
    func jpegReads() throws {
        let bytes = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg")))
        let source = RecordingSource(bytes)
        let file = MediaFile.inspect(source: source, path: "camera-pair.jpg")
        let jpeg = try #require(file.still?.jpeg)
        let scan = try #require(jpeg.segments.last { $0.marker == 0xDA })
        let scanStart = scan.payloadOffset + Int64(scan.length)
        let tail = Int64(bytes.count) - 64
        for range in source.ranges {
            #expect(range.upperBound <= scanStart || range.lowerBound >= tail, "read \(range) inside the scan (which starts at \(scanStart))")
        }
        // The format probe, SOI, then one read per segment (marker and length together; an APPn
        // with its payload or label probe in a second read, an APP1 with its first 6 bytes and
        // then the rest), then the tail: no byte-by-byte walk. The tail's 64 bytes are asked
        // twice, by the Samsung trailer probe and by the EOI check (a file source serves the
        // second from the window the first filled: one system call). The first frame header's
        // five bytes (the picture's size) are one read more.
        let applications = jpeg.segments.filter { (0xE0...0xEF).contains($0.marker) }.count
        let app1 = jpeg.segments.filter { $0.marker == 0xE1 }.count
        #expect(jpeg.frameSize != nil)
        #expect(source.ranges.count <= 2 + (jpeg.segments.count - 1) + applications + app1 + 2 + 1, "\(source.ranges)")
        let tailReads = source.ranges.filter { $0 == (Int64(bytes.count) - 64)..<Int64(bytes.count) }
        #expect(tailReads.count == 2, "\(source.ranges)")
        // The Exif segment's TIFF bytes are read where they start: a read beginning 6 bytes into
        // its payload, as long as the rest of it.
        let exif = try #require(jpeg.segments.first { $0.label == "Exif" })
        #expect(source.ranges.contains(exif.payloadOffset + 6..<exif.payloadOffset + Int64(exif.length)), "\(source.ranges)")
    }

    @Test("a file source serves small reads from the window of the last one: the file's bytes, counted as asked, to its end; a file cut short says so")
    func fileSourceWindows() throws {
        var generator = SeededGenerator(seed: 12)
        let bytes = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-window-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(bytes).write(to: url)
        let source = try FileSource(path: url.path)
        var asked: Int64 = 0
        // Small reads inside and across windows, large ones, reads ending at the last byte.
        var reads: [(Int64, Int)] = [(0, 32), (28, 8), (4000, 200), (4090, 12), (9_990, 10), (9_999, 1), (100, 5_000), (0, 10_000), (5, 0)]
        for _ in 0..<300 {
            let offset = Int64.random(in: 0..<10_000, using: &generator)
            reads.append((offset, Int.random(in: 0...min(6_000, 10_000 - Int(offset)), using: &generator)))
        }
        for (offset, count) in reads {
            #expect(try source.read(at: offset, count: count) == Array(bytes[Int(offset)..<Int(offset) + count]), "\(offset) +\(count)")
            asked += Int64(count)
        }
        #expect(source.stats.bytesRead == asked)
        #expect(throws: ParseError.self) { try source.read(at: 9_999, count: 2) }

        // Cut to 5,000 bytes after opening: a small read whose window would pass the new end
        // still gets its bytes; one past the end is an error with its offset, not a crash.
        let cut = try FileSource(path: url.path)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 5_000)
        try handle.close()
        #expect(try cut.read(at: 4_000, count: 100) == Array(bytes[4_000..<4_100]))
        #expect(try cut.read(at: 4_990, count: 10) == Array(bytes[4_990..<5_000]))
        do {
            _ = try cut.read(at: 6_000, count: 10)
            Issue.record("a read past the cut end succeeded")
        } catch let error as ParseError {
            #expect(error.code == .truncated && error.offset == 6_000)
        }
    }

    @Test("reading a real camera movie reads a small fraction of it", .enabled(if: Locations.hasSharedSamples))
    func realReadBudget() throws {
        for name in ["LycheeOrg__Lychee/train.mov", "Bai-Mirror__pyheic_struct/apple.MOV", "LycheeOrg__Lychee/train.jpg", "perkeep__perkeep/ski-throne.heic"] {
            let url = try #require(SharedSamples.url(name))
            let file = MediaFile.inspect(path: url.path)
            #expect(file.stats.bytesRead * 20 < file.size, "\(name): read \(file.stats.bytesRead) of \(file.size)")
        }
    }

    @Test("a name read from a directory entry (raw bytes) is the string the generic conversion makes, ASCII or not")
    func namesFromRawBytes() {
        var generator = SeededGenerator(seed: 5)
        let pieces: [[UInt8]] = [Array("IMG_0001.HEIC".utf8), Array("é".utf8), Array("日本".utf8), [0xFF], [0x80], [0xC3], [0xE2, 0x80],
                                 [0xF4, 0x8F, 0xBE, 0x80], [0x7F], [0x20], Array("👩‍👧".utf8)]
        var names: [[UInt8]] = [[], Array("plain".utf8)]
        for _ in 0..<500 {
            names.append((0..<Int.random(in: 1...6, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator) ?? [] })
        }
        for name in names {
            let fromEntry = name.withUnsafeBytes { PathBytes.string($0) }
            #expect(fromEntry == PathBytes.string(name), "\(name)")
            #expect(Array(fromEntry.utf8) == Array(PathBytes.string(name).utf8), "\(name)")
        }
    }
}
