internal import CLibXML2

/// XMP properties read through libxml2: every simple property (attribute or text-only element)
/// with its namespace, and the Google `Container:Directory` items of motion photos.
public struct XMPPacket: Sendable, Equatable {
    public struct Property: Sendable, Equatable {
        public var namespace: String
        public var name: String
        public var value: String
    }

    /// One `Container:Item` of a motion photo directory (Mime, Semantic, Length, Padding).
    public struct DirectoryItem: Sendable, Equatable {
        public var fields: [String: String]
        public var mime: String? { fields["Mime"] }
        public var semantic: String? { fields["Semantic"] }
        public var length: Int64? { fields["Length"].flatMap { Int64($0.trimmingSpaces) } }
        public var padding: Int64? { fields["Padding"].flatMap { Int64($0.trimmingSpaces) } }
    }

    public var properties: [Property]
    public var directory: [DirectoryItem]

    public static let cameraNamespace = "http://ns.google.com/photos/1.0/camera/"
    public static let containerNamespace = "http://ns.google.com/photos/1.0/container/"
    public static let itemNamespace = "http://ns.google.com/photos/1.0/container/item/"
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    public func value(_ namespace: String, _ name: String) -> String? {
        properties.first { $0.namespace == namespace && $0.name == name }?.value
    }

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses an XMP packet. Entities are not expanded, no network or DTD is loaded.
    public static func parse(_ bytes: [UInt8], base: Int64, path: String) throws -> XMPPacket {
        _ = initialised
        guard bytes.count <= Limits.maxMetadataPayloadBytes, let length = Int32(exactly: bytes.count) else {
            throw ParseError(.limitExceeded, "XMP packet of \(bytes.count) bytes", offset: base, path: path)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer -> xmlDocPtr? in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, length, "xmp.xml", "UTF-8", options) }
            }
        }
        guard let document else {
            throw ParseError(.invalidValue, "XMP is not well-formed XML", offset: base, path: path)
        }
        defer { xmlFreeDoc(document) }
        var packet = XMPPacket(properties: [], directory: [])
        if let root = xmlDocGetRootElement(document) { packet.walk(root, depth: 0) }
        return packet
    }

    private mutating func walk(_ node: xmlNodePtr, depth: Int) {
        guard depth < 64, properties.count < Limits.maxItems else { return }
        let namespace = Self.namespace(of: node)
        let name = Self.string(node.pointee.name)
        if namespace == Self.containerNamespace && name == "Item" {
            directory.append(DirectoryItem(fields: Self.itemFields(node)))
        }
        var attribute = node.pointee.properties
        while let current = attribute {
            if let ns = current.pointee.ns, Self.string(ns.pointee.href) != Self.rdfNamespace {
                let value = Self.text(of: current.pointee.children)
                properties.append(Property(namespace: Self.string(ns.pointee.href), name: Self.string(current.pointee.name), value: value))
            }
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        var hasElementChild = false
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                hasElementChild = true
                walk(current, depth: depth + 1)
            }
            child = current.pointee.next
        }
        if !hasElementChild, let namespace, namespace != Self.rdfNamespace, node.pointee.parent != nil {
            let value = Self.text(of: node.pointee.children)
            if !value.isEmpty { properties.append(Property(namespace: namespace, name: name, value: value)) }
        }
    }

    /// Fields of a `Container:Item`: `Item:*` attributes on it or on its descendants, or `Item:*` elements.
    private static func itemFields(_ node: xmlNodePtr) -> [String: String] {
        var fields: [String: String] = [:]
        func visit(_ node: xmlNodePtr, depth: Int) {
            guard depth < 8 else { return }
            var attribute = node.pointee.properties
            while let current = attribute {
                if let ns = current.pointee.ns, string(ns.pointee.href) == itemNamespace {
                    fields[string(current.pointee.name)] = text(of: current.pointee.children)
                }
                attribute = current.pointee.next
            }
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE {
                    if namespace(of: current) == itemNamespace {
                        fields[string(current.pointee.name)] = text(of: current.pointee.children)
                    }
                    visit(current, depth: depth + 1)
                }
                child = current.pointee.next
            }
        }
        visit(node, depth: 0)
        return fields
    }

    private static func namespace(of node: xmlNodePtr) -> String? {
        node.pointee.ns.map { string($0.pointee.href) }
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func text(of first: xmlNodePtr?) -> String {
        var result = ""
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE, let content = current.pointee.content {
                result += String(cString: content)
            }
            node = current.pointee.next
        }
        return result.trimmingCharacters(in: " \n\r\t")
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        var slice = Substring(self)
        while let first = slice.first, drop.contains(first) { slice.removeFirst() }
        while let last = slice.last, drop.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
