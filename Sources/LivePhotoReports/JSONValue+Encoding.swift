extension JSONValue {
    /// The JSON of an `Encodable` value through its own coding (synthesized or written), object
    /// keys in byte order of their UTF-8 (no locale, so a record is the same on every machine).
    /// Optionals left out when nil, as the synthesized coding asks. The scan records are written
    /// this way, by the writer every report uses.
    public static func encoding<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        return root.value
    }

    /// A value being built: a scalar, or an object or array whose members are built in place.
    final class Node {
        var scalar: JSONValue = .null
        var members: [(key: String, node: Node)]?
        var elements: [Node]?

        var value: JSONValue {
            if let members {
                let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                // A key encoded twice keeps its last value, as a keyed container overwrites.
                var pairs: [(String, JSONValue)] = []
                pairs.reserveCapacity(sorted.count)
                for member in sorted {
                    if pairs.last?.0 == member.key { pairs.removeLast() }
                    pairs.append((member.key, member.node.value))
                }
                return .object(pairs)
            }
            if let elements { return .array(elements.map(\.value)) }
            return scalar
        }

        func child(_ key: String) -> Node {
            let node = Node()
            if members == nil { members = [] }
            members?.append((key, node))
            return node
        }

        func element() -> Node {
            let node = Node()
            if elements == nil { elements = [] }
            elements?.append(node)
            return node
        }
    }

    struct TreeEncoder: Encoder {
        let node: Node
        var codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [] }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            if node.elements == nil { node.elements = [] }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    /// The scalars every container writes the same way; anything else through its own coding.
    static func encode<T: Encodable>(_ value: T, into node: Node, codingPath: [CodingKey]) throws {
        switch value {
        case let text as String: node.scalar = .string(text)
        case let flag as Bool: node.scalar = .bool(flag)
        case let number as Double: node.scalar = .double(number)
        // Through its shortest text: 0.1 as a Float is written 0.1, not 0.10000000149011612.
        case let number as Float: node.scalar = .double(Double(number.description) ?? Double(number))
        case let number as Int: node.scalar = .int(Int64(number))
        case let number as Int64: node.scalar = .int(number)
        case let number as Int32: node.scalar = .int(Int64(number))
        case let number as Int16: node.scalar = .int(Int64(number))
        case let number as Int8: node.scalar = .int(Int64(number))
        case let number as UInt: node.scalar = .uint(UInt64(number))
        case let number as UInt64: node.scalar = .uint(number)
        case let number as UInt32: node.scalar = .uint(UInt64(number))
        case let number as UInt16: node.scalar = .uint(UInt64(number))
        case let number as UInt8: node.scalar = .uint(UInt64(number))
        default: try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [CodingKey]

        mutating func encodeNil(forKey key: Key) { node.child(key.stringValue).scalar = .null }
        mutating func encode(_ value: String, forKey key: Key) { node.child(key.stringValue).scalar = .string(value) }
        mutating func encode(_ value: Bool, forKey key: Key) { node.child(key.stringValue).scalar = .bool(value) }
        mutating func encode(_ value: Int, forKey key: Key) { node.child(key.stringValue).scalar = .int(Int64(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) { node.child(key.stringValue).scalar = .int(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) { node.child(key.stringValue).scalar = .uint(UInt64(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) { node.child(key.stringValue).scalar = .uint(value) }
        mutating func encode(_ value: Double, forKey key: Key) { node.child(key.stringValue).scalar = .double(value) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONValue.encode(value, into: node.child(key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> Encoder { TreeEncoder(node: node.child("super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> Encoder { TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [CodingKey]
        var count: Int { node.elements?.count ?? 0 }

        mutating func encodeNil() { node.element().scalar = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONValue.encode(value, into: node.element(), codingPath: codingPath) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(node: node.element(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { TreeEncoder(node: node.element(), codingPath: codingPath).unkeyedContainer() }
        mutating func superEncoder() -> Encoder { TreeEncoder(node: node.element(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [CodingKey]

        mutating func encodeNil() { node.scalar = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONValue.encode(value, into: node, codingPath: codingPath) }
    }
}
