/// A JSON document with ordered object keys, so reports are stable byte for byte.
public indirect enum JSONValue: Sendable, Equatable {
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
    /// part by part.
    public func serialized(indent: Int?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], indent: Int?) {
        switch self {
        case .null: out += Self.nullBytes
        case .bool(let value): out += value ? Self.trueBytes : Self.falseBytes
        case .int(let value): out += Array(String(value).utf8)
        case .uint(let value): out += Array(String(value).utf8)
        case .double(let value):
            if value.isNaN || value.isInfinite {
                out += Self.nullBytes
            } else if value == value.rounded(), abs(value) < 1e15 {
                out += Array(String(Int64(value)).utf8)
            } else {
                out += Array(String(value).utf8)
            }
        case .string(let text): Self.escape(text, into: &out)
        case .array(let values):
            if values.isEmpty { out += [UInt8(ascii: "["), UInt8(ascii: "]")]; return }
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent.map { $0 + 1 })
                value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty { out += [UInt8(ascii: "{"), UInt8(ascii: "}")]; return }
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent.map { $0 + 1 })
                Self.escape(pair.0, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                pair.1.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

    private static func newline(_ out: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out += repeatElement(UInt8(ascii: " "), count: 2 * indent)
    }

    /// RFC 8259 string escaping; `<`, `>` and `&` are escaped too so JSON can sit inside HTML.
    static func escape(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case "\\": out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case "\n": out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case "\r": out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case "\t": out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += Array(("\\u" + String(scalar.value, radix: 16).leftPadded(4)).utf8)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += Array(("\\u" + String(scalar.value, radix: 16).leftPadded(4)).utf8)
                } else if scalar.isASCII {
                    out.append(UInt8(scalar.value))
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// Text from a file made safe for a terminal: control characters (escape sequences
    /// included) are shown as `\u{..}` instead of being sent to the terminal.
    public var terminalSafe: String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
