/// Capture times and places as files write them, read strictly: a text that does not have the
/// form is nil, never a guess. Bytes, not a date formatter: these run on every file of a check.
enum CaptureTimeText {
    /// EXIF `YYYY:MM:DD HH:MM:SS`, SubSecTime digits, OffsetTime `±HH:MM`.
    static func exif(date: String, subSeconds: String?, offset: String?) -> CaptureTime? {
        var date = date
        guard var clock = date.withUTF8({ bytes -> Double? in
            guard bytes.count >= 19, bytes[4] == UInt8(ascii: ":"), bytes[7] == UInt8(ascii: ":"), bytes[10] == UInt8(ascii: " "),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
            return clockSeconds(bytes, date: (0, 5, 8), time: (11, 14, 17))
        }) else { return nil }
        var subSecond: Double?
        if var subSeconds { subSecond = subSeconds.withUTF8 { Self.fraction($0[...]) } }
        clock += subSecond ?? 0
        var zone: Int?
        if var offset { zone = offset.withUTF8 { Self.zoneOffset($0[...]) } }
        return CaptureTime(source: CaptureTime.exifSource(subSeconds: subSecond != nil, zone: zone != nil), clock: clock, offset: zone)
    }

    /// ISO 8601 as QuickTime keys write it: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z`,
    /// `±HHMM`, `±HH:MM` or `±HH` (or nothing: zone unknown).
    static func iso8601(_ text: String, source: String) -> CaptureTime? {
        var text = text
        return text.withUTF8 { bytes -> CaptureTime? in
            guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  var clock = clockSeconds(bytes, date: (0, 5, 8), time: (11, 14, 17)) else { return nil }
            var rest = bytes[19...]
            if rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ",") {
                let digits = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
                guard let fraction = fraction(digits) else { return nil }
                clock += fraction
                rest = rest[digits.endIndex...]
            }
            var zone: Int?
            if rest.first == UInt8(ascii: "Z") && rest.count == 1 {
                zone = 0
            } else if !rest.isEmpty {
                guard let seconds = zoneOffset(rest) else { return nil }
                zone = seconds
            }
            return CaptureTime(source: source, clock: clock, offset: zone)
        }
    }

    /// ISO 6709 as QuickTime writes it: `±DD.DDDD±DDD.DDDD` then an optional altitude and `/`.
    static func iso6709(_ text: String) -> (Double, Double)? {
        var text = text
        return text.withUTF8 { bytes -> (Double, Double)? in
            /// `±digits[.digits]` from `start`: its value and where it ends (at most 15 digits).
            func signed(_ start: Int) -> (value: Double, end: Int)? {
                guard start < bytes.count, bytes[start] == UInt8(ascii: "+") || bytes[start] == UInt8(ascii: "-") else { return nil }
                // The digits as one integer, divided once by the power of ten of the decimals:
                // the value correctly rounded, as a decimal reader gives it.
                var end = start + 1, number: Int64 = 0, decimals = 0, digits = 0, point = false
                while end < bytes.count, digits < 15 {
                    let byte = bytes[end]
                    if (0x30...0x39).contains(byte) {
                        number = number * 10 + Int64(byte - 0x30)
                        if point { decimals += 1 }
                        digits += 1
                    } else if byte == UInt8(ascii: "."), !point {
                        point = true
                    } else {
                        break
                    }
                    end += 1
                }
                guard digits > 0 else { return nil }
                var scale = 1.0
                for _ in 0..<decimals { scale *= 10 }
                let value = Double(number) / scale
                return (bytes[start] == UInt8(ascii: "-") ? -value : value, end)
            }
            guard let latitude = signed(0), let longitude = signed(latitude.end),
                  abs(latitude.value) <= 90, abs(longitude.value) <= 180 else { return nil }
            return (latitude.value, longitude.value)
        }
    }

    /// Seconds since 1970-01-01 00:00 of the clock, from fixed-width fields at the given
    /// positions; nil for a field out of range.
    static func clockSeconds(_ bytes: UnsafeBufferPointer<UInt8>, date: (Int, Int, Int), time: (Int, Int, Int)) -> Double? {
        func number(_ start: Int, _ width: Int) -> Int? {
            var value = 0
            for index in start..<(start + width) {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(date.0, 4), let month = number(date.1, 2), let day = number(date.2, 2),
              let hour = number(time.0, 2), let minute = number(time.1, 2), let second = number(time.2, 2),
              year >= 1900, (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        return Double(daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// `2025-10-12 23:36:14.753 +13:00`: the clock's date and time (milliseconds when there are
    /// any), and the zone when known.
    static func display(clock: Double, offset: Int?) -> String {
        guard clock.isFinite, abs(clock) < 1e13 else { return "(a time out of range)" }
        let milliseconds = Int64((clock * 1_000).rounded())
        let seconds = Int(milliseconds.quotientAndRemainder(dividingBy: 1_000).quotient) - (milliseconds % 1_000 < 0 ? 1 : 0)
        let fraction = Int((milliseconds % 1_000 + 1_000) % 1_000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civil(daysSince1970: days)
        let inDay = seconds - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year)-\(two(month))-\(two(day)) \(two(inDay / 3_600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))"
        if fraction != 0 { text += "." + String(String(1_000 + fraction).dropFirst()) }
        if let offset { text += " " + CaptureAgreement.zone(offset) }
        return text
    }

    /// The date of a day counted from 1970-01-01 (the inverse of `daysSince1970`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: whole 400-year eras
    /// (146,097 days each) from 0000-03-01, with years starting in March so February ends them.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `0.` followed by the digits (at most 9 read), nil for none or a non-digit.
    static func fraction(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        let trimmed = digits.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0.0, scale = 1.0
        for digit in trimmed.prefix(9) {
            scale /= 10
            value += Double(digit - 0x30) * scale
        }
        return value
    }

    /// `±HH:MM`, `±HHMM` or `±HH` as seconds east of UTC; nil for any other form or more than 18 h.
    static func zoneOffset(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let body = bytes.dropFirst()
        let colon = body.count == 5 && body[body.startIndex + 2] == UInt8(ascii: ":")
        guard body.count == 2 || body.count == 4 || colon else { return nil }
        func digit(_ offset: Int) -> Int? {
            let byte = body[body.startIndex + offset]
            return (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
        }
        guard let h1 = digit(0), let h2 = digit(1) else { return nil }
        var minutes = 0
        if body.count > 2 {
            let first = colon ? 3 : 2
            guard let m1 = digit(first), let m2 = digit(first + 1) else { return nil }
            minutes = m1 * 10 + m2
        }
        let hours = h1 * 10 + h2
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = hours * 3_600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }
}
