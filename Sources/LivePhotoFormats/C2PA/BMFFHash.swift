/// `c2pa.hash.bmff` (v1), `.v2` and `.v3`: a hash over an ISO BMFF file's bytes but the boxes its
/// exclusions choose by path. From v2 on, each top-level box that is not wholly excluded adds its
/// file offset (eight bytes, big-endian) to the hash just before its bytes, so moving a box
/// breaks the binding. Recomputed here for the file-level `hash`; a Merkle tree over fragments
/// (`merkle`) is read but not recomputed.
public struct BMFFHash: Sendable, Equatable {
    public struct DataMatch: Sendable, Equatable {
        public var offset: Int64
        public var value: [UInt8]
    }

    public struct Subset: Sendable, Equatable {
        public var offset: Int64
        /// 0: to the end of the box.
        public var length: Int64
    }

    /// One exclusion map: the boxes at `xpath` that match every condition given.
    public struct Exclusion: Sendable, Equatable {
        public var xpath: String
        public var length: Int64?
        public var data: [DataMatch] = []
        /// nil: the whole box; otherwise only these parts of it.
        public var subsets: [Subset]?
        public var version: Int64?
        public var flags: [UInt8]?
        public var exact: Bool?
    }

    public var label: String
    public var algorithm: String?
    public var hash: [UInt8]?
    public var exclusions: [Exclusion]
    public var hasMerkleTree: Bool

    /// Whether top-level box offsets enter the hash (every version after the first).
    public var hashesBoxOffsets: Bool {
        let base = label.components(separatedBy: "__").first ?? label
        guard let version = base.split(separator: ".").last, version.hasPrefix("v"), let number = Int(version.dropFirst()) else { return false }
        return number > 1
    }

    /// The assertion's CBOR map read; nil with a problem said when it is not one.
    init(label: String, _ value: CBORValue, problems: inout [String], where place: String) {
        self.label = label
        algorithm = value["alg"]?.text
        hash = value["hash"]?.bytes
        hasMerkleTree = value["merkle"]?.array.map { !$0.isEmpty } ?? false
        exclusions = []
        for entry in value["exclusions"]?.array ?? [] {
            guard let xpath = entry["xpath"]?.text else {
                problems.append("\(place): an exclusion without an xpath")
                continue
            }
            var exclusion = Exclusion(xpath: xpath)
            exclusion.length = entry["length"]?.integer
            exclusion.version = entry["version"]?.integer
            exclusion.flags = entry["flags"]?.bytes
            if case .bool(let exact)? = entry["exact"] { exclusion.exact = exact }
            for match in entry["data"]?.array ?? [] {
                guard let offset = match["offset"]?.integer, offset >= 0, let bytes = match["value"]?.bytes else {
                    problems.append("\(place): a data match of \(xpath) without an offset and a value")
                    continue
                }
                exclusion.data.append(DataMatch(offset: offset, value: bytes))
            }
            if let subsets = entry["subset"]?.array {
                exclusion.subsets = subsets.compactMap { subset in
                    guard let offset = subset["offset"]?.integer, let length = subset["length"]?.integer, offset >= 0, length >= 0 else {
                        problems.append("\(place): a subset of \(xpath) without an offset and a length")
                        return nil
                    }
                    return Subset(offset: offset, length: length)
                }
            }
            exclusions.append(exclusion)
        }
    }

    /// What is hashed, in order: a run of the file's bytes, or a top-level box's offset.
    enum Piece: Equatable {
        case bytes(Range<Int64>)
        case offset(Int64)
    }

