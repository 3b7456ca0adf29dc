import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Truncated and byte-flipped copies of real and generated files: every one ends in a result or
/// a clear error with an offset inside the file, never a crash, a hang or a read larger than the file.
struct HostileInputTests {
    /// Returns whether the reader reported a problem (error or warning).
    @discardableResult
    static func check(_ bytes: [UInt8], label: String) -> Bool {
        let source = MemorySource(bytes)
        let file = MediaFile.inspect(source: source, path: label)
        let size = Int64(bytes.count)
        #expect(file.stats.largestRead <= max(bytes.count, 64), "\(label): read \(file.stats.largestRead) bytes at once")
        #expect(file.stats.bytesRead <= max(size, 64) * 4, "\(label): read \(file.stats.bytesRead) bytes of \(size)")
        for problem in (file.error.map { [$0] } ?? []) + file.warnings {
            #expect(problem.offset >= 0 && problem.offset <= size, "\(label): offset \(problem.offset) outside 0...\(size)")
            #expect(!problem.message.isEmpty)
        }
        if file.error == nil, let movie = file.movie {
            // Anything decoded must be usable without trapping.
            _ = movie.stillImageTime
            _ = movie.frameDurations
            for track in movie.tracks { _ = try? track.sampleTable.resolve(limit: 10_000) }
        }
        return file.error != nil || !file.warnings.isEmpty
    }

    /// Where the metadata is: flips there exercise parsers, flips in media data do not.
    static func metadataRange(_ bytes: [UInt8]) -> Range<Int> {
        let file = MediaFile.inspect(source: MemorySource(bytes), path: "")
        if let moov = file.movie?.boxes.first(where: { $0.type == "moov" }) {
            return Int(moov.offset)..<Int(moov.end)
        }
        return 0..<min(bytes.count, 64 * 1024)
    }

    static func mutate(_ bytes: [UInt8], label: String, truncations: Int, flips: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let metadata = metadataRange(bytes)
        var cuts = Set((0..<truncations).map { _ in Int.random(in: 0..<bytes.count, using: &generator) })
        cuts.formUnion(metadata.lowerBound..<min(metadata.upperBound, metadata.lowerBound + 48))
        var reported = 0
        for cut in cuts.sorted() where check(Array(bytes.prefix(cut)), label: "\(label) cut at \(cut)") { reported += 1 }
        // Cutting a file short must be noticed nearly always (a cut in trailing padding may not be).
        #expect(reported * 10 >= cuts.count * 8, "\(label): only \(reported) of \(cuts.count) truncations reported")
        for round in 0..<flips {
            var copy = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: metadata, using: &generator)
                copy[at] = [0x00, 0xFF, 0x7F, 0x80, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator) ?? 0
            }
            check(copy, label: "\(label) flip round \(round)")
        }
    }

    @Test("generated samples survive truncation and byte flips", arguments: ["camera-pair.jpg", "camera-pair.mov", "software-pair.mov", "plain-clip.mov"])
    func generated(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent(name)))
        Self.mutate(bytes, label: name, truncations: 200, flips: 400, seed: 0x5EED)
    }

    @Test("real samples survive truncation and byte flips", .enabled(if: Locations.hasSharedSamples), arguments: [
        "LycheeOrg__Lychee/train.mov", "LycheeOrg__Lychee/train.jpg", "Bai-Mirror__pyheic_struct/apple.MOV",
        "Bai-Mirror__pyheic_struct/apple.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV",
        "henteko__livephotoskit-react/test.mov", "drewnoakes__metadata-extractor-images/exif-at-eof.heic",
        "androidx__media/pixel-motion-photo-shortened.jpg", "androidx__media/sample_MP.heic", "mindeng__nom-exif/exif.avif",
        "exiftool__exiftool/Apple.jpg", "androidx__media/dolbyVision-hdr.MOV",
    ])
    func real(_ name: String) throws {
        let url = try #require(SharedSamples.url(name))
        let bytes = try [UInt8](Data(contentsOf: url))
        Self.mutate(bytes, label: name, truncations: 100, flips: 300, seed: UInt64(bitPattern: Int64(name.utf8.count) &* 7919))
    }

    @Test("a file that ends inside moov says so, with the box path")
    func truncatedMovie() throws {
        let bytes = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let file = MediaFile.inspect(source: MemorySource(Array(bytes.dropLast(100))), path: "cut.mov")
        let error = try #require(file.error)
        #expect(error.code == .truncated)
        #expect(error.path == "moov")
    }

    @Test("empty and tiny files give an error or unknown, never a crash")
    func tiny() {
        for count in 0..<16 {
            let file = MediaFile.inspect(source: MemorySource([UInt8](repeating: 0, count: count)), path: "zeros")
            #expect(file.kind == .unknown)
        }
        #expect(MediaFile.inspect(source: MemorySource([]), path: "empty").error?.code == .truncated)
    }
}

