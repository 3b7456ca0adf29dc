import Foundation
import LivePhotoFormats

/// What a file says of its capture, for comparing a still with its movie (the agreement rules):
/// when, on which device, where, and how its picture is shown. A part is nil when the file does
/// not say it, or says it in a form lpcheck does not read.
///
/// An object, not a value: eight rules read both sides of every pair, and a reference is one
/// retain where a value was a copy of its strings each time. It is filled once by its reader
/// (or an example, or the cache's decoder) and never changed once it is in facts: its setters
/// are the module's own. So no two accesses overlap, and the runtime's exclusivity check (a
/// thread-local access set at every read of a class's stored property) is left out.
public final class CaptureFacts: Codable, Equatable, @unchecked Sendable {
    /// The capture time: the still's DateTimeOriginal (+ SubSecTimeOriginal, OffsetTimeOriginal),
    /// the movie's `com.apple.quicktime.creationdate` key.
    @exclusivity(unchecked) public internal(set) var time: CaptureTime?
    /// A movie's `mvhd` creation time, seconds since 1970 UTC: a weak witness (exports and
    /// re-saves rewrite it).
    @exclusivity(unchecked) public internal(set) var headerTime: Double?
    /// EXIF Make, Model and Software, or the movie's `com.apple.quicktime.make`, `.model`,
    /// `.software` keys.
    @exclusivity(unchecked) public internal(set) var make: String?
    @exclusivity(unchecked) public internal(set) var model: String?
    @exclusivity(unchecked) public internal(set) var software: String?
    /// GPS position in degrees (north and east positive): EXIF GPS, or the movie's
    /// `com.apple.quicktime.location.ISO6709` key.
    @exclusivity(unchecked) public internal(set) var latitude: Double?
    @exclusivity(unchecked) public internal(set) var longitude: Double?
    /// The stored picture's size (JPEG frame header, HEIF `ispe`, the video track's `tkhd`).
    @exclusivity(unchecked) public internal(set) var size: PixelSize?
    /// Clockwise quarter turns it is shown with (EXIF Orientation, HEIF `irot`, the track
    /// matrix); nil when unknown or not a quarter turn.
    @exclusivity(unchecked) public internal(set) var quarterTurns: Int?
    /// Whether a still is shown mirrored (left and right swapped) before those turns: EXIF
    /// Orientation 2, 4, 5 and 7, HEIF `imir` composed with `irot` in their order; nil for movies
    /// and where the turns are unknown.
    @exclusivity(unchecked) public internal(set) var mirrored: Bool?
    /// A sidecar's date that is no time lpcheck can use (not a number, not finite, a year
    /// outside 1900-9999), with the text it gave: said by `sidecar-time-unusable`, never taken.
    @exclusivity(unchecked) public internal(set) var unusableTime: String?

    public init() {}

    /// Every part at once (the cache's decoder).
    public init(time: CaptureTime?, headerTime: Double?, make: String?, model: String?, software: String?, latitude: Double?, longitude: Double?,
                size: PixelSize?, quarterTurns: Int?, mirrored: Bool? = nil, unusableTime: String? = nil) {
        (self.time, self.headerTime, self.make, self.model, self.software) = (time, headerTime, make, model, software)
        (self.latitude, self.longitude, self.size, self.quarterTurns, self.unusableTime) = (latitude, longitude, size, quarterTurns, unusableTime)
        self.mirrored = mirrored
    }

    public static func == (lhs: CaptureFacts, rhs: CaptureFacts) -> Bool {
        lhs.time == rhs.time && lhs.headerTime == rhs.headerTime && lhs.make == rhs.make && lhs.model == rhs.model && lhs.software == rhs.software
            && lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude && lhs.size == rhs.size && lhs.quarterTurns == rhs.quarterTurns
            && lhs.mirrored == rhs.mirrored && lhs.unusableTime == rhs.unusableTime
    }

    /// The size as shown: width and height swapped by an odd number of quarter turns.
    public var displayedSize: PixelSize? {
        guard let size, let turns = quarterTurns else { return nil }
        return turns % 2 == 0 ? size : PixelSize(width: size.height, height: size.width)
    }

