import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Samples/corrupt/: broken files named after their defect (made by Samples/generate.py from our
/// own samples). Each gives a clear error or warning with its code, offset and path.
struct CorruptSampleTests {
    struct Case: CustomStringConvertible, Sendable {
        var file: String
        /// Fatal (the file is unreadable) or a warning (the rest was read).
        var fatal: Bool
        var code: ParseError.Code
        var path: String
        var description: String { file }
    }

    static let cases: [Case] = [
        Case(file: "box-size-below-header.mov", fatal: true, code: .invalidSize, path: "moov"),
        Case(file: "box-size-64bit-overflow.mov", fatal: true, code: .invalidSize, path: "moov"),
        Case(file: "moov-past-eof.mov", fatal: true, code: .truncated, path: "moov"),
        Case(file: "tkhd-past-parent.mov", fatal: true, code: .invalidSize, path: "moov/trak/tkhd"),
        Case(file: "stsz-count-huge.mov", fatal: true, code: .invalidSize, path: "moov/trak/mdia/minf/stbl/stsz"),
        Case(file: "timed-sample-past-eof.mov", fatal: false, code: .outsideFile, path: "moov/trak[2]/mdia/minf/stbl/stco"),
        Case(file: "exif-segment-past-eof.jpg", fatal: false, code: .truncated, path: "APP1@2"),
        Case(file: "makernote-offset-past-end.jpg", fatal: false, code: .invalidSize, path: "APP1 Exif/MakerApple"),
        Case(file: "jpeg-truncated-scan.jpg", fatal: false, code: .truncated, path: "EOI"),
    ]

    @Test("each broken file gives its error with offset and path", arguments: cases)
    func corrupt(_ expected: Case) throws {
        let url = Locations.samples.appendingPathComponent("corrupt/\(expected.file)")
        let file = MediaFile.inspect(path: url.path)
        let problem = try #require(expected.fatal ? file.error : file.warnings.first { $0.code == expected.code }, "\(file.warnings)")
        #expect(problem.code == expected.code)
        #expect(problem.path == expected.path)
        #expect(problem.offset >= 0 && problem.offset <= file.size)
        #expect(!problem.message.isEmpty)
    }

    @Test("every file in Samples/corrupt has a case")
    func allCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Locations.samples.appendingPathComponent("corrupt").path).filter { $0 != "fuzz" }
        let covered = Set(Self.cases.map(\.file)).union(["jpeg-without-soi.jpg"])
        #expect(Set(names) == covered)
    }

    /// Inputs on which a fuzz target crashed, kept with the fix that they prove.
    static let fuzzCrashes = ["makerapple-bplist-set-crashed-foundation.bin", "heif-box-size-near-int64-max.bin", "makerapple-bplist-uid-too-wide.bin", "repair-track-id-exhausted.mov",
                              "configuration-complex-key-trapped-yams.yml", "gif-frame-65535-square-on-2x2-screen.gif", "zip64-locator-in-a-53-byte-archive.zip"]

    @Test("fuzz crashes: a MakerNote whose binary plist holds a set (Foundation's parser crashed) decodes or is refused, never crashes")
    func fuzzCrashFiles() throws {
        let folder = Locations.samples.appendingPathComponent("corrupt/fuzz")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) == Set(Self.fuzzCrashes))
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[0])))
        let note = try AppleMakerNote.read(bytes, base: 0, path: "MakerApple")
        #expect(note.entries.count > 10)
        // A binary plist UID wider than 8 bytes (our plist reader trapped converting it).
        let wide = try [UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[2])))
        _ = try? AppleMakerNote.read(wide, base: 0, path: "MakerApple")
        // A movie whose track ID is 0xFFFFFFFF: adding a still-image-time track must refuse, not trap.
        let exhausted = MemorySource(try [UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[3]))))
        let movie = try Movie.read(from: exhausted)
        #expect(throws: (any Error).self) {
            try MovieRewriter.rewrite(movie, source: exhausted, edits: MovieEdits(stillImageTime: StillImagePlacement(seconds: 0.5)), shiftLimit: 1 << 20)
        }
        // A GIF frame claiming 65535×65535 on a 2×2 screen (its decoder reserved 4 GB for it): the
        // structure reads, the frame as it claims; FuzzSeedTests decode it through the gif target.
        let gif = try GIFStructure([UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[5]))), path: "gif")
        #expect(gif.frames.count == 2 && gif.frames[1].width == 65535 && (gif.width, gif.height) == (2, 2))
        // A 53-byte archive whose end record says zip64 and whose locator points inside it: the
        // zip target found it again from its zip64 seeds in 222,858 runs (issue 47: the reader
        // subtracted 56 from the archive's size and trapped on a negative UInt64).
        let zip = try [UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[6])))
        #expect(throws: ParseError.self) { try ZipArchive(source: MemorySource(zip), path: "zip") }
        // A top-level box whose 64-bit size plus its offset overflowed (Box.end trapped).
        let heif = try [UInt8](Data(contentsOf: folder.appendingPathComponent(Self.fuzzCrashes[1])))
        let file = MediaFile.inspect(source: MemorySource(heif), path: "heif")
        // The box past Int64.max is passed over; no `meta` follows, so the file is refused as HEIF.
        #expect(file.error?.code == .invalidValue && file.error?.message.contains("top-level 'meta'") == true, "\(String(describing: file.error)) \(file.warnings)")
        let huge = BoxBuilder.ftyp("qt  ") + BoxBuilder.u32(1) + Array("mdat".utf8) + BoxBuilder.u64(UInt64(Int64.max) - 4)
        let hugeFile = MediaFile.inspect(source: MemorySource(huge), path: "huge")
        #expect(hugeFile.error?.code == .truncated && hugeFile.error?.path == "mdat", "\(String(describing: hugeFile.error)) \(hugeFile.warnings)")
    }

    @Test("binary plists: sets, nesting, cycles and bad offsets are bounded")
    func binaryPlists() {
        // {"a": [1, "x"]} written by hand: objects 0 dict, 1 "a", 2 array, 3 int 1, 4 "x".
        var plist = Array("bplist00".utf8)
        let objects: [[UInt8]] = [[0xD1, 0x01, 0x02], [0x51, 0x61], [0xA2, 0x03, 0x04], [0x10, 0x01], [0x51, 0x78]]
        var offsets: [Int] = []
        for object in objects { offsets.append(plist.count); plist += object }
        let table = plist.count
        plist += offsets.map { UInt8($0) }
        plist += [0, 0, 0, 0, 0, 0, 1, 1] + BoxBuilder.u64(UInt64(objects.count)) + BoxBuilder.u64(0) + BoxBuilder.u64(UInt64(table))
        #expect(PlistValue.decode(plist)?.displayText == "{a=[1, x]}")
        // The array refers to the dictionary that holds it: a cycle, refused.
        var cyclic = plist
        cyclic[offsets[2] + 1] = 0x00
        #expect(PlistValue.decode(cyclic) == nil)
        // An object offset beyond the table, refused.
        var outside = plist
        outside[table + 1] = 0xF0
        #expect(PlistValue.decode(outside) == nil)
        // A set (0xC) reads like an array.
        var set = plist
        set[offsets[2]] = 0xC2
        #expect(PlistValue.decode(set)?.displayText == "{a=[1, x]}")
        // A UID (0x8) of eight 0xFF bytes: too large for a signed integer, read as its bit pattern
        // (the fuzzer's third find trapped here).
        var uid = plist
        uid.replaceSubrange(offsets[3]..<(offsets[3] + 2), with: [0x87, 0xFF])
        let patched = PlistValue.decode(uid)
        // The UID's eight bytes run into the objects after it: the plist is refused, not trapped on.
        #expect(patched == nil, "\(String(describing: patched?.displayText))")
    }

    @Test("content that matches no format is unknown, and check reports a media name holding it")
    func notMedia() {
        let file = MediaFile.inspect(path: Locations.samples.appendingPathComponent("corrupt/jpeg-without-soi.jpg").path)
        #expect(file.format == .unknown)
        #expect(file.kind == .unknown)
    }
}
