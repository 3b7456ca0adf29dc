import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Issue 26, first step: a HEIC's motion-photo XMP is the packet of the XMP item that describes
/// the primary image, as Google's reader and libheif read it, not the gain map's own.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil && Locations.tool("python3") != nil,
                "needs ../shared/samples, lpcheck and python3 with pillow-heif"))
struct PrimaryXMPTests {
    static let still = "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC"

    /// The bytes of `item` in the HEIC at `url`.
    static func itemBytes(_ url: URL, _ item: UInt32) throws -> [UInt8] {
        let file = MediaFile.inspect(path: url.path)
        let heif = try #require(file.still?.heif)
        let entry = try #require(heif.items.first { $0.id == item })
        return try heif.data(of: entry, from: try FileSource(path: url.path)).bytes
    }

    /// The primary image's XMP as libheif gives it (pillow-heif), or "" when it gives none.
    static func libheifXMP(_ url: URL) throws -> String {
        let script = "import sys,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nsys.stdout.buffer.write(f.info.get('xmp') or b'')"
        let result = try Scratch.run("python3", ["-c", script, url.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    @Test("an iPhone HEIC with a gain map: the XMP read is item 68 (cdsc to the primary), not the gain map's item 64")
    func chosenItem() throws {
        let root = try #require(Locations.sharedSamples)
        let heif = try #require(MediaFile.inspect(path: root.appendingPathComponent(Self.still).path).still?.heif)
        #expect(heif.xmpItems.map(\.id) == [64, 68])
        #expect(heif.described(by: 64) == [63])
        #expect(heif.xmpItem?.id == 68)
    }

    @Test("convert writes the motion-photo XMP into the primary's XMP item: libheif reads the directory from the primary, the gain map's XMP item stays byte for byte, check passes")
    func convertWritesPrimaryXMP() throws {
        let root = try #require(Locations.sharedSamples)
        let folder = try Scratch.folder("primary-xmp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Scratch.copy([root.appendingPathComponent(Self.still), root.appendingPathComponent("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV")],
                                      into: folder)
        #expect(!(try Self.libheifXMP(inputs[0])).contains("GCamera:MotionPhoto"))
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 0, "\(convert.text)")
        #expect(convert.text.contains("XMP item 68's packet extended and moved"))
        let made = output.appendingPathComponent("IMG_3853.MP.heic")
        let primary = try Self.libheifXMP(made)
        #expect(primary.contains("GCamera:MotionPhoto=\"1\"") && primary.contains("Container:Directory"))
        #expect(try Self.itemBytes(made, 64) == (try Self.itemBytes(inputs[0], 64)))
        let check = try Scratch.lpcheck(["check", output.path])
        #expect(check.status == 0)
        #expect(check.text.contains("1 motion-photo"))
    }
}
