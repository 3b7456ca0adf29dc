/// A CBOR data item (RFC 8949), as C2PA's claims, assertions and signatures are written
/// (c2pa-rs writes a claim's arrays and maps with indefinite lengths).
public indirect enum CBORValue: Sendable, Equatable {
    case unsigned(UInt64)
    /// -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([(CBORValue, CBORValue)])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    public static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case let (.unsigned(x), .unsigned(y)), let (.negative(x), .negative(y)): return x == y
        case let (.bytes(x), .bytes(y)): return x == y
        case let (.text(x), .text(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.map(x), .map(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.tagged(t, x), .tagged(u, y)): return t == u && x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null), (.undefined, .undefined): return true
        case let (.float(x), .float(y)): return x == y
        default: return false
        }
    }

    /// A map's value under a text key.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == .text(key) }?.1
    }

    /// A map's value under an integer key (COSE's header labels).
    public subscript(label label: Int) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        let key: CBORValue = label >= 0 ? .unsigned(UInt64(label)) : .negative(UInt64(-1 - label))
        return pairs.first { $0.0 == key }?.1
    }

    public var text: String? { if case .text(let value) = self { return value }; return nil }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { return value }; return nil }
    public var array: [CBORValue]? { if case .array(let value) = self { return value }; return nil }
    public var integer: Int64? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): return value < UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: return nil
        }
    }
    /// The item inside any tags.
    public var untagged: CBORValue {
        var value = self
        while case .tagged(_, let inner) = value { value = inner }
        return value
    }
}

/// Decodes one CBOR item without recursion: containers are built on an explicit stack, held to
/// a depth and an item count, every length to the bytes left.
public enum CBORDecoder {
    public static let maxDepth = 32
    public static let maxItems = 1_000_000

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var offset: Int
        public var reason: String
        public var description: String { "CBOR at byte \(offset): \(reason)" }
    }

    /// IEEE 754 half precision (Float16 is not on every platform Swift builds for).
    static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int(bits >> 10 & 0x1F), fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// A container's count when it has an indefinite length (ended by a break).
    static let indefinite = UInt64.max

    private enum Frame {
        case array(remaining: UInt64, items: [CBORValue])
        case map(remaining: UInt64, keys: [CBORValue], values: [CBORValue])
        case tag(UInt64)
    }

    /// The item at the start of `bytes`; `whole`: nothing may follow it.
    public static func decode(_ bytes: [UInt8], whole: Bool = true) throws(Failure) -> CBORValue {
        var at = 0
        var stack: [Frame] = []
        var items = 0
        func fail(_ reason: String) -> Failure { Failure(offset: at, reason: reason) }
        func take(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - at else { throw fail("\(count) bytes claimed, \(bytes.count - at) left") }
            defer { at += count }
            return bytes[at..<(at + count)]
        }
        func argument(_ info: UInt8) throws(Failure) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24, 25, 26, 27:
                return try take(1 << Int(info - 24)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            default: throw fail(info == 31 ? "an indefinite length (not read)" : "a reserved additional information \(info)")
            }
        }
        while true {
            items += 1
            guard items <= maxItems else { throw fail("more than \(maxItems) items") }
            let start = at
            let head = try take(1)[start]
            let major = head >> 5, info = head & 0x1F
            var value: CBORValue?
            switch major {
            case 0: value = .unsigned(try argument(info))
            case 1: value = .negative(try argument(info))
            case 2 where info == 31, 3 where info == 31:
                // Chunks of the same major type, each definite, until the break.
                var content: [UInt8] = []
                while true {
                    guard at < bytes.count else { throw fail("an indefinite string without its break") }
                    if bytes[at] == 0xFF { at += 1; break }
                    let chunk = try take(1)[at - 1]
                    guard chunk >> 5 == major, chunk & 0x1F != 31 else { throw fail("an indefinite string's chunk of another type") }
                    let length = try argument(chunk & 0x1F)
                    guard length <= UInt64(bytes.count - at) else { throw fail("a chunk of \(length) bytes, \(bytes.count - at) left") }
                    content += try take(Int(length))
                }
                if major == 2 {
                    value = .bytes(content)
                } else {
                    guard let text = String(validating: content, as: UTF8.self) else { throw Failure(offset: start, reason: "a text string that is not UTF-8") }
                    value = .text(text)
                }
            case 4 where info == 31, 5 where info == 31:
                guard stack.count < maxDepth else { throw fail("nested deeper than \(maxDepth)") }
                stack.append(major == 4 ? .array(remaining: Self.indefinite, items: []) : .map(remaining: Self.indefinite, keys: [], values: []))
            case 7 where info == 31:
                // The break: it ends the innermost container of indefinite length.
                switch stack.popLast() {
                case .array(Self.indefinite, let list)?: value = .array(list)
                case .map(Self.indefinite, let keys, let values)? where keys.count == values.count: value = .map(Array(zip(keys, values)))
                default: throw Failure(offset: start, reason: "a break outside an indefinite-length container")
                }
            case 2, 3:
                let length = try argument(info)
                guard length <= UInt64(bytes.count - at) else { throw fail("a string of \(length) bytes, \(bytes.count - at) left") }
                let content = Array(try take(Int(length)))
                if major == 2 {
                    value = .bytes(content)
                } else {
                    guard let text = String(validating: content, as: UTF8.self) else { throw Failure(offset: start, reason: "a text string that is not UTF-8") }
                    value = .text(text)
                }
            case 4, 5:
                let count = try argument(info)
                // Each item takes a byte at least (a map's pair two).
                guard count <= UInt64(bytes.count - at) else { throw fail("\(count) items claimed, \(bytes.count - at) bytes left") }
                guard stack.count < maxDepth else { throw fail("nested deeper than \(maxDepth)") }
                if count == 0 {
                    value = major == 4 ? .array([]) : .map([])
                } else {
                    stack.append(major == 4 ? .array(remaining: count, items: []) : .map(remaining: count * 2, keys: [], values: []))
                }
            case 6:
                let tag = try argument(info)
                guard stack.count < maxDepth else { throw fail("nested deeper than \(maxDepth)") }
                stack.append(.tag(tag))
            default:
                switch info {
                case 20: value = .bool(false)
                case 21: value = .bool(true)
                case 22: value = .null
                case 23: value = .undefined
                case 25:
                    value = .float(half(UInt16(try argument(25))))
                case 26: value = .float(Double(Float(bitPattern: UInt32(try argument(26)))))
                case 27: value = .float(Double(bitPattern: try argument(27)))
                case 0..<20: value = .unsigned(UInt64(info))
                case 24: value = .unsigned(try argument(24))
                default: throw Failure(offset: start, reason: "simple value \(info) (not read)")
                }
            }
            // A finished item goes into its container; containers that finish go up in turn.
            while let finished = value {
                guard let top = stack.popLast() else {
                    if whole && at != bytes.count { throw fail("\(bytes.count - at) bytes after the item") }
                    return finished
                }
                value = nil
                switch top {
                case .array(let remaining, var list):
                    list.append(finished)
                    if remaining == 1 { value = .array(list) } else { stack.append(.array(remaining: remaining == Self.indefinite ? remaining : remaining - 1, items: list)) }
                case .map(let remaining, var keys, var values):
                    if keys.count == values.count { keys.append(finished) } else { values.append(finished) }
                    if remaining == 1 {
                        value = .map(Array(zip(keys, values)))
                    } else {
                        stack.append(.map(remaining: remaining == Self.indefinite ? remaining : remaining - 1, keys: keys, values: values))
                    }
                case .tag(let tag):
                    value = .tagged(tag, finished)
                }
            }
        }
    }
}
