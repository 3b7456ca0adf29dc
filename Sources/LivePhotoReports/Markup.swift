import LivePhotoFormats

/// Escaping for XML and HTML text and attributes: everything that comes from a file passes here.
public enum Markup {
    public static func escape(_ text: String) -> String {
        // Most text (paths, identifiers, messages) needs nothing: one pass over its bytes says so.
        guard EscapeWriter.any(of: text, in: mayNeedEscape) else { return text }
        return EscapeWriter.rewrite(text, looking: mayNeedEscape) { bytes, index, out in
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&#39;".utf8)
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): return 0
            case 0x00..<0x20:
                // XML 1.0 forbids most control characters even as references: show them as U+XXXX.
                out += Array(("U+" + String(byte, radix: 16, uppercase: true).leftPadded(4)).utf8)
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                out += Array((bytes[index + 2] == 0xBE ? "U+FFFE" : "U+FFFF").utf8)
                return 3
            case 0xD8, 0xE2:
                // Bidirectional controls are shown as controls are: a page cannot reorder text.
                guard let (value, width) = EscapeWriter.bidiControl(bytes, at: index) else { return 0 }
                out += Array(("U+" + String(value, radix: 16, uppercase: true).leftPadded(4)).utf8)
                return width
            default: return 0
            }
            return 1
        }
    }

    /// The bytes `escape` looks at: the five specials, controls, and the lead bytes of
    /// U+FFFE/U+FFFF (EF), of bidirectional controls (D8, E2) and of raw file-name bytes (F4).
    private static let mayNeedEscape: [Bool] = EscapeWriter.table(extra: Array("&<>\"'".utf8) + [0xD8, 0xE2, 0xEF, 0xF4])
}

/// Rewrites text where a rule says so, copying the runs between untouched.
enum EscapeWriter {
    /// `replace(bytes, index, &out)` appends a replacement for the sequence at `index` and
    /// returns how many bytes it stands for, or returns 0 to keep the byte as it is. Only the
    /// bytes `looking` marks are shown to `replace`; a file-name byte that is not UTF-8 (F4 in
    /// `looking`) is shown as the byte, `\xFF`, before `replace` is asked.
    static func rewrite(_ text: String, looking table: [Bool], _ replace: ([UInt8], Int, inout [UInt8]) -> Int) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        var runStart = 0
        while index < bytes.count {
            guard table[Int(bytes[index])] else {
                index += 1
                continue
            }
            var replacement: [UInt8] = []
            var width = 0
            if let raw = rawPathByte(bytes, at: index) {
                replacement = Array(("\\x" + String(raw, radix: 16, uppercase: true)).utf8)
                width = 4
            } else {
                width = replace(bytes, index, &replacement)
            }
            if width == 0 {
                index += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<index])
            out += replacement
            index += width
            runStart = index
        }
        out.append(contentsOf: bytes[runStart..<bytes.count])
        return String(decoding: out, as: UTF8.self)
    }

    /// The raw byte a file name held where the UTF-8 at `index` encodes one (PathBytes maps each
    /// to U+10FF80...U+10FFFF: F4 8F BE/BF xx), else nil.
    static func rawPathByte(_ bytes: [UInt8], at index: Int) -> UInt8? {
        guard bytes[index] == 0xF4, index + 3 < bytes.count, bytes[index + 1] == 0x8F, bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF else { return nil }
        return 0x80 | (bytes[index + 2] & 0x01) << 6 | (bytes[index + 3] & 0x3F)
    }

    /// Whether any byte of `text` is marked in `table` (over contiguous UTF-8, not the view).
    static func any(of text: String, in table: [Bool]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { table[Int($0)] } }
    }

    /// A byte table: controls (below 0x20) and `extra` marked.
    /// The bidirectional formatting character whose UTF-8 starts at `index` (U+061C, U+200E,
    /// U+200F, U+202A...U+202E, U+2066...U+2069) and its width, else nil. Shown raw, an override
    /// reorders what follows it: `IMG_\u{202E}GPJ.exe` displays as `IMG_exe.JPG`.
    static func bidiControl<Bytes: RandomAccessCollection>(_ bytes: Bytes, at index: Int) -> (value: UInt32, width: Int)? where Bytes.Element == UInt8, Bytes.Index == Int {
        let lead = bytes[index]
        if lead == 0xD8, index + 1 < bytes.count, bytes[index + 1] == 0x9C { return (0x061C, 2) }
        guard lead == 0xE2, index + 2 < bytes.count else { return nil }
        let (second, third) = (bytes[index + 1], bytes[index + 2])
        let value = 0x2000 | UInt32(second & 0x03) << 6 | UInt32(third & 0x3F)
        switch (second, third) {
        case (0x80, 0x8E), (0x80, 0x8F), (0x80, 0xAA...0xAE), (0x81, 0xA6...0xA9): return (value, 3)
        default: return nil
        }
    }

    static func table(extra: [UInt8]) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in 0..<0x20 { table[byte] = true }
        for byte in extra { table[Int(byte)] = true }
        return table
    }
}
