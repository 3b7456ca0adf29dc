import LivePhotoFormats

/// A JSON document with ordered object keys, so reports are stable byte for byte.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
    public static func optional(_ number: Double?) -> JSONValue { number.map(JSONValue.double) ?? .null }

    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// Serialises with two-space indentation (`pretty`) or compactly.
    public func serialized(pretty: Bool = true) -> String { serialized(indent: pretty ? 0 : nil) }

    /// Serialises as if nested `indent` levels deep (nil: compactly), for streaming a document
    /// part by part, with the given escaping of strings.
    public func serialized(indent: Int?, escaping: Escaping = .report) -> String { serialized(indent: indent, after: "", escaping: escaping) }

    /// `prefix` and the serialisation in one string (a streamed piece and its separator are
    /// not joined afterwards, which copied every item of a report once more).
    func serialized(indent: Int?, after prefix: String, escaping: Escaping = .report) -> String {
        var writer = JSONWriter(indent: indent, escaping: escaping, prefix: prefix)
        writer.value(self)
        return writer.text
    }

    /// How strings are escaped.
    public enum Escaping: Sendable {
        /// Reports: quotes, backslashes and controls, and also `<`, `>`, `&`, DEL and
        /// U+2028/U+2029 (so the JSON can sit inside HTML and a script), and a file-name byte
        /// that is not UTF-8 as `\udcXX` (Python's os.fsdecode convention).
        case report
        /// The scan records: only what RFC 8259 requires (quotes, backslashes, controls; `\b`,
        /// `\f`, `\n`, `\r`, `\t` in their short forms), as Foundation's JSONEncoder writes
        /// them; a file-name byte that is not UTF-8 stays its private-use character, which every
        /// JSON reader accepts.
        case minimal
    }

    /// RFC 8259 string escaping; with `html` (`Escaping.report`), more (see there).
    static func escape(_ text: String, into out: inout [UInt8], html: Bool = true) {
        out.append(UInt8(ascii: "\""))
        // Most strings of a report (keys, paths, identifiers) need no escape: one pass over the
        // bytes finds that, and they are copied whole.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var needs = false
            let mask: UInt8 = html ? Self.reportClass : Self.minimalClass
            Self.escapeClasses.withUnsafeBufferPointer { table in
                for byte in bytes where table[Int(byte)] & mask != 0 {
                    needs = true
                    break
                }
            }
            if !needs { out.append(contentsOf: bytes) }
            return !needs
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        var text = text
        let mask: UInt8 = html ? Self.reportClass : Self.minimalClass
        text.withUTF8 { bytes in Self.escapeClasses.withUnsafeBufferPointer { table in
            // Copies runs of plain bytes at once; escapes quotes, backslashes, controls, the HTML
            // specials and U+2028/U+2029 (E2 80 A8/A9), so a report can sit inside a <script>.
            var runStart = 0
            var index = 0
            func flush() { out.append(contentsOf: bytes[runStart..<index]) }
            while index < bytes.count {
                let byte = bytes[index]
                // Most bytes of paths and messages need nothing: one table look-up each.
                guard table[Int(byte)] & mask != 0 else {
                    index += 1
                    continue
                }
                var width = 1
                let escaped: [UInt8]?
                switch byte {
                case UInt8(ascii: "\""): escaped = [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): escaped = [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\n"): escaped = [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): escaped = [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): escaped = [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0x08 where !html: escaped = [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C where !html: escaped = [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x00..<0x20, 0x7F:
                    escaped = unicodeEscape(UInt32(byte))
                case 0xF4 where index + 3 < bytes.count && bytes[index + 1] == 0x8F && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                    // A file-name byte that is not UTF-8 (PathBytes): `\udcXX`, as Python's
                    // os.fsdecode writes it, so `os.fsencode(json.loads(...))` gives the bytes back.
                    let raw = 0x80 | (bytes[index + 2] & 0x01) << 6 | (bytes[index + 3] & 0x3F)
                    escaped = unicodeEscape(0xDC00 | UInt32(raw))
                    width = 4
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escaped = unicodeEscape(0x2000 | UInt32(bytes[index + 2] - 0x80))
                    width = 3
                case 0xD8, 0xE2:
                    // Bidirectional controls as `\u202e`: the same string, and a report shown
                    // in a terminal or a page cannot reorder its text.
                    let control = EscapeWriter.bidiControl(bytes, at: index)
                    escaped = control.map { unicodeEscape($0.value) }
                    width = control?.width ?? 1
                default:
                    escaped = nil
                }
                if let escaped {
                    flush()
                    out += escaped
                    index += width
                    runStart = index
                } else {
                    index += 1
                }
            }
            flush()
        } }
        out.append(UInt8(ascii: "\""))
    }

    /// The bytes the escape switch looks at, one table for both escapings (a bit each):
    /// `reportClass` quotes, backslash, controls, the HTML specials, DEL, and the lead bytes of
    /// U+2028/U+2029 (E2) and of raw file-name bytes (F4); `minimalClass` quotes, backslash,
    /// controls.
    private static let escapeClasses: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in 0..<0x20 { table[byte] = reportClass | minimalClass }
        for byte in "\"\\".utf8 { table[Int(byte)] = reportClass | minimalClass }
        for byte: UInt8 in [0x7F, 0xD8, 0xE2, 0xF4] { table[Int(byte)] = reportClass }
        for byte in "<>&".utf8 { table[Int(byte)] = reportClass }
        return table
    }()
    private static let reportClass: UInt8 = 1, minimalClass: UInt8 = 2

    /// `\u` and four lower-case hexadecimal digits.
    static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        Array(("\\u" + String(value, radix: 16).leftPadded(4)).utf8)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// Text from a file made safe for a terminal: control characters (escape sequences
    /// included) are shown as `\u{..}` instead of being sent to the terminal.
    public var terminalSafe: String {
        guard EscapeWriter.any(of: self, in: Self.mayNeedTerminalEscape) else { return self }
        return EscapeWriter.rewrite(self, looking: Self.mayNeedTerminalEscape) { bytes, index, out in
            let byte = bytes[index]
            func code(_ value: UInt32) { out += Array(("\\u{" + String(value, radix: 16) + "}").utf8) }
            switch byte {
            case 0x00..<0x20, 0x7F:
                code(UInt32(byte))
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                code(UInt32(bytes[index + 1]))
                return 2
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                code(0x2000 | UInt32(bytes[index + 2] - 0x80))
                return 3
            case 0xD8, 0xE2:
                // Bidirectional controls: shown raw, an override reorders the rest of the line.
                guard let (value, width) = EscapeWriter.bidiControl(bytes, at: index) else { return 0 }
                code(value)
                return width
            default: return 0
            }
            return 1
        }
    }

    /// The bytes `terminalSafe` looks at: controls, DEL, and the lead bytes of C1 controls (C2),
    /// bidirectional controls (D8, E2), U+2028/U+2029 (E2) and raw file-name bytes (F4).
    private static let mayNeedTerminalEscape: [Bool] = EscapeWriter.table(extra: [0x7F, 0xC2, 0xD8, 0xE2, 0xF4])
}