    /// The pieces the hash is computed over in `source`: every byte but the excluded ones, with
    /// the top-level offsets (v2 and later) put in before the box they start.
    func pieces(source: ByteSource) throws -> [Piece] {
        let tree = try BoxTree(source: source)
        var excluded: [Range<Int64>] = []
        var offsets = tree.roots.map { tree.nodes[$0].range.lowerBound }
        for exclusion in exclusions {
            for index in try tree.boxes(at: exclusion.xpath) where try matches(exclusion, tree.nodes[index], source) {
                let box = tree.nodes[index].range
                guard let subsets = exclusion.subsets else {
                    excluded.append(box)
                    // A top-level box wholly excluded adds no offset either.
                    if let position = offsets.firstIndex(of: box.lowerBound) { offsets.remove(at: position) }
                    continue
                }
                let size = Int64(box.count)
                for subset in subsets where subset.offset <= size {
                    let length = subset.length == 0 ? size - subset.offset : min(subset.length, size - subset.offset)
                    excluded.append((box.lowerBound + subset.offset)..<(box.lowerBound + subset.offset + length))
                }
            }
        }
        let included = Self.complement(of: excluded, in: 0..<source.size)
        guard hashesBoxOffsets else { return included.map(Piece.bytes) }
        offsets.sort()
        var placed: [(at: Int64, order: Int, piece: Piece)] = []
        func place(_ piece: Piece) {
            let at: Int64
            switch piece { case .bytes(let range): at = range.lowerBound; case .offset(let offset): at = offset }
            placed.append((at, placed.count, piece))
        }
        for run in included {
            var current = run
            for offset in offsets where current.contains(offset) {
                if offset > current.lowerBound {
                    place(.bytes(current.lowerBound..<offset))
                    current = offset..<current.upperBound
                }
                place(.offset(offset))
            }
            place(.bytes(current))
        }
        // An offset inside an excluded part of a box (a subset) is hashed still, when it lies
        // between the first and the last byte hashed.
        let first = included.first?.lowerBound ?? 0, last = included.last.map { $0.upperBound - 1 } ?? source.size - 1
        for offset in offsets where !included.contains(where: { $0.contains(offset) }) && offset > first && offset < last {
            place(.offset(offset))
        }
        placed.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        return placed.map(\.piece).map { piece in
            // One byte at a box's start is taken for its offset, as C2PA's reference does.
            if case .bytes(let range) = piece, range.count == 1, offsets.contains(range.lowerBound) { return .offset(range.lowerBound) }
            return piece
        }
    }

    func matches(_ exclusion: Exclusion, _ box: BoxTree.Node, _ source: ByteSource) throws -> Bool {
        if let length = exclusion.length, length != Int64(box.range.count) { return false }
        if let version = exclusion.version, let own = box.version, Int64(own) != version { return false }
        if let wanted = exclusion.flags, let own = box.flags {
            let flags = wanted.count >= 3 ? UInt32(wanted[0]) << 16 | UInt32(wanted[1]) << 8 | UInt32(wanted[2]) : 0
            if exclusion.exact ?? true ? flags != own : (flags | own) != flags { return false }
        }
        for match in exclusion.data {
            let (at, overflow) = box.range.lowerBound.addingReportingOverflow(match.offset)
            guard !overflow, at <= source.size, Int64(match.value.count) <= source.size - at else {
                throw ParseError(.outsideFile, "the data match of \(exclusion.xpath) at byte \(box.range.lowerBound) + \(match.offset) passes the end of the file", offset: box.range.lowerBound)
            }
            if try source.read(at: at, count: match.value.count) != match.value { return false }
        }
        return true
    }

    /// The parts of `whole` that no range of `removed` covers, in order.
    static func complement(of removed: [Range<Int64>], in whole: Range<Int64>) -> [Range<Int64>] {
        var runs: [Range<Int64>] = []
        var at = whole.lowerBound
        for range in removed.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if range.lowerBound > at { runs.append(at..<min(range.lowerBound, whole.upperBound)) }
            at = max(at, range.upperBound)
        }
        if at < whole.upperBound { runs.append(at..<whole.upperBound) }
        return runs.filter { !$0.isEmpty }
    }

    /// The hash recomputed over `source` (sha256 only); nil when the algorithm is another.
    public func computed(source: ByteSource) throws -> [UInt8]? {
        guard (algorithm ?? "sha256").lowercased() == "sha256" else { return nil }
        var hasher = SHA256.Hasher()
        for piece in try pieces(source: source) {
            switch piece {
            case .offset(let offset):
                hasher.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(offset) >> (56 - 8 * $0)) })
            case .bytes(let range):
                var at = range.lowerBound
                while at < range.upperBound {
                    let count = Int(min(1 << 20, range.upperBound - at))
                    hasher.update(try source.read(at: at, count: count))
                    at += Int64(count)
                }
            }
        }
        return hasher.finish()
    }
}
