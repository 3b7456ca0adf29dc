internal import CLibXML2

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
