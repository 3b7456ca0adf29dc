import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The preservation ledger's inventories and the patch source they read planned outputs through.
struct InventoryTests {
    @Test("a patch source reads exactly the bytes the patch renders, across pieces, at every offset and length tried")
    func patchSourceEqualsRendering() throws {
        let original = MemorySource((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var patch = FilePatch()
        patch.copy(100..<900)
        patch.append([1, 2, 3, 4, 5])
        patch.copy(0..<50)
        patch.append(Array(repeating: 9, count: 300))
        patch.copy(2000..<4096)
        let rendered = try patch.render(from: original)
        let source = PatchSource(patch, original: original)
        #expect(source.size == Int64(rendered.count))
        let seed = SeededGenerator.seed(0x1A7E_5EED)
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<500 {
            let offset = Int.random(in: 0..<rendered.count, using: &generator)
            let count = Int.random(in: 0...(rendered.count - offset), using: &generator)
            #expect(try source.read(at: Int64(offset), count: count) == Array(rendered[offset..<(offset + count)]), "\(count) bytes at \(offset) (LPCHECK_TEST_SEED=\(seed))")
        }
        #expect(throws: ParseError.self) { try source.read(at: Int64(rendered.count) - 2, count: 4) }
    }

    @Test("a new identifier in our camera still: the ledger names the MakerNote entry, key 17 and the Exif segment changed, and keeps every other part")
    func identifierLedger() throws {
        let path = Locations.samples.appendingPathComponent("camera-pair.jpg").path
        let source = try FileSource(path: path)
        let still = try #require(MediaFile.inspect(path: path).still)
        let patch = try StillRewriter.settingContentIdentifier(still, source: source, identifier: "11111111-2222-3333-4444-555555555555")
        let before = try Inventory.read(source: source, path: path)
        let ledger = PreservationLedger(input: before, output: try Inventory.read(source: PatchSource(patch, original: source), path: "out.jpg"))
        #expect(ledger.changed.map(\.text) == ["jpeg-segment APP1 Exif", "exif ExifIFD 0x927c", "maker-note key 17"])
        #expect(ledger.added.isEmpty && ledger.dropped.isEmpty)
        #expect(ledger.kept.count == before.entries.count - 3)
        #expect(ledger.kept.contains { $0.text == "jpeg-segment image data" })
    }

    /// A HEIF whose `count` items each claim the whole file (one extent of length 0: to the end).
    static func overlappingItems(_ count: Int, dataSize: Int) -> [UInt8] {
        let infes = (1...count).flatMap { BoxBuilder.fullBox("infe", version: 2, BoxBuilder.u16(UInt16($0)) + BoxBuilder.u16(0) + BoxBuilder.fourCC("hvc1") + [0]) }
        let iinf = BoxBuilder.fullBox("iinf", BoxBuilder.u16(UInt16(count)) + infes)
        // Version 0: offset, length and base offset of 4 bytes, no index.
        let locations = (1...count).flatMap { BoxBuilder.u16(UInt16($0)) + BoxBuilder.u16(0) + BoxBuilder.u32(0) + BoxBuilder.u16(1) + BoxBuilder.u32(0) + BoxBuilder.u32(0) }
        let iloc = BoxBuilder.fullBox("iloc", [0x44, 0x40] + BoxBuilder.u16(UInt16(count)) + locations)
        let meta = BoxBuilder.fullBox("meta", BoxBuilder.hdlr("pict") + BoxBuilder.fullBox("pitm", BoxBuilder.u16(1)) + iinf + iloc)
        return BoxBuilder.ftyp("heic", ["mif1", "heic"]) + meta + BoxBuilder.box("mdat", Array(repeating: 0, count: dataSize))
    }

    @Test("hostile: 2,000 HEIF items that each span the whole file are refused by a read budget, not read 2,000 times")
    func overlappingItemsRefused() throws {
        let bytes = Self.overlappingItems(2000, dataSize: 1 << 20)
        let source = MemorySource(bytes)
        #expect(MediaFile.inspect(source: source, path: "items.heic").still?.heif?.items.count == 2000)
        let refused = #expect(throws: ParseError.self) { try Inventory.read(source: source, path: "items.heic") }
        #expect(refused?.code == .limitExceeded && refused?.message.contains("overlap") == true, "\(String(describing: refused))")
        // Four times the file and 16 MiB: far from the 2 GB the items claim.
        #expect(source.stats.bytesRead < 6 * Int64(bytes.count) + (16 << 20))
        // A few such items are within the budget and read.
        #expect(try Inventory.read(source: MemorySource(Self.overlappingItems(3, dataSize: 1 << 20)), path: "few.heic").entries.count >= 3)
    }
}
