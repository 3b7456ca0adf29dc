import Foundation
@testable import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Facts are values whose fields copies share until one of them changes (copy on write).
struct FileFactsTests {
    @Test("a copy of the facts is a value: changing a field of any kind (plain, @Indirect, @NotRecorded, nested) leaves the original as it was")
    func copiesAreValues() throws {
        let original = Example.everyField()
        let before = try sortedJSON(original)
        // Every field is read and set through the one dynamic-member subscript, so copy on write
        // holds for a field by its kind of storage, not by its name: one change of each kind.
        let changes: [(kind: String, change: (inout FileFacts) -> Void)] = [
            ("plain", { $0.path = "other.jpg" }), ("plain list", { $0.warnings.append(ParseError(.truncated, "more", offset: 0)) }),
            ("plain optional", { $0.identity?.inode = 3 }), ("@Indirect set to nil", { $0.motionPhoto = nil }),
            ("@Indirect changed inside", { $0.motionMovie?.videoTrackCount = 9 }), ("@Indirect list emptied", { $0.movie?.frames.removeAll() }),
        ]
        for (kind, change) in changes {
            var copy = original
            #expect(copy.sharesStorage(with: original))
            change(&copy)
            #expect(try sortedJSON(copy) != before, "changing a \(kind) field did not change the copy")
            // The same change made to facts no other value shares (no copy is made): the copy lost nothing.
            var alone = Example.everyField()
            change(&alone)
            #expect(try sortedJSON(copy) == sortedJSON(alone), "the copy made for a \(kind) field lost a field")
            #expect(copy.thumbnail == alone.thumbnail)
            #expect(try sortedJSON(original) == before, "changing the copy's \(kind) field changed the original")
            #expect(!copy.sharesStorage(with: original))
        }
        var copy = original
        copy.thumbnail = [1]
        #expect(original.thumbnail != [1] && copy.thumbnail == [1])
    }

    @Test("pairing's items hold the scan's facts themselves, not copies (a million files' facts are made once)")
    func itemsShareFacts() {
        let files = [Example.still("a/IMG_1.JPG"), Example.movie("b/IMG_1.MOV"), Example.still("c/IMG_2.JPG", identifier: nil),
                     Example.movie("c/IMG_2.MOV", identifier: nil), Example.still("d/IMG_3.JPG", identifier: "11111111-2222-3333-4444-555555555555")]
        let items = Pairing.items(files)
        let held = items.flatMap { item in [item.still, item.movie].compactMap { $0 } }
        #expect(held.count == files.count)
        for file in files {
            #expect(held.filter { $0.sharesStorage(with: file) }.count == 1, "\(file.path)")
        }
    }

