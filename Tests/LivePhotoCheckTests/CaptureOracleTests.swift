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
                    "-Composite:ImageSize", "-Composite:Rotation", "-Keys:CreationDate", "-Keys:Make", "-Keys:Model", "-Keys:Software", "-Keys:GPSCoordinates",
                    "-QuickTime:CreateDate", "-IFD0:Make", "-IFD0:Model", "-IFD0:Software", "-ExifIFD:ExifVersion", "-IFD0:XResolution",
                    "-File:ImageWidth", "-File:ImageHeight", "-Keys:all"]
        let result = try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-j", "-n", "-G1"] + tags + files.map(\.path))
        let records = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        return Dictionary(records.compactMap { record in (record["SourceFile"] as? String).map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
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

    @Test("dates, zones, devices, GPS, sizes and turns of every shared still and movie are what ExifTool reads")
    func captureMatchesExifTool() throws {
        let files = SharedSamples.mediaFiles()
        let records = try Self.exiftool(files)
        var compared = 0
        for url in files {
            let record = try #require(records[url.path], "\(url.path)")
            let file = MediaFile.inspect(path: url.path, options: .check)
            let capture = FileFacts(file).capture
            if file.still != nil {
                // androidx sample_MP.heic: an Exif item with no cdsc to the image, which libexif
                // and lpcheck read and ExifTool 12.57 does not: nothing of ExifTool's to compare.
                guard record.keys.contains(where: { $0.hasPrefix("IFD0:") || $0.hasPrefix("ExifIFD:") }) || file.still?.tiff == nil else { continue }
                compared += try Self.compareStill(capture, record, format: file.format, path: url.path)
                compared += Self.compareStoredSize(capture, record, format: file.format, path: url.path)
            } else if file.movie != nil {
                compared += try Self.compareMovie(capture, record, path: url.path)
                compared += Self.compareStoredSize(capture, record, format: file.format, path: url.path)
            }
        }
        #expect(compared >= 60, "\(compared) values compared")
    }

    static func compareStill(_ capture: CaptureFacts?, _ record: [String: Any], format: FileFormat, path: String) throws -> Int {
        var compared = 0
        if let date = record["ExifIFD:DateTimeOriginal"] as? String, Self.date(date) != nil {
            let time = try #require(capture?.time, "\(path): no capture time")
            let expected = try #require(Self.date(date)).seconds + (text(record["ExifIFD:SubSecTimeOriginal"]).flatMap { Double("0." + $0) } ?? 0)
            #expect(abs(time.clock - expected) < 0.001, "\(path): \(time.clock) against \(expected)")
            if let zone = record["ExifIFD:OffsetTimeOriginal"] as? String {
                #expect(time.offset == Self.date("2000:01:01 00:00:00" + zone)?.zone, "\(path)")
            }
            compared += 1
        } else {
            #expect(capture?.time == nil, "\(path)")
        }
        compared += compareGPS(capture, latitude: record["Composite:GPSLatitude"] as? Double, longitude: record["Composite:GPSLongitude"] as? Double, path: path)
        if format == .jpeg {
            // Both ways: a JPEG's turns are its Orientation's (1 where ExifTool reads none), and
            // lpcheck has them exactly where ExifTool finds a frame header (File:ImageWidth).
            let orientation = (record["IFD0:Orientation"] as? Int) ?? 1
            let expected = record["File:ImageWidth"] == nil ? nil : CaptureFacts.quarterTurns(orientation: UInt16(orientation))
            #expect(capture?.quarterTurns == expected, "\(path): turns \(String(describing: capture?.quarterTurns)) against Orientation \(orientation)")
            compared += 1
        }
        for (tag, value) in [("IFD0:Make", capture?.make), ("IFD0:Model", capture?.model), ("IFD0:Software", capture?.software)] {
            if let expected = text(record[tag]) { #expect(value == expected, "\(path) \(tag)") } else { #expect(value == nil, "\(path) \(tag)") }
        }
        return compared
    }

    static func compareMovie(_ capture: CaptureFacts?, _ record: [String: Any], path: String) throws -> Int {
        var compared = 0
        if let text = record["Keys:CreationDate"] as? String, let expected = Self.date(text) {
            let time = try #require(capture?.time, "\(path)")
            #expect(time.offset == expected.zone, "\(path)")
            #expect(abs((time.instant ?? time.clock) - expected.seconds) < 0.001, "\(path)")
            compared += 1
        }
        if let header = record["QuickTime:CreateDate"] as? String, let expected = Self.date(header) {
            #expect(capture?.headerTime == expected.seconds, "\(path)")
            compared += 1
        }
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
