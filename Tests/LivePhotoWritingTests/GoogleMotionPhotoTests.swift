import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Issue 26: motion photos held to what Google's reader and checker require, as their published
/// source reads (no Google code runs here: the cases state each requirement the source makes).
/// The files are lpcheck's conversions of the shared Live Photos, and crafted variants of them
/// (each change made here, on the bytes); the oracles that do run are a HEIF walker of the
/// tests' own (IndependentHEIF), libheif through pillow-heif, and ffprobe.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil && Locations.tool("python3") != nil && Locations.tool("ffmpeg") != nil,
                "needs ../shared/samples, lpcheck, python3 with pillow-heif and ffmpeg"))
struct GoogleMotionPhotoTests {
    static let pairs = ["gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853", "Bai-Mirror__pyheic_struct/apple", "LycheeOrg__Lychee/train"]

    /// Converts the shared pairs named (their still's extension found on disk) into `folder/out`.
    static func converted(_ names: [String], in folder: URL) throws -> URL {
        let root = try #require(Locations.sharedSamples)
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for name in names {
            let stills = ["HEIC", "jpg"].map { root.appendingPathComponent("\(name).\($0)") }.filter { FileManager.default.fileExists(atPath: $0.path) }
            _ = try Scratch.copy(stills + [root.appendingPathComponent("\(name).MOV"), root.appendingPathComponent("\(name).mov")].filter { FileManager.default.fileExists(atPath: $0.path) },
                                 into: inputs)
        }
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", inputs.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 0, "\(convert.text)\(convert.stderr)")
        return output
    }