/// Motion photos built to make the movie search slow or the trailer reader allocate.
struct HostileMotionPhotoTests {
    static func jpeg(xmpAttributes: String, tail: [UInt8]) -> [UInt8] {
        let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:GCamera=\"http://ns.google.com/photos/1.0/camera/\" \(xmpAttributes)/></rdf:RDF></x:xmpmeta>".utf8)
        let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        let length = 2 + header.count + xmp.count
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + header + xmp
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00] + [UInt8](repeating: 0, count: 16) + [0xFF, 0xD9]
        return [0xFF, 0xD8] + app1 + scan + tail
    }

    @Test("a megabyte of empty ftyp boxes after a MotionPhoto=1 still: the search gives up after a bounded number of reads")
    func manyFtypBoxes() throws {
        let box: [UInt8] = [0, 0, 0, 8] + Array("ftyp".utf8)
        let bytes = Self.jpeg(xmpAttributes: "GCamera:MotionPhoto=\"1\"", tail: Array([[UInt8]](repeating: box, count: 131_072).joined()))
        let source = MemorySource(bytes)
        let still = try Still.read(from: source, format: .jpeg, options: .check)
        #expect(still.motionPhoto != nil && still.motionPhoto?.movieRange == nil)
        #expect(source.stats.reads < 5_000, "\(source.stats.reads) reads")
    }

    @Test("a Samsung trailer whose directory claims a billion entries or points outside the file is ignored, not trusted")
    func lyingTrailer() throws {
        func trailer(count: UInt32, back: UInt32, size: UInt32) -> [UInt8] {
            func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }
            let directory = Array("SEFH".utf8) + le(106) + le(count) + [0, 0, 0x30, 0x0A] + le(back) + le(size)
            return directory + le(UInt32(directory.count)) + Array("SEFT".utf8)
        }
        for (count, back, size) in [(UInt32(1_000_000_000), UInt32(24), UInt32(24)), (1, UInt32.max, 64), (1, 16, UInt32.max)] {
            let bytes = Self.jpeg(xmpAttributes: "GCamera:MotionPhoto=\"1\"", tail: trailer(count: count, back: back, size: size))
            #expect(SamsungTrailer.read(from: MemorySource(bytes)) == nil)
            let still = try Still.read(from: MemorySource(bytes), format: .jpeg, options: .check)
            #expect(still.motionPhoto?.movieRange == nil)
        }
    }

    /// A file whose reads past `failAfter` fail as the disk or the network would (`.io`), and
    /// whose readers may have caught that failure on their way.
    final class FailingSource: ByteSource {
        let base: FileSource
        let failAfter: Int64
        private(set) var readFailure: ParseError?
        var size: Int64 { base.size }
        var stats: ReadStats { base.stats }
        init(_ path: String, failAfter: Int64) throws { (base, self.failAfter) = (try FileSource(path: path), failAfter) }
        func read(at offset: Int64, count: Int) throws -> [UInt8] {
            guard offset + Int64(count) <= failAfter else {
                let failure = ParseError(.io, "read failed: Input/output error", offset: offset)
                if readFailure == nil { readFailure = failure }
                throw failure
            }
            return try base.read(at: offset, count: count)
        }
    }

    @Test("a read that fails (I/O) anywhere in a camera movie or still leaves the file unread with that failure and its offset, never a reading of what was around it", arguments: ["camera-pair.mov", "camera-pair.jpg"])
    func failedReadLeavesFileUnread(_ name: String) throws {
        let path = Locations.samples.appendingPathComponent(name).path
        let size = try FileSource(path: path).size
        // Fail at several points: the head, the middle, the last bytes (a camera movie's moov).
        for failAfter in [Int64(64), size / 2, size - 16] {
            let source = try FailingSource(path, failAfter: failAfter)
            let file = MediaFile.inspect(source: source, path: path, options: .check)
            #expect(file.error?.code == .io && file.error?.message.contains("Input/output error") == true, "\(name) failing after \(failAfter): \(String(describing: file.error))")
            #expect(file.still == nil && file.movie == nil && file.format == .unknown)
            #expect((file.error?.offset ?? -1) >= 0 && (file.error?.offset ?? -1) < size)
        }
        // Unfailing, the same source reads the file.
        let whole = MediaFile.inspect(source: try FailingSource(path, failAfter: size), path: path, options: .check)
        #expect(whole.error == nil && (whole.still != nil || whole.movie != nil))
    }
}
