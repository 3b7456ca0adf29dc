/// Where a report's fields are written: straight into JSON bytes (`JSONWriter`) or into a
/// `JSONValue` (`JSONTree`, which the property list and the tests read). A report part written
/// through this is declared once for both, and the JSON of a large report is not built as a
/// tree first (an item's tree cost more to build, copy and free than its bytes to write).
protocol JSONFields {
    /// The next member of the open object is `name` (its value follows).
    mutating func key(_ name: String)
    /// The next member of the open array (its value follows).
    mutating func element()
    mutating func null()
    mutating func bool(_ value: Bool)
    mutating func int(_ value: Int64)
    mutating func uint(_ value: UInt64)
    mutating func double(_ value: Double)
    mutating func string(_ value: String)
    /// An object whose members `body` writes.
    mutating func object(_ body: (inout Self) -> Void)
    /// An array whose elements `body` writes.
    mutating func array(_ body: (inout Self) -> Void)
}

extension JSONFields {
    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    mutating func field(_ name: String, _ value: Double?) {
        key(name)
        if let value { double(value) } else { null() }
    }

    mutating func field(_ name: String, _ value: Int64?) {
        key(name)
        if let value { int(value) } else { null() }
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A whole `JSONValue`, member by member.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .uint(let number): uint(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let values):
            array { fields in
                for element in values {
                    fields.element()
                    fields.value(element)
                }
            }
        case .object(let pairs):
            object { fields in
                for (name, member) in pairs {
                    fields.key(name)
                    fields.value(member)
                }
            }
        }
    }
}

/// JSON written as it is made: the one place that lays JSON out (indentation, separators,
/// numbers, string escaping). `JSONValue.serialized` writes through it.
struct JSONWriter: JSONFields {
    private(set) var bytes: [UInt8] = []
    private let html: Bool
    /// The indentation level of the value being written (nil: compact).
    private var level: Int?
    /// Members written so far in the open object or array.
    private var members = 0

    /// Starts with `prefix` (a streamed piece's separator), as if `indent` levels deep.
    init(indent: Int?, escaping: JSONValue.Escaping, prefix: String = "") {
        bytes.reserveCapacity(1024)
        bytes.append(contentsOf: prefix.utf8)
        html = escaping == .report
        level = indent
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func key(_ name: String) {
        separate()
        JSONValue.escape(name, into: &bytes, html: html)
        bytes.append(UInt8(ascii: ":"))
        if level != nil { bytes.append(UInt8(ascii: " ")) }
    }

    mutating func element() { separate() }

    private mutating func separate() {
        if members > 0 { bytes.append(UInt8(ascii: ",")) }
        members += 1
        newline()
    }

    mutating func null() { bytes += Self.nullBytes }
    mutating func bool(_ value: Bool) { bytes += value ? Self.trueBytes : Self.falseBytes }

    mutating func int(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    mutating func uint(_ value: UInt64) { digits(value) }

    /// Whole numbers below 10^15 as integers, others in Swift's shortest text; NaN and the
    /// infinities (which JSON has not) as null.
    mutating func double(_ value: Double) {
        if value.isNaN || value.isInfinite {
            null()
        } else if value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            digits(UInt64(abs(value)))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func string(_ value: String) { JSONValue.escape(value, into: &bytes, html: html) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// `{}` or `[]` when `body` writes nothing; else each member on a line of its own one level
    /// deeper, and the closing bracket on a line at this level.
    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONWriter) -> Void) {
        bytes.append(open)
        let outer = (level: level, members: members)
        level = level.map { $0 + 1 }
        members = 0
        body(&self)
        let written = members
        (level, members) = outer
        if written > 0 { newline() }
        bytes.append(close)
    }

    private mutating func newline() {
        guard let level else { return }
        bytes.append(UInt8(ascii: "\n"))
        let count = 2 * level
        if count <= Self.spaces.count { bytes += Self.spaces[..<count] } else { bytes += repeatElement(UInt8(ascii: " "), count: count) }
    }

    /// Decimal digits, written in place (no string made per number).
    private mutating func digits(_ value: UInt64) {
        guard value >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            var rest = value
            var start = digits.count
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: digits[start...])
        }
    }

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
}

/// A `JSONValue` made through `JSONFields`: what the property list and tests read of a part
/// that is written field by field.
struct JSONTree: JSONFields {
    private enum Container { case none, object, array }

    /// The value written (at the top level: the last one).
    private(set) var value: JSONValue = .null
    private var container = Container.none
    private var pairs: [(String, JSONValue)] = []
    private var elements: [JSONValue] = []
    private var name = ""

    init() {}

    private init(_ container: Container) { self.container = container }

    mutating func key(_ name: String) { self.name = name }
    mutating func element() {}
    mutating func null() { put(.null) }
    mutating func bool(_ value: Bool) { put(.bool(value)) }
    mutating func int(_ value: Int64) { put(.int(value)) }
    mutating func uint(_ value: UInt64) { put(.uint(value)) }
    mutating func double(_ value: Double) { put(.double(value)) }
    mutating func string(_ value: String) { put(.string(value)) }

    mutating func object(_ body: (inout JSONTree) -> Void) {
        var inner = JSONTree(.object)
        body(&inner)
        put(.object(inner.pairs))
    }

    mutating func array(_ body: (inout JSONTree) -> Void) {
        var inner = JSONTree(.array)
        body(&inner)
        put(.array(inner.elements))
    }

    private mutating func put(_ member: JSONValue) {
        switch container {
        case .none: value = member
        case .object: pairs.append((name, member))
        case .array: elements.append(member)
        }
    }
}
