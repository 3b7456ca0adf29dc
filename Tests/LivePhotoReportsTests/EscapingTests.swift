import LivePhotoFormats
@testable import LivePhotoReports
import Testing

/// The byte-level escapes of reports against their definitions scalar by scalar: the same text
/// for every string, hostile ones included (controls, C1, separators, entities, non-characters,
/// raw file-name bytes, emoji, combining marks, bidirectional controls).
struct EscapingTests {
    /// The bidirectional formatting characters: shown raw, they reorder the text after them.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// XML/HTML text as the reports define it.
    static func markupReference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if scalar.value >= 0x10FF80 {
                    out += "\\x" + String(UInt8(scalar.value - 0x10FF80) | 0x80, radix: 16, uppercase: true)
                } else if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF || isBidiControl(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Terminal text as the reports define it.
    static func terminalReference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x10FF80 {
                out += "\\x" + String(UInt8(scalar.value - 0x10FF80) | 0x80, radix: 16, uppercase: true)
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" || isBidiControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static let pieces = [
        "", "plain", "IMG_0001.HEIC", "a&b", "<script>alert('x')</script>", "\"quoted\"", "tab\tline\nreturn\r",
        "\u{0}\u{1}\u{1B}[31m\u{1F}", "\u{7F}\u{80}\u{85}\u{9F}\u{A0}", "\u{2026}\u{2028}\u{2029}\u{2030}", "\u{FFFD}\u{FFFE}\u{FFFF}",
        "é\u{301}", "👩‍👩‍👧", "日本語", "\u{EFBF}", "\u{10FFFF}",
        "IMG_\u{202E}GPJ.exe", "\u{200E}\u{200F}\u{061C}\u{202A}\u{202D}\u{2066}\u{2069}", "\u{200D}\u{2060}\u{206A}\u{0600}",
    ]

    /// Every piece alone and every pair joined, plus file names with raw (non-UTF-8) bytes.
    static var texts: [String] {
        var texts = pieces
        for left in pieces { for right in pieces { texts.append(left + right) } }
        for bytes: [UInt8] in [[0x66, 0xFF, 0x67], [0x80], [0xC3, 0x28, 0xE2, 0x80], [0xF4, 0x8F, 0xBE], [0x2F, 0xFE, 0x26, 0x3C]] {
            let name = PathBytes.string(bytes)
            texts += [name, "a<" + name + ">b", name + "\u{2028}"]
        }
        return texts
    }

    @Test("JSON integers are written digit by digit as Swift prints them, at both ends of their range")
    func jsonIntegers() {
        // A thousand values spread over the whole range (a fixed sequence: a failure repeats).
        let signed: [Int64] = [0, 7, -7, 9, 10, -10, 99, 100, 1_466_666, Int64.max, Int64.min, Int64.min + 1]
            + (1...1_000).map { Int64(bitPattern: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) >> ($0 % 64) }
        for value in signed { #expect(JSONValue.int(value).serialized() == String(value)) }
        for value: UInt64 in [0, 1, 10, UInt64.max, UInt64(Int64.max) + 1] { #expect(JSONValue.uint(value).serialized() == String(value)) }
    }

    @Test("JSON numbers with a fraction are Swift's shortest text; whole ones below 10^15 its integer text; NaN and infinities null")
    func jsonDoubles() {
        let values: [Double] = [0, -0.0, 1, -1, -3, 0.5, -0.5, 1.5021666666666666, 0.1, 1e-7, 999_999_999_999_999, -999_999_999_999_999,
                                1e15, -1e15, 1.7976931348623157e308, Double.leastNonzeroMagnitude]
            + (1...500).map { Double(bitPattern: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }.filter(\.isFinite)
            + (1...500).map { Double(Int64($0) &* 7_919 - 1_000_000) / 8 }
        for value in values {
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            #expect(JSONValue.double(value).serialized() == expected, "\(value)")
        }
        for value in [Double.nan, .infinity, -.infinity] { #expect(JSONValue.double(value).serialized() == "null") }
    }

    @Test("Markup.escape and terminalSafe equal their scalar-by-scalar definitions on every test string")
    func differential() {
        var rawSeen = false
        for text in Self.texts {
            #expect(Markup.escape(text) == Self.markupReference(text), "\(Array(text.utf8))")
            #expect(text.terminalSafe == Self.terminalReference(text), "\(Array(text.utf8))")
            if text.unicodeScalars.contains(where: { $0.value >= 0x10FF80 && $0.value < 0x110000 }) { rawSeen = true }
        }
        #expect(rawSeen, "no test string held a raw file-name byte")
        #expect(Markup.escape("<a href='x'>") == "&lt;a href=&#39;x&#39;&gt;")
        #expect("\u{1B}[2J".terminalSafe == "\\u{1b}[2J")
    }

    @Test("JSON strings equal their scalar-by-scalar escaping on every test string (plain strings copied whole included)")
    func jsonStrings() {
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x00..<0x20, 0x7F, 0x3C, 0x3E, 0x26, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: out += hex(scalar.value)
                case 0x10FF80...0x10FFFF: out += hex(0xDC00 | (0x80 | (scalar.value - 0x10FF80)))
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for text in Self.texts {
            #expect(JSONValue.string(text).serialized() == reference(text), "\(Array(text.utf8))")
        }
    }

    @Test("SARIF artifact URIs percent-encode a file name's own bytes: IMG_\\xE9.HEIC is IMG_%E9.HEIC, é in UTF-8 is %C3%A9")
    func sarifURIsOfRawNames() {
        #expect(CheckSARIF.uri(PathBytes.string(Array("lib/IMG_".utf8) + [0xE9] + Array(".HEIC".utf8))) == "lib/IMG_%E9.HEIC")
        #expect(CheckSARIF.uri("lib/IMG_é 1.HEIC") == "lib/IMG_%C3%A9%201.HEIC")
    }
}
