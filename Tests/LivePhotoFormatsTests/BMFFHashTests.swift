import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// C2PA's BMFF hash (`c2pa.hash.bmff.v2`) recomputed, held to c2pa-python on C2PA's own
/// `video1.mp4` and on copies changed where each part of the rule decides: an excluded box, an
/// excluded part of a box, a box the exclusion's data match leaves in, the media data, and
/// boxes moved without a hashed byte changing (the top-level offsets hashed from v2 on).
@Suite(.serialized, .enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct BMFFHashTests {
    /// c2pa-python's verdict per file: "mismatch" (assertion.bmffHash.mismatch), "holds", or its error.
    static let oracle = """
    import c2pa, json, sys
    out = {}
    for path in sys.argv[1:]:
        try:
            codes = [status['code'] for status in json.loads(c2pa.Reader(path).json()).get('validation_status') or []]
            out[path] = 'mismatch' if 'assertion.bmffHash.mismatch' in codes else 'holds'
        except Exception as error:
            out[path] = 'error: ' + str(error)
    print(json.dumps(out))
    """

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("video1.mp4 and five copies: lpcheck's BMFF hash verdict is c2pa-python's on each; a changed ftyp byte and a changed stco entry (excluded) still bind; a grown ftyp (every later box moved, no hashed byte changed), a changed byte of the XMP uuid box (not C2PA's) and of the media data do not")
    func againstC2PAPython() throws {
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let source = try #require(Locations.sharedSamples).appendingPathComponent("c2pa/contentauth__c2pa-rs__video1.mp4")
        let bytes = [UInt8](try Data(contentsOf: source))
        #expect(bytes[4..<8].elementsEqual("ftyp".utf8) && bytes[3] == 24, "video1.mp4 does not start with the 24-byte ftyp this test expects")
        let stco = try #require(Self.find(Array("stco".utf8), in: bytes), "no stco") - 4
        let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
        let xmp = try #require(Self.find(xmpUUID, in: bytes), "no XMP uuid box") + 16
        let mdat = try #require(Self.find(Array("mdat".utf8), in: bytes, from: xmp), "no mdat") + 12
        func flipped(_ at: Int) -> [UInt8] { var copy = bytes; copy[at] ^= 0x5A; return copy }
        var grown = bytes
        grown[3] = 28
        grown.insert(contentsOf: Array("iso6".utf8), at: 24)
        let copies: [(String, [UInt8], String)] = [
            ("original", bytes, "holds"),
            ("ftyp-minor-version", flipped(12), "holds"),
            ("stco-entry", flipped(stco + 16), "holds"),
            ("ftyp-grown", grown, "mismatch"),
            ("xmp-uuid", flipped(xmp + 100), "mismatch"),
            ("media-data", flipped(mdat + 1000), "mismatch"),
        ]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-bmff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var paths: [String] = []
        for (name, copy, _) in copies {
            let path = work.appendingPathComponent("\(name).mp4").path
            try Data(copy).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let python = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle] + paths)
        let oracle = try #require(try JSONSerialization.jsonObject(with: python.stdout) as? [String: String], "\(python.stderr)")
        for ((name, copy, expected), path) in zip(copies, paths) {
            let file = MediaFile.inspect(source: MemorySource(copy), path: path, options: .full)
            let binding = try #require(file.credentialsBinding, "\(name): \(file.credentialsProblem ?? "no binding")")
            let ours = binding.holds.map { $0 ? "holds" : "mismatch" } ?? "not computed: \(binding.detail)"
            #expect(ours == oracle[path] && ours == expected, "\(name): lpcheck \(ours), c2pa-python \(oracle[path] ?? "nothing"), expected \(expected)")
        }
    }

    @Test("a BMFF hash over a hostile layout (a box running past its parent, boxes nested past the bound, an xpath that cannot be read) is said not known with its reason, never a crash or a verdict")
    func hostileLayouts() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
        }
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 0, 0])
        let assertion = { (xpath: String) in
            CBORValue.map([(.text("alg"), .text("sha256")), (.text("hash"), .bytes([UInt8](repeating: 0, count: 32))),
                           (.text("exclusions"), .array([.map([(.text("xpath"), .text(xpath))])]))])
        }
        var problems: [String] = []
        let hash = BMFFHash(label: "c2pa.hash.bmff.v2", assertion("/ftyp"), problems: &problems, where: "test")
        // A child claiming more than its moov holds.
        var overrun = box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)))
        overrun[11] = 0xFF
        // moov inside moov, 40 deep (the bound is 32).
        var nested = box("free", [])
        for _ in 0..<40 { nested = box("moov", nested) }
        let cases: [(String, BMFFHash, [UInt8], String)] = [
            ("overrun", hash, ftyp + overrun, "passes the end of its parent"),
            ("nested", hash, ftyp + nested, "nested more than"),
            ("xpath", BMFFHash(label: "c2pa.hash.bmff.v2", assertion("/mo"), problems: &problems, where: "test"), ftyp + box("free", []), "xpath that cannot be read"),
        ]
        for (name, hash, bytes, reason) in cases {
            let binding = try ContentCredentials.binding(hash, source: MemorySource(bytes))
            #expect(binding.holds == nil && binding.detail.contains(reason), "\(name): \(binding)")
        }
        // The same layout without the fault is hashed: the cases are refused for their fault.
        let plain = try ContentCredentials.binding(hash, source: MemorySource(ftyp + box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)))))
        #expect(plain.holds == false, "\(plain)")
        #expect(problems.isEmpty, "\(problems)")
    }
}
