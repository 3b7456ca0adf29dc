import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// PNG stills: the Apple MakerNote in `eXIf` and XMP in `iTXt`, read as ExifTool reads them.
struct PNGTests {
    /// A PNG frame (ffmpeg) given train.jpg's EXIF, MakerNote and an XMP title (ExifTool).
    static func cameraPNG() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = folder.appendingPathComponent("frame.png")
        let source = try #require(Locations.sharedSamples).appendingPathComponent("LycheeOrg__Lychee/train.jpg").path
        let ffmpeg = try ProcessResult.run(try #require(Locations.tool("ffmpeg")), ["-v", "error", "-y", "-i", source, "-vf", "scale=64:-1", "-frames:v", "1", png.path])
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let exiftool = try ProcessResult.run(try #require(Locations.tool("exiftool")), [
            "-m", "-q", "-overwrite_original", "-tagsFromFile", source, "-exif:all", "-makernotes:all", "-XMP-xmp:Label=png label", png.path])
        #expect(exiftool.status == 0, "\(exiftool.stderr)")
        return png
    }

    @Test("a PNG carrying the Apple MakerNote in eXIf gives the identifier ExifTool reads; the XMP of iTXt is read; IDAT is not",
          .enabled(if: Locations.hasSharedSamples && Locations.tool("ffmpeg") != nil && Locations.tool("exiftool") != nil))
    func makerNoteInEXIf() throws {
        let png = try Self.cameraPNG()
        defer { try? FileManager.default.removeItem(at: png.deletingLastPathComponent()) }
        let oracle = try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-s3", "-MediaGroupUUID", png.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(oracle == "E905E6C6-C747-4805-942F-9904A0281F02")
        let file = MediaFile.inspect(path: png.path)
        #expect(file.format == .png)
        #expect(file.error == nil)
        #expect(file.contentIdentifier == oracle)
        #expect(file.still?.tiff?.make == "Apple")
        #expect(file.still?.xmp?.value("http://ns.adobe.com/xap/1.0/", "Label") == "png label")
        let chunks = try #require(file.still?.png?.chunks)
        #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
        // Read: the signature, a header per chunk, eXIf and iTXt; never the image data.
        let idat = chunks.filter { $0.type == "IDAT" }.reduce(0) { $0 + Int64($1.length) }
        #expect(idat > 0)
        #expect(file.stats.bytesRead < Int64(8 + 8 * chunks.count) + Int64(chunks.filter { $0.type == "eXIf" || $0.type == "iTXt" }.reduce(0) { $0 + Int($1.length) }) + 64)
    }

    @Test("hostile PNGs: a chunk past the end, a length over 2^31-1, compressed XMP: a warning with the offset, never a crash")
    func hostile() throws {
        func chunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
            let count = length ?? UInt32(data.count)
            return BoxWriterBytes.u32(count) + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = chunk("IHDR", [UInt8](repeating: 0, count: 13))
        let past = MemorySource(signature + header + chunk("eXIf", [1, 2, 3], length: 5000))
        let pastRead = try PNGStructure.read(from: past)
        #expect(pastRead.warnings.first?.code == .truncated)
        #expect(pastRead.warnings.first?.offset == 33)
        let huge = try PNGStructure.read(from: MemorySource(signature + header + chunk("IDAT", [], length: 0x8000_0000)))
        #expect(huge.warnings.first?.code == .invalidSize)
        let compressed = Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + [0x78, 0x9C, 0x03, 0x00]
        let zipped = try PNGStructure.read(from: MemorySource(signature + header + chunk("iTXt", compressed) + chunk("IEND", [])))
        #expect(zipped.warnings.first?.code == .unsupported)
        #expect(zipped.chunks.map(\.type.description) == ["IHDR", "iTXt"])
    }
}

/// Big-endian helpers for hand-built inputs.
enum BoxWriterBytes {
    static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
