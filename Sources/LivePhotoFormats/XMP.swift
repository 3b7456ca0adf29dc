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
    /// unparsed (`InspectOptions.xmpProperties`), as parsing an iPhone's 2 KB packet costs
    /// about 200,000 instructions.
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

/// Edits of the motion-photo fields of an XMP packet, through libxml2: every other property,
/// namespace and processing instruction (`xpacket`) is written back as it was.
public enum XMPEditor {
    /// `GCamera` properties that say "this file holds a movie".
    static let motionFields: Set<String> = [
        "MotionPhoto", "MotionPhotoVersion", "MotionPhotoPresentationTimestampUs", "MotionPhotoOffset",
        "MicroVideo", "MicroVideoVersion", "MicroVideoOffset", "MicroVideoPresentationTimestampUs",
    ]

    /// What a motion photo's XMP says about its movie.
    public struct MotionFields: Sendable, Equatable {
        public var primaryMime: String
        public var primaryPadding: Int64
        public var movieLength: Int64
        public var presentationTimestampUs: Int64

        public init(primaryMime: String, primaryPadding: Int64, movieLength: Int64, presentationTimestampUs: Int64) {
            self.primaryMime = primaryMime
            self.primaryPadding = primaryPadding
            self.movieLength = movieLength
            self.presentationTimestampUs = presentationTimestampUs
        }
    }

    /// An empty packet (with `xpacket` wrappers) to add properties to.
    public static let emptyPacket = Array("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""/></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    /// The packet without the motion-photo properties and without the directory's movie item
    /// (the whole directory when only the primary image is left). Returns what was removed.
    public static func removingMotionPhoto(_ bytes: [UInt8], path: String) throws -> (bytes: [UInt8], removed: [String]) {
        try edit(bytes, path: path) { document in
            removeMotionPhoto(document)
        }
    }

    /// The packet (or a new one) with exactly one motion photo description: `GCamera:MotionPhoto`,
    /// version 1, the presentation timestamp, and a directory of the primary image and the movie.
    public static func settingMotionPhoto(_ bytes: [UInt8]?, fields: MotionFields, path: String) throws -> [UInt8] {
        try edit(bytes ?? emptyPacket, path: path) { document in
            _ = removeMotionPhoto(document)
            guard let description = firstElement(document, namespace: XMPPacket.rdfNamespace, name: "Description") else { return [] }
            let camera = namespace(description, XMPPacket.cameraNamespace, "GCamera")
            let container = namespace(description, XMPPacket.containerNamespace, "Container")
            let item = namespace(description, XMPPacket.itemNamespace, "Item")
            let rdf = namespace(description, XMPPacket.rdfNamespace, "rdf")
            xmlSetNsProp(description, camera, "MotionPhoto", "1")
            xmlSetNsProp(description, camera, "MotionPhotoVersion", "1")
            xmlSetNsProp(description, camera, "MotionPhotoPresentationTimestampUs", String(fields.presentationTimestampUs))
            let directory = xmlNewChild(description, container, "Directory", nil)
            let sequence = xmlNewChild(directory, rdf, "Seq", nil)
            let items: [[(String, String)]] = [
                [("Mime", fields.primaryMime), ("Semantic", "Primary"), ("Length", "0"), ("Padding", String(fields.primaryPadding))],
                [("Mime", "video/mp4"), ("Semantic", "MotionPhoto"), ("Length", String(fields.movieLength)), ("Padding", "0")],
            ]
            for entries in items {
                let listItem = xmlNewChild(sequence, rdf, "li", nil)
                xmlSetNsProp(listItem, rdf, "parseType", "Resource")
                let node = xmlNewChild(listItem, container, "Item", nil)
                for (name, value) in entries { xmlSetNsProp(node, item, name, value) }
            }
            return []
        }.bytes
    }

    /// `bytes` grown to `count` with spaces before the closing `xpacket` (or at the end): an
    /// XMP item rewritten in place keeps its size.
    public static func padded(_ bytes: [UInt8], to count: Int) -> [UInt8]? {
        guard bytes.count <= count else { return nil }
        let spaces = [UInt8](repeating: 0x20, count: count - bytes.count)
        let marker = Array("<?xpacket end".utf8)
        if let index = (0...max(0, bytes.count - marker.count)).last(where: { bytes.count >= marker.count && bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) {
            return Array(bytes[..<index]) + spaces + Array(bytes[index...])
        }
        return bytes + spaces
    }

    private static func edit(_ bytes: [UInt8], path: String, _ change: (xmlDocPtr) -> [String]) throws -> (bytes: [UInt8], removed: [String]) {
        _ = XMPPacket.parserReady
        guard bytes.count <= Limits.maxMetadataPayloadBytes, let length = Int32(exactly: bytes.count) else {
            throw ParseError(.limitExceeded, "XMP packet of \(bytes.count) bytes", offset: 0, path: path)
        }
        // Read as `XMPPacket.parse` reads it (UTF-8 or UTF-16 by the first bytes); written in UTF-8.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        let parsed = bytes.withUnsafeBufferPointer { buffer -> xmlDocPtr? in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, length, "xmp.xml", nil, options) }
            }
        }
        guard let document = parsed else { throw ParseError(.invalidValue, "XMP is not well-formed XML", offset: 0, path: path) }
        defer { xmlFreeDoc(document) }
        let removed = change(document)
        var memory: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpMemoryEnc(document, &memory, &size, "UTF-8")
        guard let memory, size > 0 else { throw ParseError(.invalidValue, "XMP could not be written back", offset: 0, path: path) }
        defer { lpcheck_xml_free(memory) }
        var output = Array(UnsafeBufferPointer(start: memory, count: Int(size)))
        // libxml2 adds an XML declaration; an XMP packet starts with its xpacket instruction.
        if output.starts(with: Array("<?xml ".utf8)), let end = output.firstIndex(of: 0x0A) { output.removeSubrange(...end) }
        return (output, removed)
    }

