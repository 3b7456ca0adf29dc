import Foundation
@testable import LivePhotoCheck
import LivePhotoFormats
import Testing

/// Capture times and places as files write them: read strictly (a text of another form is nil,
/// never a guess), and the calendar arithmetic held to Foundation's.
struct CaptureTimeTextTests {
    static func foundationSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Double? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))?.timeIntervalSince1970
    }

    @Test("days since 1970 and back agree with Foundation's Gregorian calendar from 1900 to 2400, leap days included")
    func calendar() throws {
        var day = try #require(Self.foundationSeconds(1900, 1, 1)) / 86_400
        let end = try #require(Self.foundationSeconds(2400, 12, 31)) / 86_400
        var checked = 0
        while day <= end {
            let (year, month, dayOfMonth) = CaptureTimeText.civil(daysSince1970: Int(day))
            #expect(Double(CaptureTimeText.daysSince1970(year: year, month: month, day: dayOfMonth)) == day)
            if checked % 97 == 0 { #expect(Self.foundationSeconds(year, month, dayOfMonth) == day * 86_400, "\(year)-\(month)-\(dayOfMonth)") }
            day += 1
            checked += 1
        }
        #expect(checked > 182_000)
    }

    @Test("EXIF dates with sub-seconds and zones; what is not a date is nil")
    func exif() throws {
        let time = try #require(CaptureTimeText.exif(date: "2024:02:29 23:59:59", subSeconds: "5", offset: "-03:30"))
        let leapDay = try #require(Self.foundationSeconds(2024, 2, 29, 23, 59, 59))
        #expect(time.clock == leapDay + 0.5)
        #expect(time.offset == -12_600)
        #expect(time.source == "EXIF DateTimeOriginal + SubSecTimeOriginal + OffsetTimeOriginal")
        #expect(time.text == "2024-02-29 23:59:59.500 -03:30")
        // A zone or fraction that does not read is left out, and the source says so.
        let loose = try #require(CaptureTimeText.exif(date: "2021:04:10 11:44:00", subSeconds: "8a", offset: "+1:00"))
        let april = try #require(Self.foundationSeconds(2021, 4, 10, 11, 44, 0))
        #expect(loose.offset == nil && loose.clock == april)
        #expect(loose.source == "EXIF DateTimeOriginal")
        for bad in ["2023:02:29 10:00:00", "2023:13:01 10:00:00", "2023:01:01 24:00:00", "0000:00:00 00:00:00", "    :  :     :  :  ",
                    "2023-01-01 10:00:00", "2023:01:01", "", "2023:01:01 10:00:0x"] {
            #expect(CaptureTimeText.exif(date: bad, subSeconds: nil, offset: nil) == nil, "\(bad)")
        }
    }

    @Test("ISO 8601 as QuickTime keys write it: zones as ±HHMM, ±HH:MM, ±HH, Z or none; fractions; anything else nil")
    func iso8601() throws {
        let base = try #require(Self.foundationSeconds(2025, 10, 12, 23, 36, 14))
        let cases: [(String, Double, Int?)] = [
            ("2025-10-12T23:36:14+1300", base, 46_800), ("2025-10-12T23:36:14+13:00", base, 46_800), ("2025-10-12T23:36:14+13", base, 46_800),
            ("2025-10-12T23:36:14Z", base, 0), ("2025-10-12T23:36:14", base, nil), ("2025-10-12T23:36:14.250-0530", base + 0.25, -19_800),
            ("2025-10-12 23:36:14+0000", base, 0),
        ]
        for (text, clock, offset) in cases {
            let time = try #require(CaptureTimeText.iso8601(text, source: "test"), "\(text)")
            #expect(time.clock == clock && time.offset == offset, "\(text)")
        }
        for bad in ["2025-10-12T23:36:14+1", "2025-10-12T23:36:14+19:00", "2025-10-12T23:36:14 +1300", "2025-10-12T23:36:14Zx", "2025/10/12T23:36:14",
                    "2025-10-12T23:36:14.", "2025-10-12T23:36:14+13:0"] {
            #expect(CaptureTimeText.iso8601(bad, source: "test") == nil, "\(bad)")
        }
    }

    @Test("ISO 6709 places with and without altitude; out of range or malformed is nil")
    func iso6709() throws {
        let place = try #require(CaptureTimeText.iso6709("-37.7890+175.2995+035.332/"))
        #expect(abs(place.0 + 37.789) < 1e-9 && abs(place.1 - 175.2995) < 1e-9)
        let plain = try #require(CaptureTimeText.iso6709("+52.2097-000.8955/"))
        #expect(abs(plain.0 - 52.2097) < 1e-9 && abs(plain.1 + 0.8955) < 1e-9)
        for bad in ["", "+", "52.2097-000.8955/", "+95.0+010.0/", "+10.0+190.0/", "+10.0", "+.+./"] {
            #expect(CaptureTimeText.iso6709(bad) == nil, "\(bad)")
        }
    }

    @Test("agreement modulo a zone: whole quarter hours up to 14 h explain a difference, nothing else does")
    func moduloZone() {
        let window = CaptureAgreement.window
        #expect(CaptureAgreement.agreesModuloZone(46_800.75, window: window))
        #expect(CaptureAgreement.agreesModuloZone(-34_200 + 1, window: window))
        #expect(CaptureAgreement.agreesModuloZone(20_700 + 2, window: window))
        #expect(!CaptureAgreement.agreesModuloZone(46_800 + 420, window: window))
        #expect(!CaptureAgreement.agreesModuloZone(15 * 3_600, window: window))
        #expect(!CaptureAgreement.agreesModuloZone(86_400, window: window))
    }
}
