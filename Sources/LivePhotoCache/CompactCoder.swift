import Foundation

/// A compact positional binary form of any Codable value, for the cache: fields in the order the
/// type encodes them, no keys, varints, a presence byte for optionals, a count before each list.
/// Only lpcheck's own types go through it, and a cache written by another build is discarded
/// before anything is decoded, so the format needs no field names. Reading is bounded: a short
/// or inconsistent blob throws, it never traps.
enum CompactCoder {
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let stream = OutputStream()
        try value.encode(to: CompactEncoder(stream))
        return stream.bytes
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let stream = InputStream(bytes)
        let value = try T(from: CompactDecoder(stream))
        guard stream.position == bytes.count else { throw stream.corrupt("\(bytes.count - stream.position) bytes left over") }
        return value
    }

    final class OutputStream {
        var bytes: [UInt8] = []

        func varint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

        func string(_ value: String) {
            let utf8 = Array(value.utf8)
            varint(UInt64(utf8.count))
            bytes += utf8
        }

        /// A 4-byte count slot, filled in as elements are added.
        func countSlot() -> Int {
            bytes += [0, 0, 0, 0]
            return bytes.count - 4
        }

        func setCount(_ count: UInt32, at slot: Int) {
            for index in 0..<4 { bytes[slot + index] = UInt8(count >> (8 * UInt32(index)) & 0xFF) }
        }
    }

    final class InputStream {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func corrupt(_ what: String) -> DecodingError {
            DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "cache entry: \(what) at byte \(position)"))
        }

        func byte() throws -> UInt8 {
            guard position < bytes.count else { throw corrupt("ends early") }
            position += 1
            return bytes[position - 1]
        }

        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw corrupt("varint too long") }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        func signed() throws -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        }

        func string() throws -> String {
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw corrupt("string of \(count) bytes") }
            let end = position + Int(count)
            defer { position = end }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }

        func count() throws -> Int {
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(try byte()) << (8 * UInt32(index)) }
            guard Int(value) <= bytes.count - position else { throw corrupt("list of \(value) items") }
            return Int(value)
        }
    }
}

// MARK: Encoding

