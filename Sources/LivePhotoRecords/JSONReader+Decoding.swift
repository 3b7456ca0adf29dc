import Foundation

extension JSONReader {
    // MARK: Decoding

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    struct TreeDecoder: Decoder {
        let node: Node
        let bytes: UnsafeRawBufferPointer
        var codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func mismatch<T>(_ type: T.Type, _ node: Node) -> DecodingError { JSONReader.mismatch(type, node, codingPath) }

        func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
            guard case .object(let pairs) = node else { throw mismatch([String: Any].self, node) }
            return KeyedDecodingContainer(Keyed<K>(pairs: pairs, bytes: bytes, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> UnkeyedDecodingContainer {
            guard case .array(let values) = node else { throw mismatch([Any].self, node) }
            return Unkeyed(values: values, bytes: bytes, codingPath: codingPath)
        }

        func singleValueContainer() throws -> SingleValueDecodingContainer { Single(node: node, decoder: self) }
    }

    /// Scalars from nodes, as strict as Foundation's decoder: integers only from integral
    /// numbers that fit, doubles from any number, no conversion between strings and numbers.
    /// `path` is asked for only when the node does not fit (the coding path is built for errors).
    static func mismatch<T>(_ type: T.Type, _ node: Node, _ path: [CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(node.kind)"))
    }

    static func bool(_ node: Node, path: () -> [CodingKey]) throws -> Bool {
        guard case .bool(let value) = node else { throw mismatch(Bool.self, node, path()) }
        return value
    }

    static func string(_ node: Node, path: () -> [CodingKey]) throws -> String {
        guard case .string(let value) = node else { throw mismatch(String.self, node, path()) }
        return value
    }

    static func double(_ node: Node, path: () -> [CodingKey]) throws -> Double {
        switch node {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        default: throw mismatch(Double.self, node, path())
        }
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ node: Node, path: () -> [CodingKey]) throws -> I {
        let value: I?
        switch node {
        case .int(let number): value = I(exactly: number)
        case .uint(let number): value = I(exactly: number)
        default: throw mismatch(I.self, node, path())
        }
        guard let value else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path(), debugDescription: "number does not fit \(I.self)"))
        }
        return value
    }

    struct Keyed<K: CodingKey>: KeyedDecodingContainerProtocol {
        let pairs: [(key: Range<Int>, value: Node)]
        let bytes: UnsafeRawBufferPointer
        var codingPath: [CodingKey]