    /// The rules of the errors and warnings `check` gives for one file, sorted.
    static func findings(_ file: URL) throws -> [String] {
        let check = try Scratch.lpcheck(["check", file.path, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any], "\(check.stderr)")
        let items = report["items"] as? [[String: Any]] ?? []
        return items.flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }
            .map { "\($0["severity"] as? String ?? "?") \($0["rule"] as? String ?? "?")" }.sorted()
    }

    /// The verdicts of the first item `check` gives for one file.
    static func verdicts(_ file: URL) throws -> [String: String] {
        let check = try Scratch.lpcheck(["check", file.path, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any], "\(check.stderr)")
        return ((report["items"] as? [[String: Any]])?.first?["verdicts"] as? [String: String]) ?? [:]
    }

    /// The primary image's XMP as libheif gives it (pillow-heif), or "" when it gives none.
    static func libheifXMP(_ url: URL) throws -> String {
        let script = "import sys,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nsys.stdout.buffer.write(f.info.get('xmp') or b'')"
        let result = try Scratch.run("python3", ["-c", script, url.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    /// `bytes` with the first occurrence of `old` replaced by `new`.
    static func replacing(_ bytes: [UInt8], _ old: String, _ new: String) throws -> [UInt8] {
        let needle = Array(old.utf8)
        let at = try #require((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }, "\(old) is not in the file")
        return Array(bytes[..<at]) + Array(new.utf8) + Array(bytes[(at + needle.count)...])
    }

    /// A JPEG with its XMP packet edited: the APP1 segment rebuilt with its new length. The movie
    /// is counted from the end of the file, so the directory stays right.
    static func editingJPEGXMP(_ bytes: [UInt8], _ edit: (String) throws -> String) throws -> [UInt8] {
        let header = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if bytes[at + 1] == 0xE1, bytes[(at + 4)...].starts(with: header) {
                let packet = try edit(String(decoding: bytes[(at + 4 + header.count)..<(at + 2 + length)], as: UTF8.self))
                let payload = header + Array(packet.utf8)
                let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
                return Array(bytes[..<at]) + segment + Array(bytes[(at + 2 + length)...])
            }
            at += 2 + length
        }
        Issue.record("no XMP segment")
        return bytes
    }

    @Test("IMG_3853 and apple convert into files whose primary XMP (libheif, and Google's pick by an independent walk) holds the directory, whose other items keep every byte, and that pass check")
    func heicOutputs() throws {
        let root = try #require(Locations.sharedSamples)
        let folder = try Scratch.folder("google-heic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try Self.converted(Array(Self.pairs.prefix(2)), in: folder)
        for (name, written) in [("IMG_3853", UInt32(68)), ("apple", UInt32(68))] {
            let made = output.appendingPathComponent("\(name).MP.heic")
            let source = try #require(Self.pairs.first { $0.hasSuffix(name) })
            let input = try IndependentHEIF(root.appendingPathComponent("\(source).HEIC"))
            let out = try IndependentHEIF(made)
            // Google's pick is the XMP item that describes the primary, and it holds the motion photo.
            let pick = try #require(out.googleXMPItem)
            #expect(pick == written && out.cdsc[pick]?.contains(out.primary) == true, "\(name): Google picks \(pick)")
            let packet = String(decoding: out.data(pick), as: UTF8.self)
            #expect(packet.contains("GCamera:MotionPhoto=\"1\"") && packet.contains("Container:Directory"), "\(name)")
            let primaryXMP = try Self.libheifXMP(made)
            #expect(primaryXMP.contains("GCamera:MotionPhoto=\"1\"") && primaryXMP.contains("Container:Directory"), "\(name): libheif")
            // Every item of the input but the one written keeps its bytes; the gain map's XMP (64) is one of them.
            for id in input.order where id != written {
                #expect(out.data(id) == input.data(id), "\(name): item \(id) changed")
            }
            #expect(input.xmpItems.contains(64) && out.data(64) == input.data(64))
            // apple has no XMP item for the primary: the new one describes the primary and the tmap item.
            if name == "apple" {
                #expect(input.xmpItems == [64] && input.items[written] == nil)
                let tmap = try #require(out.order.first { out.items[$0]?.type == "tmap" })
                #expect(out.cdsc[written] == [out.primary, tmap])
            }
            #expect(try Self.findings(made) == [], "\(name)")
        }
    }

    @Test("the layout the converter wrote before (the motion photo on the gain map's XMP item) gives motion-photo-xmp-not-primary, and nothing else")
    func gainMapPacket() throws {
        let folder = try Scratch.folder("google-gainmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try Self.converted([Self.pairs[0]], in: folder).appendingPathComponent("IMG_3853.MP.heic")
        // Swap the cdsc references' sources in the new meta: item 68 (the motion photo's) then
        // describes the gain map, item 64 the primary and the tmap item.
        var bytes = [UInt8](try Data(contentsOf: made))
        let before = try IndependentHEIF(made)
        #expect(before.cdsc[64] == [63] && before.cdsc[68] == [46, 66])
        // Item IDs are 16-bit: 64 is "\0@", 68 "\0D", 63 "\0?", 46 "\0.", 66 "\0B".
        bytes = try Self.replacing(bytes, "cdsc\u{0}@\u{0}\u{1}\u{0}?", "cdsc\u{0}D\u{0}\u{1}\u{0}?")
        bytes = try Self.replacing(bytes, "cdsc\u{0}D\u{0}\u{2}\u{0}.\u{0}B", "cdsc\u{0}@\u{0}\u{2}\u{0}.\u{0}B")
        let crafted = folder.appendingPathComponent("IMG_3853.gainmap.heic")
        try Data(bytes).write(to: crafted)
        let after = try IndependentHEIF(crafted)
        #expect(after.cdsc[68] == [63] && after.cdsc[64] == [46, 66] && after.googleXMPItem == 64)
        #expect(!(try Self.libheifXMP(crafted)).contains("GCamera:MotionPhoto"))
        #expect(try Self.findings(crafted) == ["error motion-photo-xmp-not-primary"])
    }

    @Test("crafted JPEG and HEIC motion photos each give the rule for the requirement of Google's checker (as its source reads) they break", arguments: [
        ("three items in the wrong order", "train", "error motion-photo-directory-invalid"),
        ("a size sum that does not add up", "train", "error motion-photo-size-sum"),
        ("the movie's Item:Length 1000 more than the file holds", "train", "error motion-photo-size-sum"),
        ("a negative timestamp", "train", "error motion-photo-timestamp-negative"),
        ("version 2", "train", "error motion-photo-version"),
        ("mpvd not last", "IMG_3853", "error motion-photo-mpvd-mismatch"),
        ("Padding is not the mpvd header", "IMG_3853", "error motion-photo-mpvd-mismatch"),
    ])
    func craftedCases(_ change: String, _ name: String, _ rule: String) throws {
        let folder = try Scratch.folder("google-crafted")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try #require(Self.pairs.first { $0.hasSuffix(name) })
        let output = try Self.converted([pair], in: folder)
        let made = try #require(try FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil).first)
        #expect(try Self.findings(made) == [])
        #expect(try Self.verdicts(made) == ["google-photos": "pass"])
        var bytes = [UInt8](try Data(contentsOf: made))
        switch change {
        case "three items in the wrong order":
            bytes = try Self.editingJPEGXMP(bytes) { packet in
                let gainMap = "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"image/jpeg\" Item:Semantic=\"GainMap\" Item:Length=\"0\"/></rdf:li></rdf:Seq>"
                return try #require(packet.range(of: "</rdf:Seq>").map { packet.replacingCharacters(in: $0, with: gainMap) })
            }
        case "a size sum that does not add up":
            // The primary's Padding (the first in the directory).
            bytes = try Self.editingJPEGXMP(bytes) { packet in
                try #require(packet.range(of: "Item:Padding=\"0\"").map { packet.replacingCharacters(in: $0, with: "Item:Padding=\"41\"") })
            }
        case "the movie's Item:Length 1000 more than the file holds":
            bytes = try Self.editingJPEGXMP(bytes) { packet in
                let lengths = packet.matches(of: /Item:Length="([0-9]+)"/)
                let last = try #require(lengths.last)
                return packet.replacingCharacters(in: last.range, with: "Item:Length=\"\(try #require(Int(last.1)) + 1000)\"")
            }
        case "a negative timestamp":
            bytes = try Self.editingJPEGXMP(bytes) { packet in
                packet.replacingOccurrences(of: #"MotionPhotoPresentationTimestampUs="[0-9]+""#, with: "MotionPhotoPresentationTimestampUs=\"-5\"", options: .regularExpression)
            }
        case "version 2":
            bytes = try Self.editingJPEGXMP(bytes) { $0.replacingOccurrences(of: "MotionPhotoVersion=\"1\"", with: "MotionPhotoVersion=\"2\"") }
        case "mpvd not last":
            bytes += [UInt8](repeating: 0, count: 100)
        default:
            bytes = try Self.replacing(bytes, "Item:Padding=\"8\"", "Item:Padding=\"9\"")
        }
        let crafted = folder.appendingPathComponent("crafted-" + made.lastPathComponent)
        try Data(bytes).write(to: crafted)
        let errors = try Self.findings(crafted).filter { $0.hasPrefix("error") }
        #expect(errors == [rule] || change == "three items in the wrong order" && errors.contains(rule), "\(change): \(errors)")
        // What Google's checker rejects fails the google-photos target (issue 29).
        #expect(try Self.verdicts(crafted) == ["google-photos": "fail"], "\(change)")
    }

    @Test("vendor data between the image and the movie (holding FF D9 itself): counted in Padding it passes, left out it is motion-photo-size-sum")
    func vendorDataBeforeTheMovie() throws {
        let folder = try Scratch.folder("google-vendor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try #require(try FileManager.default.contentsOfDirectory(at: try Self.converted([Self.pairs[2]], in: folder), includingPropertiesForKeys: nil).first)
        let bytes = [UInt8](try Data(contentsOf: made))
        let length = Int(try #require(Self.xmpValues(bytes, "Item:Length").last))
        let vendor = Array("vendor".utf8) + [0xFF, 0xD9] + Array("debug block".utf8)
        for padding in [vendor.count, 0] {
            let image = try Self.editingJPEGXMP(Array(bytes.prefix(bytes.count - length))) { packet in
                try #require(packet.range(of: "Item:Padding=\"0\"").map { packet.replacingCharacters(in: $0, with: "Item:Padding=\"\(padding)\"") })
            }
            let crafted = folder.appendingPathComponent("vendor-\(padding).MP.jpg")
            try Data(image + vendor + bytes.suffix(length)).write(to: crafted)
            let errors = try Self.findings(crafted).filter { $0.hasPrefix("error") }
            #expect(errors == (padding == 0 ? ["error motion-photo-size-sum"] : []), "Padding \(padding): \(errors)")
        }
    }

    @Test("a movie with a second video track and no motion-photo metadata track: convert refuses to write it, and such a file gives motion-photo-video-tracks")
    func highResTrack() throws {
        let folder = try Scratch.folder("google-tracks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("two.mp4")
        let ffmpeg = try Scratch.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=15:duration=1", "-f", "lavfi", "-i", "testsrc=size=128x96:rate=15:duration=1",
                                                "-map", "0", "-map", "1", "-c:v", "mpeg4", movie.path])
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let still = try #require(Locations.sharedSamples).appendingPathComponent("LycheeOrg__Lychee/train.jpg")
        let pair = folder.appendingPathComponent("pair")
        let make = try Scratch.lpcheck(["make", still.path, movie.path, "--output", pair.path])
        #expect(make.status == 0, "\(make.text)\(make.stderr)")
        // The converter's read-back runs every rule: it writes no motion photo Google's checker rejects.
        let refused = try Scratch.lpcheck(["convert", pair.path, "--to", "motion-photo", "--output", folder.appendingPathComponent("refused").path])
        #expect(refused.status != 0 && refused.text.contains("fails motion-photo-video-tracks"), "\(refused.text)")
        // The file itself: a converted one-track motion photo with its movie replaced by the two-track MP4.
        let made = try #require(try FileManager.default.contentsOfDirectory(at: try Self.converted([Self.pairs[2]], in: folder), includingPropertiesForKeys: nil).first)
        let bytes = [UInt8](try Data(contentsOf: made))
        let lengths = String(decoding: bytes.prefix(70_000), as: UTF8.self).matches(of: /Item:Length="([0-9]+)"/).compactMap { Int($0.1) }
        let old = try #require(lengths.last)
        let mp4 = [UInt8](try Data(contentsOf: movie))
        let image = try Self.editingJPEGXMP(Array(bytes.prefix(bytes.count - old))) { $0.replacingOccurrences(of: "Item:Length=\"\(old)\"", with: "Item:Length=\"\(mp4.count)\"") }
        let crafted = folder.appendingPathComponent("two-tracks.MP.jpg")
        try Data(image + mp4).write(to: crafted)
        let probe = try Scratch.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=index", "-of", "csv=p=0", movie.path])
        #expect(probe.text.split(separator: "\n").count == 2)
        #expect(try Self.findings(crafted).filter { $0.hasPrefix("error") } == ["error motion-photo-video-tracks"])
    }

    /// The XMP attribute or element value `name` (such as `Item:Length`) in a file, each
    /// occurrence in order: a byte search of the test's own.
    /// (A Regex over the whole file took over a minute of the suite's time for a few
    /// megabytes; Data's search takes milliseconds.)
    static func xmpValues(_ bytes: [UInt8], _ name: String) -> [Int64] {
        let data = Data(bytes)
        let needle = Data(name.utf8)
        var values: [Int64] = []
        var from = data.startIndex
        while let hit = data.range(of: needle, in: from..<data.endIndex) {
            from = hit.upperBound
            // `name="123"` (an attribute) or `name>123` (an element).
            var at = hit.upperBound
            if at + 1 < data.endIndex, data[at] == UInt8(ascii: "="), data[at + 1] == UInt8(ascii: "\"") {
                at += 2
            } else if at < data.endIndex, data[at] == UInt8(ascii: ">") {
                at += 1
            } else {
                continue
            }
            var digits = ""
            if at < data.endIndex, data[at] == UInt8(ascii: "-") { digits = "-"; at += 1 }
            while at < data.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[at]) {
                digits.append(Character(Unicode.Scalar(data[at])))
                at += 1
            }
            if let value = Int64(digits) { values.append(value) }
        }
        return values
    }

    /// Top-level boxes of a file: type, start and size (the test's own walk).
    static func topLevelBoxes(_ bytes: [UInt8]) -> [(type: String, start: Int, size: Int)] {
        var boxes: [(String, Int, Int)] = []
        var at = 0
        while at + 8 <= bytes.count {
            var size = Int(bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            if size == 1 { size = Int(bytes[(at + 8)..<(at + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) } else if size == 0 { size = bytes.count - at }
            guard size >= 8 else { break }
            boxes.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), at, size))
            at += size
        }
        return boxes
    }

    @Test("the real Pixel and Samsung motion photos get only true findings, each claim held to the bytes here")
    func realMotionPhotos() throws {
        let root = try #require(Locations.sharedSamples)
        func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: root.appendingPathComponent(name))) }
        func findings(_ name: String) throws -> [String] { try Self.findings(root.appendingPathComponent(name)) }

        // Pixel 3a XL: two mett tracks (Google's checker warns above one).
        let pixel = "googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"
        #expect(try findings(pixel) == ["info motion-photo-unusual-tracks"])
        let pixelBytes = try bytes(pixel)
        let movieLength = try #require(Self.xmpValues(pixelBytes, "Item:Length").last)
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-pixel-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: movie) }
        try Data(pixelBytes.suffix(Int(movieLength))).write(to: movie)
        let streams = try Scratch.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_tag_string", "-of", "csv=p=0", movie.path]).text
        #expect(streams.split(separator: "\n").filter { $0 == "mett" }.count == 2)

        // Pixel 4 XL (shortened by androidx): its aecDebug block lies between the image's EOI and
        // the movie, which Padding 0 does not count: image end + Padding + Length falls short.
        let aec = "androidx__media/pixel-motion-photo-shortened.jpg"
        // Its movie's video stts (the first in the file) ends with one frame of delta 0.
        #expect(try findings(aec) == ["error motion-photo-size-sum", "error zero-duration-frames", "info motion-photo-unusual-tracks"])
        let aecBytes = try bytes(aec)
        let aecLength = try #require(Self.xmpValues(aecBytes, "Item:Length").last)
        let movieStart = aecBytes.count - Int(aecLength)
        let stts = try #require((movieStart..<(aecBytes.count - 8)).first { aecBytes[$0..<($0 + 4)].elementsEqual("stts".utf8) })
        func word(_ at: Int) -> Int { aecBytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let entries = (0..<word(stts + 8)).map { (count: word(stts + 12 + $0 * 8), delta: word(stts + 16 + $0 * 8)) }
        #expect(entries.filter { $0.delta == 0 }.map(\.count) == [1] && entries.reduce(0) { $0 + $1.count } == 38, "\(entries)")
        let eoi = try #require((0..<(movieStart - 1)).last { aecBytes[$0] == 0xFF && aecBytes[$0 + 1] == 0xD9 })
        #expect(aecBytes[(eoi + 2)...].starts(with: Array("aecDebug".utf8)))
        #expect(Int64(eoi + 2) + (Self.xmpValues(aecBytes, "Item:Padding").first ?? 0) + aecLength != Int64(aecBytes.count))

        // Samsung HEIC (S23 Ultra): the mpvd box holds the movie to the end of the file; the
        // directory's Length (128) is the tail of the SEF records and Padding (67) is not the mpvd
        // header. Samsung's layout: named as such, at info, and Google Photos' verdict is pass.
        let samsung = "Bai-Mirror__pyheic_struct/samsung.heic"
        #expect(try findings(samsung) == ["info motion-photo-samsung-layout"])
        #expect(try Self.verdicts(root.appendingPathComponent(samsung)) == ["google-photos": "pass"])
        let samsungBytes = try bytes(samsung)
        let mpvd = try #require(Self.topLevelBoxes(samsungBytes).first { $0.type == "mpvd" })
        #expect(Self.xmpValues(samsungBytes, "Item:Length").last == 128 && mpvd.size - 8 != 128 && mpvd.start + mpvd.size == samsungBytes.count)
        #expect(Self.xmpValues(samsungBytes, "Item:Padding").first == 67)
        // The last 128 bytes are SEF records (Samsung's index SEFH ... SEFT), not a movie.
        let samsungTail = Array(samsungBytes.suffix(128))
        #expect(samsungTail.suffix(4).elementsEqual(Array("SEFT".utf8)) && Self.find(Array("SEFH".utf8), in: samsungTail) != nil && Self.find(Array("ftyp".utf8), in: samsungTail) == nil)

        // Samsung One UI 6 HEIC: the primary's Length is not 0, and 199 bytes (its SEF records, in a sefd box) follow the mpvd box.
        let oneUI = "immich-app__test-assets/samsung-one-ui-6.heic"
        #expect(try findings(oneUI) == ["info motion-photo-samsung-layout"])
        #expect(try Self.verdicts(root.appendingPathComponent(oneUI)) == ["google-photos": "pass"])
        let oneUIBytes = try bytes(oneUI)
        let oneUIBoxes = Self.topLevelBoxes(oneUIBytes)
        let oneUIMpvd = try #require(oneUIBoxes.first { $0.type == "mpvd" })
        #expect(Self.xmpValues(oneUIBytes, "Item:Length").first == 452_276 && oneUIMpvd.start + oneUIMpvd.size == oneUIBytes.count - 199)
        #expect(oneUIBoxes.last?.type == "sefd" && oneUIBoxes.last?.size == 199)

        // Samsung JPEG (older): only the MicroVideo properties, and its SEF trailer after the movie.
        let galaxy = "androidx__media/ss-motion-photo-shortened.jpg"
        #expect(try findings(galaxy) == ["warning motion-photo-microvideo-only", "warning motion-photo-video-not-last"])
        let galaxyBytes = try bytes(galaxy)
        #expect(Self.xmpValues(galaxyBytes, ":MicroVideoOffset").count == 1 && Self.xmpValues(galaxyBytes, ":MotionPhoto").isEmpty)
        #expect(galaxyBytes.suffix(4).elementsEqual(Array("SEFT".utf8)))

        // Google's own HEIC sample passes.
        #expect(try findings("androidx__media/sample_MP.heic") == [])
    }

    /// Where `needle` first occurs in `bytes`.
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("Galaxy S22's motionphoto.heic passes Google Photos with Samsung's layout named; copies whose mpvd box is cut, or removed, fail by Google's reader")
    func samsungOriginalAndItsCutCopies() throws {
        let original = try #require(Locations.sharedSamples).appendingPathComponent("ente-io__motion_photos/motionphoto.heic")
        #expect(try Self.findings(original) == ["info motion-photo-samsung-layout"])
        #expect(try Self.verdicts(original) == ["google-photos": "pass"])
        let check = try Scratch.lpcheck(["check", original.path, "--format", "json", "--fail-on", "never"])
        #expect(check.text.contains("Google's checker rejects it") && check.text.contains("Samsung's layout (SM-S901U1)"), "\(check.text)")

        let folder = try Scratch.folder("google-samsung")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = [UInt8](try Data(contentsOf: original))
        let mpvd = try #require(Self.topLevelBoxes(bytes).first { $0.type == "mpvd" })
        // The payload cut to 2,000,000 bytes, the box's size set to match: the box is whole, the movie is not.
        var cut = Array(bytes.prefix(mpvd.start + 8 + 2_000_000))
        let size = UInt32(8 + 2_000_000)
        cut.replaceSubrange(mpvd.start..<(mpvd.start + 4), with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        // The mpvd box gone altogether.
        let removed = Array(bytes.prefix(mpvd.start))
        for (name, crafted) in [("cut", cut), ("removed", removed)] {
            let file = folder.appendingPathComponent("\(name).heic")
            try Data(crafted).write(to: file)
            #expect(try Self.verdicts(file) == ["google-photos": "fail"], "\(name)")
            let errors = try Self.findings(file).filter { $0.hasPrefix("error") }
            #expect(errors.contains("error motion-photo-video-missing"), "\(name): \(errors)")
            #expect(!(try Self.findings(file)).contains("info motion-photo-samsung-layout"), "\(name)")
        }
    }

    @Test("a Pixel motion photo whose XMP timestamp no longer matches its metadata track's primary frame gives motion-photo-metadata-track")
    func metadataTrackTimestamp() throws {
        let folder = try Scratch.folder("google-metadata")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pixel = try #require(Locations.sharedSamples).appendingPathComponent("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg")
        let bytes = try Self.editingJPEGXMP([UInt8](try Data(contentsOf: pixel))) { packet in
            packet.replacingOccurrences(of: #"MotionPhotoPresentationTimestampUs="0""#, with: #"MotionPhotoPresentationTimestampUs="5""#)
        }
        let crafted = folder.appendingPathComponent("PXL.MP.jpg")
        try Data(bytes).write(to: crafted)
        #expect(Self.xmpValues(bytes, ":MotionPhotoPresentationTimestampUs") == [5])
        #expect(try Self.findings(crafted) == ["error motion-photo-metadata-track", "info motion-photo-unusual-tracks"])
    }
}