struct CompactEncoder: Encoder {
    let stream: CompactCoder.OutputStream
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    init(_ stream: CompactCoder.OutputStream) { self.stream = stream }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(KeyedContainer<Key>(stream: stream)) }
    func unkeyedContainer() -> UnkeyedEncodingContainer { UnkeyedContainer(stream: stream) }
    func singleValueContainer() -> SingleValueEncodingContainer { SingleContainer(stream: stream) }

    /// Writes one value; every container funnels here.
    static func write<T: Encodable>(_ value: T, to stream: CompactCoder.OutputStream) throws {
        // Scalars (and byte lists, string dictionaries) write themselves; everything else goes
        // through its own encode(to:).
        if let scalar = value as? CompactScalar { return scalar.write(to: stream) }
        try value.encode(to: CompactEncoder(stream))
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let stream: CompactCoder.OutputStream
        var codingPath: [CodingKey] = []
        mutating func encodeNil(forKey key: Key) throws { stream.bytes.append(0) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try CompactEncoder.write(value, to: stream) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: String, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: Double, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: Int, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { value.write(to: stream) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { value.write(to: stream) }
        // Optionals carry a presence byte: the protocol's defaults would skip nil values, and a
        // positional form must say they are absent.
        private func present<T: Encodable>(_ value: T?) throws {
            guard let value else { return stream.bytes.append(0) }
            stream.bytes.append(1)
            try CompactEncoder.write(value, to: stream)
        }
        private func presentScalar<T: CompactScalar>(_ value: T?) {
            guard let value else { return stream.bytes.append(0) }
            stream.bytes.append(1)
            value.write(to: stream)
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { presentScalar(value) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { presentScalar(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(KeyedContainer<NestedKey>(stream: stream))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { UnkeyedContainer(stream: stream) }
        mutating func superEncoder() -> Encoder { CompactEncoder(stream) }
        mutating func superEncoder(forKey key: Key) -> Encoder { CompactEncoder(stream) }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let stream: CompactCoder.OutputStream
        let slot: Int
        var codingPath: [CodingKey] = []
        var count = 0
        init(stream: CompactCoder.OutputStream) {
            self.stream = stream
            slot = stream.countSlot()
        }
        private mutating func added() { count += 1; stream.setCount(UInt32(count), at: slot) }
        mutating func encodeNil() throws { throw EncodingError.invalidValue(0, EncodingError.Context(codingPath: codingPath, debugDescription: "lists of optionals are not cached")) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            // The count is raised first: a nested list writes its own slot after this element's start.
            added()
            try CompactEncoder.write(value, to: stream)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            added()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(stream: stream))
        }
        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { added(); return UnkeyedContainer(stream: stream) }
        mutating func superEncoder() -> Encoder { added(); return CompactEncoder(stream) }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let stream: CompactCoder.OutputStream
        var codingPath: [CodingKey] = []
        mutating func encodeNil() throws { stream.bytes.append(0) }
        mutating func encode<T: Encodable>(_ value: T) throws { try CompactEncoder.write(value, to: stream) }
    }
}

// MARK: Decoding

struct CompactDecoder: Decoder {
    let stream: CompactCoder.InputStream
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    init(_ stream: CompactCoder.InputStream) { self.stream = stream }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { KeyedDecodingContainer(KeyedContainer<Key>(stream: stream)) }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { try UnkeyedContainer(stream: stream) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleContainer(stream: stream) }

    static func read<T: Decodable>(_ type: T.Type, from stream: CompactCoder.InputStream) throws -> T {
        // Structures, enumerations and lists go straight to their own init(from:); the scalars
        // come here only through generic paths (a list's elements, a raw value), and are read
        // without boxing: most decodes never reach the casts below.
        guard let scalar = T.self as? CompactScalar.Type else { return try T(from: CompactDecoder(stream)) }
        guard let typed = try scalar.read(from: stream) as? T else { throw stream.corrupt("type mismatch") }
        return typed
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let stream: CompactCoder.InputStream
        var codingPath: [CodingKey] = []
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { try stream.byte() == 0 }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try CompactDecoder.read(type, from: stream) }
        private func present<T: Decodable>(_ type: T.Type) throws -> T? {
            try stream.byte() == 0 ? nil : try CompactDecoder.read(type, from: stream)
        }
        private func presentScalar<T: CompactScalar>(_ type: T.Type) throws -> T? {
            try stream.byte() == 0 ? nil : try T.read(from: stream)
        }
        // The scalars facts hold most, read without the generic path (the others take it).
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Bool.read(from: stream) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try stream.string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Double.read(from: stream) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Int.read(from: stream) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try stream.signed() }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try UInt32.read(from: stream) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try stream.varint() }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentScalar(type) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentScalar(type) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentScalar(type) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentScalar(type) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentScalar(type) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentScalar(type) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentScalar(type) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentScalar(type) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentScalar(type) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentScalar(type) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentScalar(type) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentScalar(type) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentScalar(type) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentScalar(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(KeyedContainer<NestedKey>(stream: stream))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try UnkeyedContainer(stream: stream) }
        func superDecoder() throws -> Decoder { CompactDecoder(stream) }
        func superDecoder(forKey key: Key) throws -> Decoder { CompactDecoder(stream) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let stream: CompactCoder.InputStream
        var codingPath: [CodingKey] = []
        let total: Int
        var currentIndex = 0
        init(stream: CompactCoder.InputStream) throws {
            self.stream = stream
            total = try stream.count()
        }
        var count: Int? { total }
        var isAtEnd: Bool { currentIndex >= total }
        private mutating func next() throws {
            guard !isAtEnd else { throw stream.corrupt("list read past its end") }
            currentIndex += 1
        }
        /// lpcheck's types hold no lists of optionals: an element is never nil.
        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw stream.corrupt("list read past its end") }
            return false
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next()
            return try CompactDecoder.read(type, from: stream)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next()
            return KeyedDecodingContainer(KeyedContainer<NestedKey>(stream: stream))
        }
        mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
            try next()
            return try UnkeyedContainer(stream: stream)
        }
        mutating func superDecoder() throws -> Decoder {
            try next()
            return CompactDecoder(stream)
        }
    }

    struct SingleContainer: SingleValueDecodingContainer {
        let stream: CompactCoder.InputStream
        var codingPath: [CodingKey] = []
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try CompactDecoder.read(type, from: stream) }
        // Raw-value enumerations (formats, kinds) read their raw value here.
        func decode(_ type: String.Type) throws -> String { try stream.string() }
        func decode(_ type: Int.Type) throws -> Int { try Int.read(from: stream) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try UInt32.read(from: stream) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try UInt8.read(from: stream) }
    }
}

