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
                    "-QuickTime:CreateDate", "-IFD0:Make", "-IFD0:Model", "-IFD0:Software", "-ExifIFD:ExifVersion", "-IFD0:XResolution"]
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
            } else if file.movie != nil {
                compared += try Self.compareMovie(capture, record, path: url.path)
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
        compared += compareCommon(capture, record, path: path)
        if format == .jpeg, capture?.size != nil {
            let orientation = (record["IFD0:Orientation"] as? Int) ?? 1
            #expect(capture?.quarterTurns == CaptureFacts.quarterTurns(orientation: UInt16(orientation)), "\(path)")
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
            if let expected = text(record[tag]) { #expect(value == expected, "\(path) \(tag)") } else { #expect(value == nil, "\(path) \(tag)") }
        }
        if let rotation = record["Composite:Rotation"] as? Int, capture?.quarterTurns != nil {
            #expect(capture?.quarterTurns.map { $0 * 90 } == rotation, "\(path)")
            compared += 1
        }
        return compared + compareCommon(capture, record, path: path)
    }

    /// GPS and the stored size.
    static func compareCommon(_ capture: CaptureFacts?, _ record: [String: Any], path: String) -> Int {
        var compared = 0
        if let latitude = record["Composite:GPSLatitude"] as? Double, let longitude = record["Composite:GPSLongitude"] as? Double {
            #expect(abs((capture?.latitude ?? .nan) - latitude) < 1e-6 && abs((capture?.longitude ?? .nan) - longitude) < 1e-6, "\(path)")
            compared += 1
        }
        if let size = record["Composite:ImageSize"] as? String, let stored = capture?.size {
            #expect(size == "\(stored.width) \(stored.height)", "\(path): \(size)")
            compared += 1
        }
        return compared
    }

    @Test("a HEIC's shown size (ispe turned by irot) is libheif's (pillow-heif)", .enabled(if: Locations.tool("python3") != nil))
    func heicShownSizeMatchesLibheif() throws {
        let files = SharedSamples.mediaFiles().filter { ["heic", "heif"].contains($0.pathExtension.lowercased()) }
        var compared = 0
        for url in files {
            guard let shown = FileFacts(MediaFile.inspect(path: url.path, options: .check)).capture?.displayedSize else { continue }
            let script = "import sys,pillow_heif\nf=pillow_heif.open_heif(sys.argv[1])\nprint(f.size[0], f.size[1])"
            let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script, url.path])
            guard result.status == 0 else { continue }
            #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(shown.width) \(shown.height)", "\(url.path)")
            compared += 1
        }
        #expect(compared >= 5)
    }
}