    /// Removes the motion-photo properties and the movie's directory item; names what went.
    private static func removeMotionPhoto(_ document: xmlDocPtr) -> [String] {
        var removed: [String] = []
        var doomed: [xmlNodePtr] = []
        guard let root = xmlDocGetRootElement(document) else { return [] }
        XMLTree.preorder(root) { node, depth in
            guard depth < 64 else { return false }
            let namespace = node.pointee.ns.map { XMPPacket.string($0.pointee.href) }
            let name = XMPPacket.string(node.pointee.name)
            if namespace == XMPPacket.cameraNamespace && motionFields.contains(name) {
                doomed.append(node)
                removed.append("GCamera:\(name)")
                return false
            }
            if namespace == XMPPacket.containerNamespace && name == "Directory" {
                let items = directoryItems(node)
                let movies = items.filter { isMovieItem($0.fields) }
                if items.count - movies.count <= 1 {
                    doomed.append(node)
                    removed.append("Container:Directory")
                } else {
                    for movie in movies { doomed.append(movie.entry) }
                    removed += movies.map { _ in "Container:Directory MotionPhoto item" }
                }
                return false
            }
            var attribute = node.pointee.properties
            while let current = attribute {
                attribute = current.pointee.next
                if let ns = current.pointee.ns, XMPPacket.string(ns.pointee.href) == XMPPacket.cameraNamespace,
                   motionFields.contains(XMPPacket.string(current.pointee.name)) {
                    removed.append("GCamera:\(XMPPacket.string(current.pointee.name))")
                    xmlRemoveProp(current)
                }
            }
            return true
        }
        for node in doomed {
            xmlUnlinkNode(node)
            xmlFreeNode(node)
        }
        return removed
    }

    private static func isMovieItem(_ fields: [String: String]) -> Bool {
        (fields["Mime"] ?? "").hasPrefix("video/") || fields["Semantic"] == "MotionPhoto"
    }

    /// The `Container:Item`s of a directory with the `rdf:li` that holds each.
    private static func directoryItems(_ directory: xmlNodePtr) -> [(entry: xmlNodePtr, fields: [String: String])] {
        var found: [(entry: xmlNodePtr, fields: [String: String])] = []
        XMLTree.preorder(directory) { node, depth in
            guard node != directory else { return true }
            let namespace = node.pointee.ns.map { XMPPacket.string($0.pointee.href) }
            if namespace == XMPPacket.containerNamespace && XMPPacket.string(node.pointee.name) == "Item" {
                // The entry that holds it: its nearest rdf:li below the directory, else the item.
                var entry: xmlNodePtr?
                var above = node.pointee.parent
                while let current = above, current != directory, entry == nil {
                    if current.pointee.ns.map({ XMPPacket.string($0.pointee.href) }) == XMPPacket.rdfNamespace && XMPPacket.string(current.pointee.name) == "li" {
                        entry = current
                    }
                    above = current.pointee.parent
                }
                found.append((entry ?? node, XMPPacket.itemFields(node)))
                return false
            }
            return depth < 16
        }
        return found
    }

    private static func firstElement(_ document: xmlDocPtr, namespace: String, name: String) -> xmlNodePtr? {
        guard let root = xmlDocGetRootElement(document) else { return nil }
        var found: xmlNodePtr?
        XMLTree.preorder(root) { node, depth in
            guard found == nil else { return false }
            if node.pointee.ns.map({ XMPPacket.string($0.pointee.href) }) == namespace && XMPPacket.string(node.pointee.name) == name {
                found = node
                return false
            }
            return depth < 64
        }
        return found
    }

    /// The namespace bound to `href` in scope at `node`, declared on it with `prefix` when none is.
    private static func namespace(_ node: xmlNodePtr, _ href: String, _ prefix: String) -> xmlNsPtr? {
        if let existing = xmlSearchNsByHref(node.pointee.doc, node, href) { return existing }
        return xmlNewNs(node, href, prefix)
    }
}

/// Element trees walked without recursion or a stack: libxml2's nodes know their parent and
/// next sibling, so the walk moves along them, counting its depth.
enum XMLTree {
    /// The first element node from `node` on along its siblings.
    static func firstElement(from node: xmlNodePtr?) -> xmlNodePtr? {
        var current = node
        while let candidate = current, candidate.pointee.type != XML_ELEMENT_NODE { current = candidate.pointee.next }
        return current
    }

    /// `root` and the elements below it in document order; `body` gets each with its depth
    /// (`root` 0) and says whether to visit its children (each caller bounds the depth; past
    /// 256 levels nothing is descended into).
    static func preorder(_ root: xmlNodePtr, _ body: (xmlNodePtr, Int) -> Bool) {
        var node = root
        var depth = 0
        while true {
            if body(node, depth), depth < 256, let child = firstElement(from: node.pointee.children) {
                (node, depth) = (child, depth + 1)
                continue
            }
            // The next element in document order not below `node`: a sibling, else an ancestor's.
            var at = node
            while true {
                if at == root { return }
                if let sibling = firstElement(from: at.pointee.next) {
                    node = sibling
                    break
                }
                guard let parent = at.pointee.parent, depth > 0 else { return }
                (at, depth) = (parent, depth - 1)
            }
        }
    }
}
