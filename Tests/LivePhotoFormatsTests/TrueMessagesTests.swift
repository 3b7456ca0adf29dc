import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Issue 25, case 10: messages that say what is true of the file.
struct TrueMessagesTests {
    typealias B = BoxBuilder

    @Test("a read that runs past the end says how many bytes remain, or that it starts past the end")
    func shortRead() throws {
        let source = MemorySource([UInt8](repeating: 0, count: 20))
        for (offset, count, expected) in [(Int64(19), 2, "needs 2 bytes at 19 but only 1 remain before the file ends at 20"),
                                          (25, 2, "needs 2 bytes at 25, past the end of the file (20 bytes)")] {
            do {
                _ = try source.read(at: offset, count: count)
                Issue.record("read past the end")
            } catch let error as ParseError {
                #expect(error.message == expected)
            }
        }
    }

    @Test("only an Apple MakerNote is said to be decoded as MakerApple; a 1-byte vendor note is named as not decoded")
    func makerNoteRow() {
        let one: [UInt8] = [0x41]
        #expect(ExifReader.makerNoteText(one, size: 1) == "(1 bytes, another vendor's MakerNote: not decoded)")
        let apple = Array("Apple iOS\0".utf8) + [0, 1, 0x4D, 0x4D]
        #expect(ExifReader.makerNoteText(apple, size: apple.count).hasSuffix("Apple: decoded as MakerApple)"))
        let google = Array("HDRP".utf8) + [0x02, 0x00, 0xFF, 0x10]
        #expect(ExifReader.makerNoteText(google, size: google.count) == "(8 bytes 'HDRP', another vendor's MakerNote: not decoded)")
        // Read through libexif from a real file: an iPhone's is Apple's, a Pixel's is not.
        if let root = Locations.sharedSamples {
            for (file, apple) in [("LycheeOrg__Lychee/train.jpg", true), ("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg", false)] {
                let still = MediaFile.inspect(path: root.appendingPathComponent(file).path).still
                let row: String = still.flatMap { file in file.exif.first { $0.tag == 0x927C }?.value } ?? ""
                #expect(row.contains(apple ? "Apple: decoded as MakerApple" : "another vendor's MakerNote: not decoded"), "\(file): \(row)")
                #expect((still?.makerNote != nil) == apple)
            }
        }
    }

    @Test("seconds too large to round print as the number they are, never inf")
    func hugeSeconds() {
        #expect(SecondsText.format(1e308, decimals: 4) == "1e+308")
        #expect(SecondsText.format(1.5) == "1.5")
    }

    @Test("QuickTime user-data text with the Macintosh code of a Mac Roman language is Mac Roman; with an ISO language or another Mac script, UTF-8")
    func macRomanUserData() throws {
        func item(_ language: UInt16, _ text: [UInt8]) -> [UInt8] {
            B.box("udta", B.u32(UInt32(8 + 4 + text.count)) + [0xA9] + Array("nam".utf8) + B.u16(UInt16(text.count)) + B.u16(language) + text)
        }
        for (language, bytes, expected) in [(UInt16(0), [0x43, 0x61, 0x66, 0x8E] as [UInt8], "Caf\u{E9}"),
                                            (0x15C7, Array("Caf\u{E9}".utf8), "Caf\u{E9}"),
                                            (0, [0xD2, 0x41, 0xD3], "\u{201C}A\u{201D}"),
                                            // Japanese (11) is no Mac Roman language: its bytes stay UTF-8.
                                            (11, Array("\u{65E5}\u{672C}".utf8), "\u{65E5}\u{672C}")] {
            let movie = try #require(MediaFile.inspect(source: MemorySource(B.movie(extraMoovBoxes: [item(language, bytes)])), path: "x").movie)
            let value = try #require(movie.userData.first { $0.type.bytes == [0xA9] + Array("nam".utf8) }?.value)
            #expect(value == .string(expected), "language \(language)")
        }
    }
}
