import Foundation
@testable import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The capture facts (what the agreement rules compare) against ExifTool's reading of every
/// shared sample, and a HEIC's shown size against libheif's (pillow-heif).
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.tool("exiftool") != nil, "needs ../shared/samples and exiftool"))
struct CaptureOracleTests {
    static func exiftool(_ files: [URL]) throws -> [String: [String: Any]] {
        let tags = ["-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal", "-IFD0:Orientation", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
                    "-Composite:ImageSize", "-Composite:Rotation", "-Meta:PrimaryItemReference", "-Keys:CreationDate", "-Keys:Make", "-Keys:Model", "-Keys:Software", "-Keys:GPSCoordinates",
                    "-QuickTime:CreateDate", "-IFD0:Make", "-IFD0:Model", "-IFD0:Software", "-ExifIFD:ExifVersion", "-IFD0:XResolution",
                    "-File:ImageWidth", "-File:ImageHeight", "-Keys:all"]
        let result = try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-j", "-n", "-G1"] + tags + files.map(\.path))
        let records = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        return Dictionary(records.compactMap { record in (record["SourceFile"] as? String).map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
    }

    /// A HEIF primary's irot as ExifTool reads the structure (`-v3`): the primary's property
    /// indices from ipma ("Item 46 properties: 1 3 5 4") and the irot among them ("4)  Rotation
    /// = 3", anticlockwise quarter turns). ExifTool's Rotation tag is no oracle here: with several
    /// items it reports the last irot met, not the primary's (apple.HEIC: 0, where the primary's
    /// is 3 and libheif shows it turned). nil where ExifTool lists no properties for the primary.
    static func primaryRotations(_ files: [URL], primaries: [String: Int]) throws -> [String: Int] {
        guard !files.isEmpty else { return [:] }
        let result = try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-v3"] + files.map(\.path))
        var answers: [String: Int] = [:]
        // One section a file, each opening with "======== PATH" (a single file has no header).
        let sections = files.count == 1 ? [(files[0].path, result.text)] : result.text.components(separatedBy: "======== ").dropFirst().map { section in
            (String(section.prefix { $0 != "\n" }), section)
        }
        for (path, text) in sections {
            guard let primary = primaries[path] else { continue }
            var properties: [Int]?, rotations: [Int: Int] = [:]
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { $0 != "|" }
                if words.count >= 3, words[0] == "Item", words[1] == "\(primary)", words[2] == "properties:" {
                    properties = words.dropFirst(3).compactMap { Int($0) }
                } else if words.count == 4, words[0].hasSuffix(")"), let index = Int(words[0].dropLast()), words[1] == "Rotation", words[2] == "=", let angle = Int(words[3]) {
                    rotations[index] = angle
                }
            }
            if let properties { answers[path] = properties.compactMap { rotations[$0] }.last ?? 0 }
        }
        return answers
    }

    /// ExifTool's `YYYY:MM:DD HH:MM:SS[±HH:MM]` through Foundation's formatter: seconds since 1970
    /// (of the clock when no zone is given) and the zone.
    static func date(_ text: String) -> (seconds: Double, zone: Int?)? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        let hasZone = text.count > 19
        formatter.dateFormat = hasZone ? "yyyy:MM:dd HH:mm:ssXXXXX" : "yyyy:MM:dd HH:mm:ss"
        guard let date = formatter.date(from: text) else { return nil }
        guard hasZone else { return (date.timeIntervalSince1970, nil) }
        let zoneText = String(text.suffix(6))
        let sign = zoneText.hasPrefix("-") ? -1 : 1
        let parts = zoneText.dropFirst().split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { return nil }
        return (date.timeIntervalSince1970, sign * (parts[0] * 3_600 + parts[1] * 60))
    }