    /// The parts as lines of text (`dump`): only what the file says.
    public var lines: [String] {
        var lines: [String] = []
        if let time { lines.append("time: \(time.text) (\(time.source))\(time.offset == nil ? ", zone unknown" : "")") }
        if let headerTime { lines.append("mvhd creation time: \(CaptureTimeText.display(clock: headerTime, offset: nil)) UTC") }
        let device = [make, model].compactMap { $0 }.joined(separator: " ")
        if !device.isEmpty || software != nil { lines.append("device: \(device.isEmpty ? "?" : device)\(software.map { ", software \($0)" } ?? "")") }
        if let latitude, let longitude { lines.append("place: \(SecondsText.format(latitude, decimals: 6)), \(SecondsText.format(longitude, decimals: 6))") }
        if let size {
            let shown = displayedSize.map { "\($0.width)×\($0.height)" } ?? "unknown (not a quarter turn)"
            lines.append("picture: \(size.width)×\(size.height) stored, \(mirrored == true ? "mirrored, " : "")\(quarterTurns.map { "turned \($0 * 90)°, " } ?? "")shown \(shown)")
        }
        return lines
    }

    /// Why these capture facts cannot have come from the readers (records and cache rows are
    /// checked): a clock past year 9999 or before 1900 (EXIF and ISO 8601 give four-digit years),
    /// a zone past ±18 h, a header time no 64-bit field gives, a place off the globe, a size or
    /// turn no reader gives.
    var implausibility: String? {
        if let time, !time.clock.isFinite || time.clock < -2_300_000_000 || time.clock > 253_402_300_800 || abs(time.offset ?? 0) > 64_800 {
            return "capture time \(time.clock) (zone \(time.offset.map(String.init) ?? "none")) out of range"
        }
        if let headerTime, !headerTime.isFinite || headerTime < -Self.quickTimeEpoch || headerTime > MovieFacts.longestTime {
            return "movie header time \(headerTime) out of range"
        }
        if let latitude, !(latitude.isFinite && abs(latitude) <= 90) { return "latitude \(latitude) out of range" }
        if let longitude, !(longitude.isFinite && abs(longitude) <= 180) { return "longitude \(longitude) out of range" }
        if let size, size.width < 1 || size.height < 1 || size.width > Int(Int32.max) || size.height > Int(Int32.max) { return "picture size out of range" }
        if let quarterTurns, !(0...3).contains(quarterTurns) { return "quarter turns \(quarterTurns) out of range" }
        return nil
    }

    /// Whether nothing was found.
    public var isEmpty: Bool {
        time == nil && headerTime == nil && make == nil && model == nil && software == nil && latitude == nil && longitude == nil && size == nil
            && quarterTurns == nil && mirrored == nil && unusableTime == nil
    }
}

/// A capture time as a file writes it.
public struct CaptureTime: Sendable, Codable, Equatable {
    /// Where it was read, as the file names it (one of a few fixed texts).
    public var source: String
    /// The wall clock as written: seconds since 1970-01-01 00:00 of that clock.
    public var clock: Double
    /// The zone's offset east of UTC in seconds; nil when the file does not say.
    public var offset: Int?

    public init(source: String, clock: Double, offset: Int?) {
        (self.source, self.clock, self.offset) = (source, clock, offset)
    }

    /// Seconds since 1970 UTC, when the zone is known.
    public var instant: Double? { offset.map { clock - Double($0) } }

    /// As messages show it: `2025-10-12 23:36:14.753 +13:00` (milliseconds when there are
    /// any, the zone when known).
    public var text: String { CaptureTimeText.display(clock: clock, offset: offset) }

    /// As a camera writes `com.apple.quicktime.creationdate`: whole seconds and the zone,
    /// `2025-10-12T23:36:14+1300`; nil when the zone is unknown.
    public var keyText: String? {
        guard let offset else { return nil }
        let shown = CaptureTimeText.display(clock: clock.rounded(.down), offset: offset)
        // `2025-10-12 23:36:14 +13:00` → `2025-10-12T23:36:14+1300`.
        let parts = shown.split(separator: " ")
        guard parts.count == 3 else { return nil }
        return parts[0] + "T" + parts[1] + parts[2].replacingOccurrences(of: ":", with: "")
    }

