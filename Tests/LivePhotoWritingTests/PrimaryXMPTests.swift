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
        try Locations.require(Locations.pythonHas("pillow_heif"), "pillow-heif (PyPI)")
        let script = "import sys,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nsys.stdout.buffer.write(f.info.get('xmp') or b'')"
        let result = try Scratch.run("python3", ["-c", script, url.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    /// The XMP items of a HEIC in file order, the one describing the primary image (cdsc) and
    /// the others, by the tests' own walk of `meta` (IndependentHEIF), not lpcheck's readers.
    static func independentXMP(_ url: URL) throws -> (all: [UInt32], primary: UInt32, others: [UInt32], described: [UInt32: [UInt32]]) {
        let heif = try IndependentHEIF(url)
        let all = heif.order.filter { heif.items[$0]?.type == "mime" && heif.items[$0]?.contentType == "application/rdf+xml" }
        let primary = all.filter { heif.cdsc[$0]?.contains(heif.primary) == true }
        try #require(primary.count == 1, "XMP items describing the primary \(heif.primary): \(primary)")
        return (all, primary[0], all.filter { $0 != primary[0] }, heif.cdsc)
    }

    @Test("an iPhone HEIC with a gain map: the XMP read is the item whose cdsc names the primary (found by an independent walk), whose packet libheif gives as the primary's, not the gain map's")
    func chosenItem() throws {
        let url = try #require(SharedSamples.url(Self.still))
        let heif = try #require(MediaFile.inspect(path: url.path).still?.heif)
        let expected = try Self.independentXMP(url)
        #expect(expected.all.count == 2 && expected.others.count == 1, "\(expected.all)")
        #expect(heif.xmpItems.map(\.id) == expected.all)
        for other in expected.others { #expect(heif.described(by: other) == expected.described[other] ?? [], "item \(other)") }
        #expect(heif.xmpItem?.id == expected.primary)
        // libheif (pillow-heif) gives the primary image this item's packet.
        let packet = String(decoding: try Self.itemBytes(url, expected.primary), as: UTF8.self)
        #expect(try Self.libheifXMP(url) == packet)
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
        let items = try Self.independentXMP(inputs[0])
        #expect(convert.text.contains("XMP item \(items.primary)'s packet extended and moved"), "\(convert.text)")
        let made = output.appendingPathComponent("IMG_3853.MP.heic")
        let primary = try Self.libheifXMP(made)
        #expect(primary.contains("GCamera:MotionPhoto=\"1\"") && primary.contains("Container:Directory"))
        for other in items.others { #expect(try Self.itemBytes(made, other) == (try Self.itemBytes(inputs[0], other)), "item \(other)") }
        let check = try Scratch.lpcheck(["check", output.path])
        #expect(check.status == 0)
        #expect(check.text.contains("1 motion-photo"))
    }
}