    static func text(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    /// Stills whose Exif lpcheck reads and ExifTool does not: androidx's sample_MP.heic has an
    /// Exif item with no cdsc to the image, which libexif and lpcheck read and ExifTool 12.57
    /// does not. Their Exif values are not compared (nothing of ExifTool's to compare with);
    /// their stored size and turns are. The test holds this set to the files it meets.
    static let exifOnlyLpcheckReads: Set<String> = ["androidx__media/sample_MP.heic"]

    @Test("dates, zones, devices, GPS, sizes and turns of every shared still and movie are what ExifTool reads, both ways (none where ExifTool reads none)")
    func captureMatchesExifTool() throws {
        let files = SharedSamples.mediaFiles()
        let records = try Self.exiftool(files)
        let root = try #require(Locations.sharedSamples).path + "/"
        let heif = files.filter { [.heic, .heif, .avif].contains(MediaFile.inspect(path: $0.path, options: .check).format) }
        let primaries = records.compactMapValues { $0["Meta:PrimaryItemReference"] as? Int }
        let rotations = try Self.primaryRotations(heif, primaries: primaries)
        var compared = 0, exifOnlyLpcheck = Set<String>()
        for url in files {
            let record = try #require(records[url.path], "\(url.path)")
            let file = MediaFile.inspect(path: url.path, options: .check)
            let capture = FileFacts(file).capture
            if file.still != nil {
                if !record.keys.contains(where: { $0.hasPrefix("IFD0:") || $0.hasPrefix("ExifIFD:") }) && file.still?.tiff != nil {
                    exifOnlyLpcheck.insert(String(url.path.dropFirst(root.count)))
                } else {
                    compared += try Self.compareStill(capture, record, path: url.path)
                }
                compared += Self.compareStillTurns(capture, record, format: file.format, primaryRotation: rotations[url.path], path: url.path)
                compared += Self.compareStoredSize(capture, record, format: file.format, path: url.path)
            } else if file.movie != nil {
                compared += try Self.compareMovie(capture, record, path: url.path)
                compared += Self.compareStoredSize(capture, record, format: file.format, path: url.path)
            }
        }
        #expect(exifOnlyLpcheck == Self.exifOnlyLpcheckReads, "stills whose Exif only lpcheck reads: \(exifOnlyLpcheck.sorted())")
        #expect(compared >= 60, "\(compared) values compared")
    }

    static func compareStill(_ capture: CaptureFacts?, _ record: [String: Any], path: String) throws -> Int {
        var compared = 0
        if let date = record["ExifIFD:DateTimeOriginal"] as? String, Self.date(date) != nil {
            let time = try #require(capture?.time, "\(path): no capture time")
            let expected = try #require(Self.date(date)).seconds + (text(record["ExifIFD:SubSecTimeOriginal"]).flatMap { Double("0." + $0) } ?? 0)
            #expect(abs(time.clock - expected) < 0.001, "\(path): \(time.clock) against \(expected)")
            // Both ways: the zone where ExifTool reads OffsetTimeOriginal, none where it reads none.
            let zone = (record["ExifIFD:OffsetTimeOriginal"] as? String).map { Self.date("2000:01:01 00:00:00" + $0)?.zone }
            #expect(time.offset == zone ?? nil, "\(path): zone \(String(describing: time.offset)) against \(String(describing: record["ExifIFD:OffsetTimeOriginal"]))")
            compared += 1
        } else {
            #expect(capture?.time == nil, "\(path)")
        }
        compared += compareGPS(capture, latitude: record["Composite:GPSLatitude"] as? Double, longitude: record["Composite:GPSLongitude"] as? Double, path: path)
        for (tag, value) in [("IFD0:Make", capture?.make), ("IFD0:Model", capture?.model), ("IFD0:Software", capture?.software)] {
            if let expected = text(record[tag]) { #expect(value == expected, "\(path) \(tag)") } else { #expect(value == nil, "\(path) \(tag)") }
        }
        return compared
    }

    /// A still's turns, both ways. A JPEG's are its Orientation's (1 where ExifTool reads none),
    /// present exactly where ExifTool finds a frame header (File:ImageWidth). A HEIF's are its
    /// primary's irot as ExifTool reads it (anticlockwise quarter turns, 0 where the primary has
    /// none), present exactly where ExifTool lists the primary's properties.
    static func compareStillTurns(_ capture: CaptureFacts?, _ record: [String: Any], format: FileFormat, primaryRotation: Int?, path: String) -> Int {
        let expected: Int?
        switch format {
        case .jpeg:
            let orientation = (record["IFD0:Orientation"] as? Int) ?? 1
            expected = record["File:ImageWidth"] == nil ? nil : CaptureFacts.quarterTurns(orientation: UInt16(orientation))
        case .heic, .heif, .avif:
            expected = primaryRotation.map { (4 - $0 % 4) % 4 }
        default:
            return 0
        }
        #expect(capture?.quarterTurns == expected, "\(path): turns \(String(describing: capture?.quarterTurns)) against ExifTool's \(String(describing: expected))")
        return expected == nil ? 0 : 1
    }

    static func compareMovie(_ capture: CaptureFacts?, _ record: [String: Any], path: String) throws -> Int {
        var compared = 0
        // Both ways: the Keys date (a language-tagged one too) where ExifTool reads one, no
        // time where it reads none; mvhd's time where ExifTool reads one, none where it reads
        // none or zero ("0000:00:00 00:00:00").
        let creation = record["Keys:CreationDate"] ?? record.keys.sorted().first { $0.hasPrefix("Keys:CreationDate-") }.flatMap { record[$0] }
        if let expected = text(creation).flatMap(Self.date) {
            let time = try #require(capture?.time, "\(path)")
            #expect(time.offset == expected.zone, "\(path)")
            #expect(abs((time.instant ?? time.clock) - expected.seconds) < 0.001, "\(path)")
            compared += 1
        } else {
            #expect(capture?.time == nil, "\(path): lpcheck has a movie time \(String(describing: capture?.time)) where ExifTool reads none")
        }
        let header = (record["QuickTime:CreateDate"] as? String).flatMap(Self.date)?.seconds
        #expect(capture?.headerTime == header, "\(path): mvhd time \(String(describing: capture?.headerTime)) against ExifTool's \(String(describing: header))")
        if header != nil { compared += 1 }
        for (tag, value) in [("Keys:Make", capture?.make), ("Keys:Model", capture?.model), ("Keys:Software", capture?.software)] {
            // A key with a language (Make-und-US, as iPhones of iOS 7 wrote them) is the same key.
            let expected = text(record[tag]) ?? record.keys.sorted().first { $0.hasPrefix(tag + "-") }.flatMap { text(record[$0]) }
            #expect(value == expected, "\(path) \(tag)")
        }
        // Both ways: the track matrix's quarter turns where ExifTool reads a rotation of a
        // whole number of them, none where it reads none.
        let rotation = record["Composite:Rotation"] as? Int
        let expected = rotation.flatMap { $0 % 90 == 0 ? ($0 / 90) % 4 : nil }
        #expect(capture?.quarterTurns == expected, "\(path): turns \(String(describing: capture?.quarterTurns)) against Rotation \(String(describing: rotation))")
        compared += 1
        // A movie's place is its location.ISO6709 key (a language-tagged one too): ExifTool's
        // "-n" text is "latitude longitude [altitude]". (Its Composite GPS also reads udta ©xyz
        // and GoPro's GPMF, which lpcheck does not claim to read.)
        let key = record["Keys:GPSCoordinates"] ?? record.keys.sorted().first { $0.hasPrefix("Keys:GPSCoordinates-") }.flatMap { record[$0] }
        let numbers = text(key).map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        return compared + compareGPS(capture, latitude: numbers.count >= 2 ? numbers[0] : nil, longitude: numbers.count >= 2 ? numbers[1] : nil, path: path)
    }

    /// GPS, both ways: lpcheck's place exactly where ExifTool reads one, within a micro-degree.
    static func compareGPS(_ capture: CaptureFacts?, latitude: Double?, longitude: Double?, path: String) -> Int {
        guard let latitude, let longitude else {
            #expect(capture?.latitude == nil && capture?.longitude == nil, "\(path): lpcheck has a place ExifTool does not read")
            return 0
        }
        #expect(abs((capture?.latitude ?? .nan) - latitude) < 1e-6 && abs((capture?.longitude ?? .nan) - longitude) < 1e-6, "\(path): \(latitude) \(longitude)")
        return 1
    }

    /// The stored size, both ways: lpcheck has one exactly where ExifTool reads the same thing
    /// (a JPEG's frame header, File:ImageWidth/Height; a HEIF's primary ispe or a movie's track
    /// header, Composite:ImageSize), and none for the formats whose size it does not read.
    static func compareStoredSize(_ capture: CaptureFacts?, _ record: [String: Any], format: FileFormat, path: String) -> Int {
        let size: String?
        switch format {
        case .jpeg: size = (record["File:ImageWidth"] as? Int).flatMap { width in (record["File:ImageHeight"] as? Int).map { "\(width) \($0)" } }
        case .heic, .heif, .avif, .quickTime, .mp4: size = record["Composite:ImageSize"] as? String
        default: size = nil
        }
        #expect(size == capture?.size.map { "\($0.width) \($0.height)" }, "\(path): ExifTool \(size ?? "none"), lpcheck \(String(describing: capture?.size))")
        return size == nil ? 0 : 1
    }

    @Test("a HEIC's shown size (ispe turned by irot) is libheif's (pillow-heif), both ways: lpcheck has one exactly where libheif reads one")
    func heicShownSizeMatchesLibheif() throws {
        try Locations.require(Locations.pythonHas("pillow_heif"), "pillow-heif (PyPI)")
        var compared = 0
        // HEIF files as lpcheck's format detection finds them (IMG_2762.HEIC of little_exif is a
        // JPEG: libheif refuses it, lpcheck reads it as one).
        for url in SharedSamples.mediaFiles() {
            let file = MediaFile.inspect(path: url.path, options: .check)
            guard file.format == .heic || file.format == .heif else { continue }
            let shown = FileFacts(file).capture?.displayedSize
            let script = "import sys,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nprint(f.size[0], f.size[1])"
            let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, url.path])
            let libheif = result.status == 0 ? result.text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
            #expect(libheif == shown.map { "\($0.width) \($0.height)" }, "\(url.path): libheif \(libheif ?? "reads nothing (\(result.stderr.suffix(120)))"), lpcheck \(String(describing: shown))")
            if libheif != nil { compared += 1 }
        }
        #expect(compared >= 5)
    }
}