    /// As EXIF writes it: DateTimeOriginal (`2025:10:12 23:36:14`), SubSecTimeOriginal (the
    /// milliseconds, when there are any) and OffsetTimeOriginal (`+13:00`, when the zone is known).
    public var exifTexts: (date: String, subSeconds: String?, offset: String?)? {
        let shown = CaptureTimeText.display(clock: clock, offset: offset)
        // `2025-10-12 23:36:14.753 +13:00`.
        let parts = shown.split(separator: " ")
        guard parts.count >= 2, parts[0].count == 10 else { return nil }
        let time = parts[1].split(separator: ".")
        return (parts[0].replacingOccurrences(of: "-", with: ":") + " " + time[0], time.count > 1 ? String(time[1]) : nil,
                parts.count > 2 ? String(parts[2]) : nil)
    }

    static let keysSource = "Keys com.apple.quicktime.creationdate"
    /// The EXIF fields read: DateTimeOriginal, with SubSecTimeOriginal and OffsetTimeOriginal
    /// when they were (fixed texts: nothing is built for a file).
    static func exifSource(subSeconds: Bool, zone: Bool) -> String {
        switch (subSeconds, zone) {
        case (false, false): return "EXIF DateTimeOriginal"
        case (true, false): return "EXIF DateTimeOriginal + SubSecTimeOriginal"
        case (false, true): return "EXIF DateTimeOriginal + OffsetTimeOriginal"
        case (true, true): return "EXIF DateTimeOriginal + SubSecTimeOriginal + OffsetTimeOriginal"
        }
    }
}

/// The QuickTime keys the capture facts read, told apart on their bytes: `com.apple.quicktime.`
/// and a known name.
enum QuickTimeCaptureKey {
    case make, model, software, creationDate, location

    private static let prefix = Array("com.apple.quicktime.".utf8)

    /// Matched by length first (one candidate each), then compared in place.
    init?(_ key: String) {
        var key = key
        let found: QuickTimeCaptureKey? = key.withUTF8 { bytes in
            let prefix = Self.prefix
            guard bytes.count > prefix.count, let base = bytes.baseAddress,
                  prefix.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp(base, $0, prefix.count) == 0 } ?? false }) else { return nil }
            let (candidate, name): (QuickTimeCaptureKey, StaticString)
            switch bytes.count - prefix.count {
            case 4: (candidate, name) = (.make, "make")
            case 5: (candidate, name) = (.model, "model")
            case 8: (candidate, name) = (.software, "software")
            case 12: (candidate, name) = (.creationDate, "creationdate")
            case 16: (candidate, name) = (.location, "location.ISO6709")
            default: return nil
            }
            return memcmp(base + prefix.count, name.utf8Start, name.utf8CodeUnitCount) == 0 ? candidate : nil
        }
        guard let found else { return nil }
        self = found
    }
}

extension CaptureFacts {
    /// Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01.
    static let quickTimeEpoch: Double = 2_082_844_800

    /// A still's: EXIF dates, device, GPS, Orientation (JPEG) or `irot` (HEIF), picture size.
    public convenience init(still: Still) {
        self.init()
        // Read through the still's optionals in place (a copy of its TIFF or HEIF structure
        // retains every part of it).
        make = still.tiff?.make
        model = still.tiff?.model
        software = still.tiff?.software
        latitude = still.tiff?.capture.latitude
        longitude = still.tiff?.capture.longitude
        if let date = still.tiff?.capture.dateTimeOriginal {
            time = CaptureTimeText.exif(date: date, subSeconds: still.tiff?.capture.subSecTimeOriginal, offset: still.tiff?.capture.offsetTimeOriginal)
        }
        if still.jpeg != nil {
            size = still.jpeg?.frameSize
            if size != nil {
                let orientation = still.tiff?.capture.orientation ?? 1
                (quarterTurns, mirrored) = (Self.quarterTurns(orientation: orientation), [2, 4, 5, 7].contains(orientation))
            }
        } else if still.heif?.primaryImage != nil {
            size = still.heif?.primaryImage?.size
            (quarterTurns, mirrored) = Self.shown(still.heif?.primaryImage?.transforms ?? [])
        }
    }