    @Test("file name, folder, base name and extension agree with their definitions on String indices, on tricky paths")
    func nameParts() {
        // The definitions: the last slash and the name's last dot (not a leading one), found in the UTF-8 view.
        let slash = UInt8(ascii: "/"), period = UInt8(ascii: ".")
        func name(_ path: String) -> Substring { path.utf8.lastIndex(of: slash).map { path[path.utf8.index(after: $0)...] } ?? path[...] }
        let raw = PathBytes.string(Array("IMG_".utf8) + [0xE9, 0x2E, 0xFF])
        let paths = ["", "x", "/x", "x/", "/", "a/b/c.JPG", "a/.hidden", "a/.hidden.jpg", "noext", "a.b/c", "a.b/c.", ".", "dir/.", "..",
                     "é/É.HEIC", "a//b.mov", "shots/IMG_0001 (1).Jpeg", "日本/写真.MOV", raw, "d/" + raw, "a/b.tar.gz", "a/\u{301}b.\u{301}X"]
        for path in paths {
            let facts = FileFacts(path: path, format: .jpeg, kind: .still)
            let fileName = name(path)
            let dot = fileName.utf8.lastIndex(of: period).flatMap { $0 == fileName.startIndex ? nil : $0 }
            #expect(facts.fileName == String(fileName), "\(path)")
            #expect(facts.folder == (path.utf8.lastIndex(of: slash).map { String(path[..<$0]) } ?? ""), "\(path)")
            #expect(facts.baseName == String(dot.map { fileName[..<$0] } ?? fileName), "\(path)")
            #expect(facts.fileExtension == (dot.map { String(fileName[fileName.utf8.index(after: $0)...]).lowercased() } ?? ""), "\(path)")
            #expect(facts.formatsByExtension == FileFormat.byExtension[facts.fileExtension], "\(path)")
        }
        // The formats an extension promises, found on bytes, are the table's for every case of
        // every media extension, and nothing for near misses.
        for (text, formats) in FileFormat.byExtension {
            for variant in [text, text.uppercased(), text.prefix(1).uppercased() + text.dropFirst()] {
                #expect(FileFacts(path: "d/IMG_1." + variant, format: .jpeg, kind: .still).formatsByExtension == formats, "\(variant)")
            }
        }
        for near in ["jp", "jpgg", "mov ", "MOVmov", "he\u{301}ic", "movies", "m4", ""] {
            #expect(FileFacts(path: "d/IMG_1." + near, format: .jpeg, kind: .still).formatsByExtension == nil, "\(near)")
        }
    }
    @Test("a file read through the file source (small reads served from 4 KiB windows) gives the facts and read counts of the same bytes read from memory",
          .enabled(if: Locations.hasSharedSamples))
    func fileWindowsGiveTheBytes() throws {
        let samples = try #require(FileManager.default.enumerator(at: Locations.samples, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        let files = SharedSamples.mediaFiles() + samples.filter { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }
        #expect(files.count > 20)
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            for options in [InspectOptions.full, Checker(roots: []).inspectOptions] {
                let fromFile = MediaFile.inspect(path: url.path, options: options)
                let fromMemory = MediaFile.inspect(source: MemorySource(bytes), path: url.path, options: options)
                var (file, memory) = (FileFacts(fromFile), FileFacts(fromMemory))
                (file.identity, memory.identity) = (nil, nil)
                #expect(try sortedJSON(file) == sortedJSON(memory), "\(url.lastPathComponent)")
                #expect(fromFile.stats == fromMemory.stats, "\(url.lastPathComponent)")
            }
        }
    }

    /// Movies and motion photos of `../shared/samples`, and damaged copies of one movie whose
    /// chunk tables claim more entries than they hold.
    static func chunkTableFiles(into folder: URL) throws -> [String] {
        let real = SharedSamples.mediaFiles()
        var files = real.map(\.path)
        guard let movie = real.first(where: { $0.pathExtension.lowercased() == "mov" }) else { return files }
        let bytes = [UInt8](try Data(contentsOf: movie))
        let moov = try #require(TopLevelLayout.read(from: MemorySource(bytes)).boxes.first { $0.type == "moov" })
        // Each table of each track in turn: its entry count (after version and flags) made huge.
        for (type, countAt) in [("stco", 4), ("co64", 4), ("stsc", 4), ("stss", 4), ("stsz", 8)] {
            var from = Int(moov.offset)
            var copy = 0
            while let at = Self.find(Array(type.utf8), in: bytes, from: from), at < Int(moov.end) {
                var damaged = bytes
                let field = at + 4 + countAt
                damaged.replaceSubrange(field..<(field + 4), with: [0x0F, 0xFF, 0xFF, 0xF0])
                let url = folder.appendingPathComponent("\(type)-\(copy).mov")
                try Data(damaged).write(to: url)
                files.append(url.path)
                (from, copy) = (at + 4, copy + 1)
            }
        }
        return files
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].indices.first { bytes[$0...].starts(with: needle) }
    }

    @Test("facts read as a check reads (no chunk tables of unread tracks, HEIF metadata items only) equal facts read whole, damaged tables included",
          .enabled(if: Locations.hasSharedSamples))
    func factsWithoutChunkTables() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chunk-tables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.chunkTableFiles(into: folder)
        var skipped = 0, damaged = 0, imageItems = 0
        for path in files {
            var options = Checker(roots: []).inspectOptions
            #expect(!options.chunkTables && !options.allItems, "the check reads without chunk tables and image items")
            let lean = MediaFile.inspect(path: path, options: options)
            options.chunkTables = true
            options.allItems = true
            let full = MediaFile.inspect(path: path, options: options)
            #expect(try sortedJSON(FileFacts(lean)) == sortedJSON(FileFacts(full)), "\(path)")
            // The lean read kept the tables of the tracks whose samples it read, and only those.
            for (leanTrack, fullTrack) in zip(lean.movie?.tracks ?? [], full.movie?.tracks ?? []) {
                #expect(leanTrack.sampleTable.sampleCount == fullTrack.sampleTable.sampleCount, "\(path)")
                if leanTrack.timedMetadata.isEmpty && leanTrack.timedMetadataError == nil {
                    if !fullTrack.sampleTable.chunkOffsets.isEmpty { skipped += 1 }
                    #expect(leanTrack.sampleTable.chunkOffsets.isEmpty, "\(path) \(leanTrack.path)")
                } else {
                    #expect(leanTrack.sampleTable == fullTrack.sampleTable, "\(path) \(leanTrack.path)")
                }
            }
            imageItems += (full.still?.heif?.items.count ?? 0) - (lean.still?.heif?.items.count ?? 0)
            #expect(lean.still?.heif?.items.allSatisfy { ["Exif", "mime"].contains($0.type) } ?? true, "\(path)")
            if full.movie?.warnings.contains(where: { $0.message.contains("claims") }) == true || full.error?.message.contains("claims") == true { damaged += 1 }
        }
        #expect(skipped > 10, "too few tracks read without their tables")
        #expect(imageItems > 100, "too few HEIF image items left out")
        #expect(damaged > 5, "too few damaged tables")
    }

    @Test("a record claiming a time no reader gives (1e308 s, past 2^64 ticks) is implausible, so never printed as 'lasts inf s'")
    func impossibleTimes() {
        #expect(Example.movie { $0.durationSeconds = 6 }.implausibility == nil)
        #expect(Example.movie { $0.durationSeconds = 1e308 }.implausibility?.contains("no reader gives") == true)
        #expect(Example.movie { $0.frames = [MovieFacts.FrameRun(start: 1e300, duration: 0.03)] }.implausibility != nil)
        // Capture facts: a clock past year 9999, an infinite header time, a place off the globe,
        // a zone past 18 h, five quarter turns; the every-field example passes.
        #expect(Example.everyField().implausibility == nil)
        let changes: [(CaptureFacts) -> Void] = [
            { $0.time?.clock = 1e300 }, { $0.headerTime = .infinity }, { $0.latitude = 91 }, { $0.time?.offset = 90_000 }, { $0.quarterTurns = 5 },
            { $0.longitude = .nan },
        ]
        for change in changes {
            let facts = Example.everyField()
            let capture = CaptureFacts(time: facts.capture?.time, headerTime: facts.capture?.headerTime, make: nil, model: nil, software: nil,
                                       latitude: facts.capture?.latitude, longitude: facts.capture?.longitude, size: facts.capture?.size, quarterTurns: 1)
            change(capture)
            var changed = facts
            changed.capture = capture
            #expect(changed.implausibility != nil)
        }
        #expect(CaptureAgreement.span(.nan) == "an unknown time")
    }
}

