/// An ISO BMFF file's boxes as C2PA's BMFF hash names them by path (`/moov/trak/mdia/minf/stbl/stco`):
/// the top level and the children of the containers C2PA's reference descends into, each with
/// its version and flags where the box is a full box. Read from the headers alone, without
/// recursion, within a bound on boxes and depth.
struct BoxTree {
    struct Node {
        var type: FourCC
        var range: Range<Int64>
        var version: UInt8?
        var flags: UInt32?
        var children: [Int] = []
    }

    private(set) var nodes: [Node] = []
    private(set) var roots: [Int] = []

    static let maxBoxes = 1_000_000, maxDepth = 32

    /// Containers whose children are part of the tree.
    static let containers: Set<FourCC> = ["moov", "trak", "mdia", "minf", "stbl", "moof", "traf", "edts", "udta", "dinf", "tref", "treg", "mvex", "mfra", "meta", "schi"]
    /// Full boxes of ISO/IEC 14496-12 (version and flags after the header).
    static let fullBoxes: Set<FourCC> = [
        "pdin", "mvhd", "tkhd", "mdhd", "hdlr", "nmhd", "elng", "stsd", "stdp", "stts", "ctts", "cslg", "stss", "stsh", "elst", "dref",
        "stsz", "stz2", "stsc", "stco", "co64", "padb", "subs", "saiz", "saio", "mehd", "trex", "mfhd", "tfhd", "trun", "tfra", "mfro",
        "tfdt", "leva", "trep", "assp", "sbgp", "sgpd", "csgp", "cprt", "tsel", "kind", "meta", "xml ", "bxml", "iloc", "pitm", "ipro",
        "infe", "iinf", "iref", "ipma", "schm", "fiin", "fpar", "fecr", "gitn", "fire", "stri", "stsg", "stvi", "csch", "sidx", "ssix",
        "prft", "srpp", "vmhd", "smhd", "srat", "chnl", "dmix", "txtC", "mime", "uri ", "uriI", "hmhd", "sthd", "vvhd", "medc",
    ]

    init(source: ByteSource) throws {
        // Each frame: the parent (-1: the file), where the next box starts, where the parent ends.
        var frames: [(parent: Int, at: Int64, end: Int64)] = [(-1, 0, source.size)]
        while var frame = frames.popLast() {
            // Fewer than a header's bytes, or a box of size 0, ends the level (as C2PA's reference reads it).
            guard frame.end - frame.at >= 8 else { continue }
            let header = try source.read(at: frame.at, count: 8)
            let type = FourCC(UInt32(header[4]) << 24 | UInt32(header[5]) << 16 | UInt32(header[6]) << 8 | UInt32(header[7]))
            var size = Int64(UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3]))
            var headerSize: Int64 = 8
            if size == 1 {
                guard frame.end - frame.at >= 16 else { throw ParseError(.truncated, "a large box header cut short", offset: frame.at) }
                let large = try source.read(at: frame.at + 8, count: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int64.max) else { throw ParseError(.invalidSize, "a box of \(large) bytes", offset: frame.at) }
                (size, headerSize) = (Int64(large), 16)
            }
            guard size != 0 else { continue }
            guard size >= headerSize else { throw ParseError(.invalidSize, "a \(type) box of \(size) bytes, shorter than its header", offset: frame.at) }
            if size > frame.end - frame.at {
                // An mdat running past the end is hashed as far as the file goes.
                guard type == "mdat" else { throw ParseError(.outsideFile, "a \(type) box of \(size) bytes passes the end of its parent at byte \(frame.end)", offset: frame.at) }
                size = frame.end - frame.at
            }
            guard nodes.count < Self.maxBoxes else { throw ParseError(.limitExceeded, "more than \(Self.maxBoxes) boxes", offset: frame.at) }
            let range = frame.at..<(frame.at + size)
            var node = Node(type: type, range: range)
            var contentStart = frame.at + headerSize
            if type == "uuid" {
                guard range.upperBound - contentStart >= 16 else { throw ParseError(.truncated, "a uuid box without its extended type", offset: frame.at) }
                let userType = try source.read(at: contentStart, count: 16)
                contentStart += 16
                if userType == ContentCredentials.bmffUUID { try Self.versionAndFlags(&node, at: contentStart, source) }
            } else if Self.fullBoxes.contains(type) {
                // QuickTime's meta has no version and flags: its first child's header follows at once.
                let quickTimeMeta = try type == "meta" && range.upperBound - contentStart >= 8 && source.read(at: contentStart + 4, count: 4) == Array("hdlr".utf8)
                if !quickTimeMeta {
                    try Self.versionAndFlags(&node, at: contentStart, source)
                    contentStart += 4
                }
            }
            let index = nodes.count
            nodes.append(node)
            if frame.parent < 0 { roots.append(index) } else { nodes[frame.parent].children.append(index) }
            frame.at = range.upperBound
            frames.append(frame)
            if Self.containers.contains(type) {
                guard frames.count <= Self.maxDepth else { throw ParseError(.limitExceeded, "boxes nested more than \(Self.maxDepth) deep", offset: frame.at) }
                frames.append((index, min(contentStart, range.upperBound), range.upperBound))
            }
        }
    }

    static func versionAndFlags(_ node: inout Node, at offset: Int64, _ source: ByteSource) throws {
        guard node.range.upperBound - offset >= 4 else { throw ParseError(.truncated, "a \(node.type) box without its version and flags", offset: node.range.lowerBound) }
        let bytes = try source.read(at: offset, count: 4)
        node.version = bytes[0]
        node.flags = UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    /// The boxes an xpath names: steps of a four-character type, each optionally `[n]` (the
    /// n-th of that type, from 1); without an index every box of the type at that level.
    func boxes(at xpath: String) throws -> [Int] {
        var level = roots
        var chosen: [Int] = []
        for step in xpath.drop(while: { $0 == "/" }).split(separator: "/", omittingEmptySubsequences: false) {
            var name = Substring(step), index: Int?
            if let open = step.firstIndex(of: "[") {
                guard step.hasSuffix("]"), let number = Int(step[step.index(after: open)..<step.index(before: step.endIndex)]), number >= 1 else {
                    throw ParseError(.invalidValue, "an exclusion xpath that cannot be read: \(xpath)", offset: 0)
                }
                (name, index) = (step[..<open], number)
            }
            guard name.utf8.count >= 4 else { throw ParseError(.invalidValue, "an exclusion xpath that cannot be read: \(xpath)", offset: 0) }
            let matching = level.filter { Array(name.utf8) == nodes[$0].type.bytes }
            if let index {
                guard index <= matching.count else { return [] }
                chosen = [matching[index - 1]]
            } else {
                chosen = matching
            }
            level = chosen.flatMap { nodes[$0].children }
        }
        return chosen
    }
}