    /// Takeout's seconds of 1900-01-01 and of 9999-12-31 23:59:59 UTC: the years a capture
    /// time is read in, as EXIF's.
    static let takeoutSeconds: ClosedRange<Double> = -2_208_988_800...253_402_300_799

    /// A sidecar's: the capture time it states (Takeout's Unix seconds are an instant in UTC;
    /// XMP's ISO 8601 or EXIF text with its zone when it gives one), or, when the text is no
    /// time lpcheck can use, `unusableTime` saying so.
    public convenience init(sidecar: SidecarDate) {
        self.init()
        let shown = String(sidecar.text.prefix(64))
        switch sidecar.kind {
        case .takeout:
            guard let seconds = Double(sidecar.text), seconds.isFinite, Self.takeoutSeconds.contains(seconds) else {
                unusableTime = "\(sidecar.field) \"\(shown)\" is no time from 1900 to 9999 in Unix seconds"
                return
            }
            time = CaptureTime(source: "Takeout photoTakenTime", clock: seconds.rounded(.down), offset: 0)
        case .xmp:
            let source = "XMP " + sidecar.field
            guard var read = CaptureTimeText.iso8601(sidecar.text, source: source) ?? CaptureTimeText.exif(date: sidecar.text, subSeconds: nil, offset: nil) else {
                unusableTime = "\(sidecar.field) \"\(shown)\" is no date from 1900 to 9999 (EXIF or ISO 8601)"
                return
            }
            read.source = source
            time = read
        }
    }

    /// A movie's: the Keys date, device and place, `mvhd`'s time, the first video track's size
    /// and matrix.
    public convenience init(movie: Movie) {
        self.init()
        // One pass over the keys, each matched on its bytes (no key string is built, no item
        // copied).
        for index in movie.metadata.indices {
            guard let key = QuickTimeCaptureKey(movie.metadata[index].key), let text = movie.metadata[index].value.stringValue else { continue }
            switch key {
            case .make: make = make ?? text
            case .model: model = model ?? text
            case .software: software = software ?? text
            case .creationDate: time = time ?? CaptureTimeText.iso8601(text, source: CaptureTime.keysSource)
            case .location: if latitude == nil, let place = CaptureTimeText.iso6709(text) { (latitude, longitude) = place }
            }
        }
        if movie.creationTime > 0 { headerTime = Double(movie.creationTime) - Self.quickTimeEpoch }
        // The track found by index and read in place (a copy of a track retains its tables).
        if let video = movie.tracks.firstIndex(where: { $0.isVideo && $0.width >= 1 && $0.height >= 1 }),
           let width = Int(exactly: movie.tracks[video].width.rounded()), let height = Int(exactly: movie.tracks[video].height.rounded()) {
            size = PixelSize(width: width, height: height)
            // The eight orientations (mirrored ones too), as the still's Exif Orientation counts them.
            quarterTurns = movie.tracks[video].matrix.exifOrientation.map(Self.quarterTurns(orientation:))
        }
    }

    /// EXIF Orientation as clockwise quarter turns of the shown picture (mirrors aside: they
    /// do not swap width and height).
    /// HEIF transforms, applied in their order, as clockwise quarter turns after an optional
    /// left-right mirror: a further turn adds to the turns; a left-right mirror after them (T·M)
    /// is the mirror before the opposite turns (M·T⁻¹); a top-bottom mirror is a half turn after
    /// a left-right one.
    static func shown(_ transforms: [ImageProperties.Transform]) -> (turns: Int, mirrored: Bool) {
        var (turns, mirrored) = (0, false)
        for transform in transforms {
            switch transform {
            case .rotation(let anticlockwise): turns += 4 - (anticlockwise & 3)
            case .mirror(let axis): (turns, mirrored) = ((axis == 0 ? 0 : 2) - turns, !mirrored)
            }
            turns = ((turns % 4) + 4) % 4
        }
        return (turns, mirrored)
    }

    static func quarterTurns(orientation: UInt16) -> Int {
        switch orientation {
        case 3, 4: return 2
        case 5, 8: return 3
        case 6, 7: return 1
        default: return 0
        }
    }
}
