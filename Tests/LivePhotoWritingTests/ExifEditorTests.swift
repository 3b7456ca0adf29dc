import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The identifier written into every shape of EXIF, read back by our reader and libexif.
struct ExifEditorTests {
    typealias W = BoxBuilder

    /// A big-endian TIFF: IFD0 with Make and Model (out of line), optionally an Exif IFD with
    /// ExposureTime and optionally a MakerNote.
    static func tiff(exif: Bool, makerNote: [UInt8]? = nil) -> [UInt8] {
        let make = Array("Apple\0".utf8), model = Array("Test Phone 1\0".utf8)
        let ifd0Count = exif ? 3 : 2
        let ifd0Size = 2 + 12 * ifd0Count + 4
        let makeAt = 8 + ifd0Size
        let modelAt = makeAt + make.count
        var exifAt = modelAt + model.count
        if exifAt % 2 == 1 { exifAt += 1 }
        var out = Array("MM".utf8) + [0, 42] + W.u32(8)
        out += W.u16(UInt16(ifd0Count))
        out += W.u16(0x010F) + W.u16(2) + W.u32(UInt32(make.count)) + W.u32(UInt32(makeAt))
        out += W.u16(0x0110) + W.u16(2) + W.u32(UInt32(model.count)) + W.u32(UInt32(modelAt))
        if exif { out += W.u16(0x8769) + W.u16(4) + W.u32(1) + W.u32(UInt32(exifAt)) }
        out += W.u32(0) + make + model
        while out.count < exifAt { out.append(0) }
        if exif {
            let entries = makerNote == nil ? 1 : 2
            let noteAt = exifAt + 2 + 12 * entries + 4 + 8
            out += W.u16(UInt16(entries))
            out += W.u16(0x829A) + W.u16(5) + W.u32(1) + W.u32(UInt32(exifAt + 2 + 12 * entries + 4))
            if let makerNote { out += W.u16(0x927C) + W.u16(7) + W.u32(UInt32(makerNote.count)) + W.u32(UInt32(noteAt)) }
            out += W.u32(0) + W.u32(1) + W.u32(60)
            if let makerNote { out += makerNote }
        }
        return out
    }

    static func check(_ original: [UInt8], expectInPlace: Bool = false) throws {
        let identifier = "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9"
        let result = try ExifEditor.settingContentIdentifier(original, identifier: identifier)
        #expect(result.inPlace == expectInPlace)
        let layout = try TIFFLayout.read(result.tiff, base: 0, path: "t")
        let range = try #require(layout.makerNoteRange)
        let note = try AppleMakerNote.read(Array(result.tiff[range]), base: 0, path: "m")
        #expect(note.contentIdentifier == identifier)
        #expect(layout.make == "Apple" && layout.model == "Test Phone 1")
        // libexif sees every standard tag it saw before, with the same value.
        let before = ExifReader.tags(tiff: original, makerNoteRange: nil).filter { $0.tag != 0x927C && $0.tag != 0x8769 }
        let after = ExifReader.tags(tiff: result.tiff, makerNoteRange: range).filter { $0.tag != 0x927C && $0.tag != 0x8769 && $0.tag != 0x9000 }
        #expect(before.map(\.name) == after.map(\.name).filter { name in before.contains { $0.name == name } })
        for tag in before { #expect(after.contains(tag), "\(tag.name) lost") }
    }

    @Test("IFD0 only: a new Exif IFD and IFD0 are appended")
    func noExifIFD() throws { try Self.check(Self.tiff(exif: false)) }

    @Test("an Exif IFD without MakerNote: a new Exif IFD with the MakerNote is appended")
    func noMakerNote() throws { try Self.check(Self.tiff(exif: true)) }

    @Test("a non-Apple MakerNote is replaced by an Apple one")
    func otherMakerNote() throws { try Self.check(Self.tiff(exif: true, makerNote: Array("Nikon\0\u{2}\u{10}\0\0".utf8) + [UInt8](repeating: 7, count: 20))) }

    @Test("an Apple MakerNote with a UUID is rewritten in place; without 0x0011 it is rebuilt keeping every entry")
    func appleMakerNote() throws {
        let identifier = Array("00000000-0000-0000-0000-000000000000\0".utf8)
        let header = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        func note(_ entries: [(UInt16, UInt16, UInt32, [UInt8])]) -> [UInt8] {
            var table = W.u16(UInt16(entries.count)), tail: [UInt8] = []
            let tailAt = header.count + 2 + 12 * entries.count + 4
            for (tag, type, count, value) in entries {
                table += W.u16(tag) + W.u16(type) + W.u32(count)
                if value.count <= 4 { table += value + [UInt8](repeating: 0, count: 4 - value.count) } else {
                    table += W.u32(UInt32(tailAt + tail.count))
                    tail += value
                }
            }
            return header + table + W.u32(0) + tail
        }
        try Self.check(Self.tiff(exif: true, makerNote: note([(0x0001, 9, 1, W.u32(14)), (0x0011, 2, 37, identifier)])), expectInPlace: true)
        let without = Self.tiff(exif: true, makerNote: note([(0x0001, 9, 1, W.u32(14)), (0x0008, 10, 1, W.u32(1) + W.u32(2))]))
        try Self.check(without)
        let rebuilt = try ExifEditor.settingContentIdentifier(without, identifier: "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9")
        let range = try #require(try TIFFLayout.read(rebuilt.tiff, base: 0, path: "t").makerNoteRange)
        let entries = try AppleMakerNote.read(Array(rebuilt.tiff[range]), base: 0, path: "m").entries
        #expect(entries.map(\.tag) == [0x0001, 0x0008, 0x0011])
        #expect(entries.first { $0.tag == 0x0008 }?.value == .rationals([0.5]))
    }

    @Test("a TIFF made from nothing reads back")
    func fresh() throws {
        let tiff = ExifEditor.newTIFF(identifier: "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9")
        let layout = try TIFFLayout.read(tiff, base: 0, path: "t")
        let range = try #require(layout.makerNoteRange)
        #expect(try AppleMakerNote.read(Array(tiff[range]), base: 0, path: "m").contentIdentifier == "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9")
    }
}