/// Motion-photo numbers come from XMP as written: any 64-bit value. What the readers make of them
/// must pass the bounds records and cache rows are held to, and asking those bounds never traps.
struct MotionPhotoNumbersTests {
    /// `Samples/plain-frame.jpg` with an XMP segment holding `attributes` on its description.
    static func jpeg(_ attributes: String) throws -> [UInt8] {
        let frame = [UInt8](try Data(contentsOf: Locations.samples.appendingPathComponent("plain-frame.jpg")))
        let packet = Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:GCamera=\"http://ns.google.com/photos/1.0/camera/\" \(attributes)/></rdf:RDF></x:xmpmeta>").utf8)
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload + frame.dropFirst(2)
    }

    @Test("offsets from the end that are negative, huge or Int64.min give facts the records accept", arguments: [
        "GCamera:MicroVideo=\"1\" GCamera:MicroVideoVersion=\"1\" GCamera:MicroVideoOffset=\"-5\"",
        "GCamera:MicroVideo=\"1\" GCamera:MicroVideoOffset=\"-9223372036854775808\"",
        "GCamera:MotionPhoto=\"1\" GCamera:MotionPhotoOffset=\"9223372036854775807\"",
    ])
    func extremeOffsets(_ attributes: String) throws {
        let file = MediaFile.inspect(source: MemorySource(try Self.jpeg(attributes)), path: "x.jpg")
        let facts = FileFacts(file)
        #expect(facts.motionPhoto != nil, "\(attributes)")
        #expect(facts.implausibility == nil, "\(facts.implausibility ?? "")")
        for locator in facts.motionPhoto?.locators ?? [] {
            #expect(locator.offset.map { (0...facts.size).contains($0) } ?? true)
        }
    }

    @Test("HEIF transforms in their order (every sequence of up to three irot and imir) become a left-right mirror then clockwise quarter turns that show a 3×2 picture as Pillow's transposes, applied one transform at a time, show it")
    func heifTransformsComposed() throws {
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let single: [ImageProperties.Transform] = [.rotation(1), .rotation(2), .rotation(3), .mirror(0), .mirror(1)]
        var sequences: [[ImageProperties.Transform]] = [[]]
        for _ in 1...3 { sequences += sequences.filter { $0.count == sequences.last?.count }.flatMap { head in single.map { head + [$0] } } }
        // Each line: the transforms (r1..r3 anticlockwise irot, m0/m1 imir's axis), then ours.
        let lines = sequences.map { sequence -> String in
            let shown = CaptureFacts.shown(sequence)
            let names = sequence.map { transform -> String in
                switch transform { case .rotation(let turns): return "r\(turns)"; case .mirror(let axis): return "m\(axis)" }
            }
            return (names.isEmpty ? "-" : names.joined(separator: ",")) + " \(shown.turns) \(shown.mirrored ? 1 : 0)"
        }
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-transforms-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: list) }
        try Data(lines.joined(separator: "\n").utf8).write(to: list)
        let script = """
        import sys
        from PIL import Image
        picture = Image.new('L', (3, 2)); picture.putdata([1, 2, 3, 4, 5, 6])
        steps = {'r1': Image.Transpose.ROTATE_90, 'r2': Image.Transpose.ROTATE_180, 'r3': Image.Transpose.ROTATE_270,
                 'm0': Image.Transpose.FLIP_LEFT_RIGHT, 'm1': Image.Transpose.FLIP_TOP_BOTTOM}
        wrong = []
        for line in open(sys.argv[1]).read().split('\\n'):
            names, turns, mirrored = line.split(' ')
            expected = picture
            for name in ([] if names == '-' else names.split(',')):
                expected = expected.transpose(steps[name])
            ours = picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if mirrored == '1' else picture
            for _ in range(int(turns)):
                ours = ours.transpose(Image.Transpose.ROTATE_270)
            if ours.size != expected.size or list(ours.getdata()) != list(expected.getdata()):
                wrong.append(line)
        print(len(wrong), 'wrong:', wrong[:5])
        """
        let compared = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, list.path], timeout: 120)
        #expect(compared.status == 0 && compared.text.hasPrefix("0 wrong"), "\(compared.text) \(compared.stderr.suffix(300))")
        #expect(lines.count == 1 + 5 + 25 + 125)
    }
}
