import LivePhotoFormats

/// Escaping for XML and HTML text and attributes: everything that comes from a file passes here.
public enum Markup {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if let raw = PathBytes.rawByte(scalar) {
                    // A file-name byte that is not UTF-8: shown as the byte.
                    out += "\\x" + String(raw, radix: 16, uppercase: true)
                    continue
                }
                // XML 1.0 forbids most control characters even as references: show them as U+XXXX.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