/// The values the compact form writes as varints, bytes or strings instead of through their
/// own Codable conformance. Each reads itself from the stream, checking its range.
protocol CompactScalar {
    static func read(from stream: CompactCoder.InputStream) throws -> Self
    func write(to stream: CompactCoder.OutputStream)
}

extension Bool: CompactScalar {
    static func read(from stream: CompactCoder.InputStream) throws -> Bool { try stream.byte() != 0 }
    func write(to stream: CompactCoder.OutputStream) { stream.bytes.append(self ? 1 : 0) }
}

extension String: CompactScalar {
    static func read(from stream: CompactCoder.InputStream) throws -> String { try stream.string() }
    func write(to stream: CompactCoder.OutputStream) { stream.string(self) }
}

extension Double: CompactScalar {
    static func read(from stream: CompactCoder.InputStream) throws -> Double { Double(bitPattern: try stream.varint()) }
    func write(to stream: CompactCoder.OutputStream) { stream.varint(bitPattern) }
}

extension Float: CompactScalar {
    static func read(from stream: CompactCoder.InputStream) throws -> Float { Float(bitPattern: try UInt32.read(from: stream)) }
    func write(to stream: CompactCoder.OutputStream) { stream.varint(UInt64(bitPattern)) }
}

extension Int: CompactScalar {}
extension Int8: CompactScalar {}
extension Int16: CompactScalar {}
extension Int32: CompactScalar {}
extension Int64: CompactScalar {}
extension UInt: CompactScalar {}
extension UInt8: CompactScalar {}
extension UInt16: CompactScalar {}
extension UInt32: CompactScalar {}
extension UInt64: CompactScalar {}

extension CompactScalar where Self: FixedWidthInteger {
    /// Signed integers are zig-zag varints, unsigned ones plain varints; a value that does not
    /// fit the type is corruption.
    static func read(from stream: CompactCoder.InputStream) throws -> Self {
        if Self.isSigned {
            let value = try stream.signed()
            guard let exact = Self(exactly: value) else { throw stream.corrupt("\(value) out of range") }
            return exact
        }
        let value = try stream.varint()
        guard let exact = Self(exactly: value) else { throw stream.corrupt("\(value) out of range") }
        return exact
    }

    func write(to stream: CompactCoder.OutputStream) {
        if Self.isSigned { stream.signed(Int64(self)) } else { stream.varint(UInt64(self)) }
    }
}

extension Array: CompactScalar where Element == UInt8 {
    /// Bytes (thumbnails) as they are, not one varint each.
    static func read(from stream: CompactCoder.InputStream) throws -> [UInt8] {
        let count = try stream.varint()
        guard count <= UInt64(stream.bytes.count - stream.position) else { throw stream.corrupt("\(count) bytes") }
        defer { stream.position += Int(count) }
        return Array(stream.bytes[stream.position..<(stream.position + Int(count))])
    }

    func write(to stream: CompactCoder.OutputStream) {
        stream.varint(UInt64(count))
        stream.bytes += self
    }
}

extension Dictionary: CompactScalar where Key == String, Value == String {
    /// Pairs, as the encoder writes them (sorted by key).
    static func read(from stream: CompactCoder.InputStream) throws -> [String: String] {
        let count = try stream.varint()
        guard count <= UInt64(stream.bytes.count - stream.position) else { throw stream.corrupt("\(count) pairs") }
        var pairs: [String: String] = [:]
        for _ in 0..<count {
            let key = try stream.string()
            pairs[key] = try stream.string()
        }
        return pairs
    }

    /// Dictionaries encode through keys, which this form does not write: pairs, sorted.
    func write(to stream: CompactCoder.OutputStream) {
        stream.varint(UInt64(count))
        for (key, item) in sorted(by: { $0.key < $1.key }) {
            stream.string(key)
            stream.string(item)
        }
    }
}
