import Foundation
import LivePhotoFormats

/// A strict JSON reader for the lines `check --facts` reads (RFC 8259: no comments, no trailing
/// commas, no lone surrogates, valid UTF-8), decoding any `Decodable` through its own Codable
/// conformance. It parses a line into a small tree whose object keys stay byte ranges of the
/// line (nothing is allocated for a key), then decodes from the tree: about three times faster
/// than Foundation's JSONDecoder on facts records. Input is hostile: nesting is bounded, every
/// read is checked, and a fault throws with its byte offset in the line.
enum JSONReader {
    /// Nesting deeper than this is refused (records nest five deep).
    static let maxDepth = 64

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        var parser = Parser(bytes: bytes)
        let root = try parser.document()
        return try T(from: TreeDecoder(node: root, bytes: bytes, codingPath: []))
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// A parsed value. Object keys are ranges of the line's bytes.
    enum Node {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case string(String)
        case array([Node])
        case object([(key: Range<Int>, value: Node)])

        var kind: String {
            switch self {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int, .uint, .double: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    // MARK: Parsing

    struct Parser {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        func failure(_ what: String) -> Failure { Failure(description: "\(what) at byte \(position)") }

        mutating func document() throws -> Node {
            let value = try self.value(depth: 0)
            skipSpace()
            guard position == bytes.count else { throw failure("text after the JSON value") }
            return value
        }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> Node {
            guard depth < JSONReader.maxDepth else { throw failure("nesting deeper than \(JSONReader.maxDepth)") }
            skipSpace()
            guard position < bytes.count else { throw failure("the text ends where a value should be") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw failure("unexpected byte 0x\(String(bytes[position], radix: 16))")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count else { throw failure("the text ends inside a literal") }
            for index in 0..<count where bytes[position + index] != word.utf8Start[index] { throw failure("not a JSON literal") }
            position += count
        }

        mutating func expect(_ byte: UInt8) throws {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
            position += 1
        }

        /// Consumes `byte` (after white space) if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        mutating func object(depth: Int) throws -> Node {
            position += 1
            var pairs: [(key: Range<Int>, value: Node)] = []
            if take(UInt8(ascii: "}")) { return .object(pairs) }
            repeat {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try keyRange()
                try expect(UInt8(ascii: ":"))
                pairs.append((key, try value(depth: depth + 1)))
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
            return .object(pairs)
        }

        mutating func array(depth: Int) throws -> Node {
            position += 1
            var values: [Node] = []
            if take(UInt8(ascii: "]")) { return .array(values) }
            repeat { values.append(try value(depth: depth + 1)) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return .array(values)
        }

        /// A key without escapes stays a range of the line; one with escapes is refused (no
        /// record has one).
        mutating func keyRange() throws -> Range<Int> {
            position += 1
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return start..<(position - 1)
                }
                guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw failure("a key with an escape or a control character") }
                position += 1
            }
            throw failure("the text ends inside a key")
        }

        mutating func string() throws -> String {
            position += 1
            let start = position
            var ascii = true
            // The common case: no escape. The bytes are taken as they are (checked as UTF-8).
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let run = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                    position += 1
                    return try text(run, ascii: ascii)
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                if byte >= 0x80 { ascii = false }
                position += 1
            }
            guard position < bytes.count else { throw failure("the text ends inside a string") }
            // Escapes: the string is put together byte by byte from here.
            var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return try out.withUnsafeBytes { try text($0, ascii: false) }
                case UInt8(ascii: "\\"):
                    position += 1
                    guard position < bytes.count else { throw failure("the text ends inside an escape") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = UInt32(try hex4())
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                                throw failure("a high surrogate without its low half")
                            }
                            position += 2
                            let low = UInt32(try hex4())
                            guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate without its low half") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            // \udc80...\udcff alone: a file-name byte that is not UTF-8, as
                            // lpcheck's JSON (and Python's os.fsdecode) writes it.
                            guard let raw = PathBytes.scalar(escapedAs: scalar) else { throw failure("a low surrogate alone") }
                            scalar = raw.value
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw failure("not a Unicode scalar") }
                        out.append(contentsOf: String(Character(unicode)).utf8)
                    default:
                        throw failure("an unknown escape")
                    }
                default:
                    guard byte >= 0x20 else { throw failure("a control character in a string") }
                    out.append(byte)
                    position += 1
                }
            }
            throw failure("the text ends inside a string")
        }

        mutating func hex4() throws -> UInt16 {
            guard bytes.count - position >= 4 else { throw failure("the text ends inside a \\u escape") }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("not a hexadecimal digit")
                }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            return value
        }

        /// Bytes that must be UTF-8: ASCII is taken at once, anything else is checked.
        func text(_ run: UnsafeRawBufferPointer, ascii: Bool) throws -> String {
            if ascii { return String(decoding: run, as: UTF8.self) }
            guard let text = String(bytes: run, encoding: .utf8) else { throw failure("a string that is not UTF-8") }
            return text
        }

        mutating func number() throws -> Node {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                return position - first
            }
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0 else { throw failure("a number without digits") }
            guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure("a number with a leading zero") }
            var integral = true
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw failure("a number without digits after its point") }
                integral = false
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw failure("a number without exponent digits") }
                integral = false
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if integral {
                if let value = Int64(text) { return .int(value) }
                if let value = UInt64(text) { return .uint(value) }
            }
            guard let value = Double(text), value.isFinite else { throw failure("a number out of range") }
            return .double(value)
        }
    }
}
