internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// XMP properties read through libxml2: every simple property (attribute or text-only element)
/// with its namespace, and the Google `Container:Directory` items of motion photos.
public struct XMPPacket: Sendable, Equatable {
    public struct Property: Sendable, Equatable {
        public var namespace: String
        public var name: String
        public var value: String
    }

    /// One `Container:Item` of a motion photo directory (Mime, Semantic, Length, Padding).
    public struct DirectoryItem: Sendable, Equatable, Codable {
        public var fields: [String: String]
        public init(fields: [String: String]) { self.fields = fields }
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
    public static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    public func value(_ namespace: String, _ name: String) -> String? {
        properties.first { $0.namespace == namespace && $0.name == name }?.value
    }

    /// The part every Google photos namespace shares (`GCamera`, `Container`, `Item`).
    static let googlePhotosNamespaceStem = Array("ns.google.com/photos/1.0/".utf8)

    /// Whether the packet can hold a Google motion-photo property (`GCamera:*`, `Container:*`):
    /// it names a Google photos namespace, or it is written so that a byte search could miss one
    /// (a character or entity reference, UTF-16 or UTF-32, whose bytes hold zeros). A packet of
    /// which this is false declares none of the properties the rules read; `check` leaves it
    /// unparsed (`InspectOptions.xmpProperties`): parsing an iPhone's packet would cost more
    /// than the rest of the still's reading (BENCHMARKS.md, issue 26).
    public static func mayHoldMotionPhoto(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, !raw.isEmpty else { return false }
            if memchr(base, 0x26, raw.count) != nil || memchr(base, 0x00, raw.count) != nil { return true }
            // Each "n" (memchr) compared with the stem (memcmp): memmem is a GNU extension.
            return googlePhotosNamespaceStem.withUnsafeBytes { needle in
                guard let stem = needle.baseAddress else { return false }
                var start = 0
                while raw.count - start >= needle.count, let hit = memchr(base + start, 0x6E, raw.count - start - needle.count + 1) {
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, stem, needle.count) == 0 { return true }
                    start = at + 1
                }
                return false
            }
        }
    }

    /// Whether the packet declares a motion photo or a micro video: `GCamera:MotionPhoto`,
    /// `GCamera:MicroVideo` or a `Container:Directory` item.
    public var declaresMotionPhoto: Bool {
        !directory.isEmpty || value(Self.cameraNamespace, "MotionPhoto") != nil || value(Self.cameraNamespace, "MicroVideo") != nil
    }

    static let parserReady: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses an XMP packet. Entities are not expanded, no network or DTD is loaded.
    public static func parse(_ bytes: [UInt8], base: Int64, path: String) throws -> XMPPacket {
        _ = parserReady
        guard bytes.count <= Limits.maxMetadataPayloadBytes, let length = Int32(exactly: bytes.count) else {
            throw ParseError(.limitExceeded, "XMP packet of \(bytes.count) bytes", offset: base, path: path)
        }
        // COMPACT keeps short texts inside their nodes and NOBLANKS drops the whitespace between
        // elements (an XMP packet is mostly indentation); no property reads either. No encoding
        // is named: the parser tells UTF-8 from UTF-16 by the first bytes (UTF-8 is read in
        // place; naming UTF-8 sent every byte through a converter, a quarter of the parse), and
        // IGNORE_ENC leaves out an `encoding=` that says otherwise (XMP is Unicode, XMP part 1
        // 7.1; ExifTool reads it so too). UTF-32, which this libxml2 does not detect, stays an error.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue
                            | XML_PARSE_COMPACT.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer -> xmlDocPtr? in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, length, "xmp.xml", nil, options) }
            }
        }
        guard let document else {
            throw ParseError(.invalidValue, "XMP is not well-formed XML", offset: base, path: path)
        }
        defer { xmlFreeDoc(document) }
        var packet = XMPPacket(properties: [], directory: [])
        if let root = xmlDocGetRootElement(document) { packet.walk(root) }
        return packet
    }

    /// Collects properties and directory items from every element to 64 levels (`XMLTree.preorder`).
    private mutating func walk(_ root: xmlNodePtr) {
        XMLTree.preorder(root) { node, depth in
            guard depth < 64, properties.count < Limits.maxItems else { return false }
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
            // A leaf element is a property; with no element below it, nothing comes between its
            // attributes and it in document order.
            if XMLTree.firstElement(from: node.pointee.children) == nil, let namespace, namespace != Self.rdfNamespace, node.pointee.parent != nil {
                let value = Self.text(of: node.pointee.children)
                if !value.isEmpty { properties.append(Property(namespace: namespace, name: name, value: value)) }
            }
            return true
        }
    }

    /// Fields of a `Container:Item`: `Item:*` attributes on it or on its descendants, or `Item:*` elements.
    static func itemFields(_ item: xmlNodePtr) -> [String: String] {
        var fields: [String: String] = [:]
        XMLTree.preorder(item) { node, depth in
            if node != item, namespace(of: node) == itemNamespace {
                fields[string(node.pointee.name)] = text(of: node.pointee.children)
            }
            guard depth < 8 else { return false }
            var attribute = node.pointee.properties
            while let current = attribute {
                if let ns = current.pointee.ns, string(ns.pointee.href) == itemNamespace {
                    fields[string(current.pointee.name)] = text(of: current.pointee.children)
                }
                attribute = current.pointee.next
            }
            return true
        }
        return fields
    }

    private static func namespace(of node: xmlNodePtr) -> String? {
        node.pointee.ns.map { string($0.pointee.href) }
    }

    static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
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
        // Most values have nothing to trim: when neither end's byte is one of the set's, neither
        // end's character can be (the set holds single-byte characters), and no set is built.
        var utf8Set = set
        let (first, last) = (utf8.first, utf8.last)
        let endsKept = utf8Set.withUTF8 { characters in
            characters.allSatisfy { $0 < 0x80 } && first.map { !characters.contains($0) } ?? true && last.map { !characters.contains($0) } ?? true
        }
        if endsKept { return self }
        let drop = Set(set)
        var slice = Substring(self)
        while let first = slice.first, drop.contains(first) { slice.removeFirst() }
        while let last = slice.last, drop.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