        var allKeys: [K] {
            pairs.compactMap { K(stringValue: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[$0.key]), as: UTF8.self)) }
        }

        /// The first value under `key` (keys are compared as bytes; nothing is allocated).
        func find(_ key: K) -> Node? {
            var name = key.stringValue
            return name.withUTF8 { wanted in
                pairs.first { pair in
                    guard pair.key.count == wanted.count else { return false }
                    guard let line = bytes.baseAddress, let text = wanted.baseAddress else { return wanted.isEmpty }
                    return memcmp(line + pair.key.lowerBound, text, wanted.count) == 0
                }?.value
            }
        }

        func contains(_ key: K) -> Bool { find(key) != nil }

        func value(_ key: K) throws -> Node {
            guard let node = find(key) else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
            }
            return node
        }

        func decoder(_ node: Node, _ key: K) -> TreeDecoder { TreeDecoder(node: node, bytes: bytes, codingPath: codingPath + [key]) }

        func decodeNil(forKey key: K) throws -> Bool {
            if case .null = try value(key) { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
            let node = try value(key)
            if case .null = node {
                throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "null for \(key.stringValue)"))
            }
            return try T(from: decoder(node, key))
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T? {
            guard let node = find(key) else { return nil }
            if case .null = node { return nil }
            return try T(from: decoder(node, key))
        }

        // The scalars records hold, read from the node without a decoder of their own.
        func node(_ key: K) throws -> (Node, () -> [CodingKey]) { (try value(key), { codingPath + [key] }) }
        func present(_ key: K) -> (Node, () -> [CodingKey])? {
            guard let node = find(key) else { return nil }
            if case .null = node { return nil }
            return (node, { codingPath + [key] })
        }
        func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { let (node, path) = try node(key); return try JSONReader.bool(node, path: path) }
        func decode(_ type: String.Type, forKey key: K) throws -> String { let (node, path) = try node(key); return try JSONReader.string(node, path: path) }
        func decode(_ type: Double.Type, forKey key: K) throws -> Double { let (node, path) = try node(key); return try JSONReader.double(node, path: path) }
        func decode(_ type: Int.Type, forKey key: K) throws -> Int { let (node, path) = try node(key); return try JSONReader.integer(type, node, path: path) }
        func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { let (node, path) = try node(key); return try JSONReader.integer(type, node, path: path) }
        func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { let (node, path) = try node(key); return try JSONReader.integer(type, node, path: path) }
        func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { let (node, path) = try node(key); return try JSONReader.integer(type, node, path: path) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: K) throws -> Bool? { try present(key).map { try JSONReader.bool($0.0, path: $0.1) } }
        func decodeIfPresent(_ type: String.Type, forKey key: K) throws -> String? { try present(key).map { try JSONReader.string($0.0, path: $0.1) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: K) throws -> Double? { try present(key).map { try JSONReader.double($0.0, path: $0.1) } }
        func decodeIfPresent(_ type: Int.Type, forKey key: K) throws -> Int? { try present(key).map { try JSONReader.integer(type, $0.0, path: $0.1) } }
        func decodeIfPresent(_ type: Int64.Type, forKey key: K) throws -> Int64? { try present(key).map { try JSONReader.integer(type, $0.0, path: $0.1) } }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: K) throws -> UInt32? { try present(key).map { try JSONReader.integer(type, $0.0, path: $0.1) } }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: K) throws -> UInt64? { try present(key).map { try JSONReader.integer(type, $0.0, path: $0.1) } }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
            try decoder(try value(key), key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: K) throws -> UnkeyedDecodingContainer { try decoder(try value(key), key).unkeyedContainer() }
        func superDecoder() throws -> Decoder {
            guard let key = K(stringValue: "super") else { throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "no super key")) }
            return decoder(try value(key), key)
        }
        func superDecoder(forKey key: K) throws -> Decoder { decoder(try value(key), key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let values: [Node]
        let bytes: UnsafeRawBufferPointer
        var codingPath: [CodingKey]
        var currentIndex = 0

        init(values: [Node], bytes: UnsafeRawBufferPointer, codingPath: [CodingKey]) {
            (self.values, self.bytes, self.codingPath) = (values, bytes, codingPath)
        }

        var count: Int? { values.count }
        var isAtEnd: Bool { currentIndex >= values.count }

        mutating func next() throws -> TreeDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has \(values.count) values"))
            }
            defer { currentIndex += 1 }
            return TreeDecoder(node: values[currentIndex], bytes: bytes, codingPath: codingPath + [Key(intValue: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { return false }
            if case .null = values[currentIndex] {
                currentIndex += 1
                return true
            }
            return false
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: try next()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { let element = try next(); return try JSONReader.integer(type, element.node) { element.codingPath } }
        mutating func decode(_ type: String.Type) throws -> String { let element = try next(); return try JSONReader.string(element.node) { element.codingPath } }
        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> { try next().container(keyedBy: type) }
        mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let node: Node
        let decoder: TreeDecoder
        var codingPath: [CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            if case .null = node { return true }
            return false
        }

        func decode(_ type: Bool.Type) throws -> Bool { try JSONReader.bool(node) { codingPath } }
        func decode(_ type: String.Type) throws -> String { try JSONReader.string(node) { codingPath } }
        func decode(_ type: Double.Type) throws -> Double { try JSONReader.double(node) { codingPath } }
        func decode(_ type: Float.Type) throws -> Float { Float(try JSONReader.double(node) { codingPath }) }
        func decode(_ type: Int.Type) throws -> Int { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: Int8.Type) throws -> Int8 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: Int16.Type) throws -> Int16 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: Int32.Type) throws -> Int32 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: Int64.Type) throws -> Int64 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: UInt.Type) throws -> UInt { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONReader.integer(type, node) { codingPath } }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONReader.integer(type, node) { codingPath } }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    }
}
