/// JUMBF (ISO/IEC 19566-5) boxes, flat: each superbox (`jumb`) with its description box's type
/// UUID and label, each content box with its payload, and the index of the superbox holding it.
/// Read without recursion (a work list of ranges), held to a depth and a box count.
public struct JUMBF: Sendable {
    public struct Node: Sendable, Equatable {
        public var type: String
        /// The box's payload in the store's bytes (a superbox's: its children after `jumd`).
        public var payload: Range<Int>
        /// A superbox's description: its content type (16 bytes) and label.
        public var uuid: [UInt8]?
        public var label: String?
        public var parent: Int?

        /// A C2PA content type's first four bytes as text (`c2pa`, `c2ma`, `c2as`, `c2cl`, `c2cs`, `cbor`, `json`).
        public var contentType: String? { uuid.map { String(decoding: $0.prefix(4), as: UTF8.self) } }
    }

    public static let maxDepth = 16
    public static let maxNodes = 100_000

    public var nodes: [Node] = []

    public struct Failure: Error, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "JUMBF at byte \(offset): \(reason)" }
    }

    /// The boxes of `bytes` (which hold one or more boxes from their start).
    public init(_ bytes: [UInt8]) throws(Failure) {
        var work: [(range: Range<Int>, parent: Int?, depth: Int)] = [(0..<bytes.count, nil, 0)]
        while let (range, parent, depth) = work.popLast() {
            var at = range.lowerBound
            while at < range.upperBound {
                guard range.upperBound - at >= 8 else { throw Failure(offset: at, reason: "\(range.upperBound - at) bytes left, less than a box header") }
                var size = Self.u32(bytes, at).map(Int.init) ?? 0
                let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
                var header = 8
                if size == 1 {
                    guard range.upperBound - at >= 16, let large = Self.u64(bytes, at + 8), large <= UInt64(range.upperBound - at) else {
                        throw Failure(offset: at, reason: "a 64-bit box size past its container")
                    }
                    (size, header) = (Int(large), 16)
                } else if size == 0 {
                    size = range.upperBound - at
                }
                guard size >= header, size <= range.upperBound - at else { throw Failure(offset: at, reason: "a '\(type)' box of \(size) bytes, \(range.upperBound - at) left in its container") }
                guard nodes.count < Self.maxNodes else { throw Failure(offset: at, reason: "more than \(Self.maxNodes) boxes") }
                let payload = (at + header)..<(at + size)
                if type == "jumb" {
                    guard depth < Self.maxDepth else { throw Failure(offset: at, reason: "superboxes nested deeper than \(Self.maxDepth)") }
                    let (uuid, label, children) = try Self.description(bytes, payload)
                    nodes.append(Node(type: type, payload: children, uuid: uuid, label: label, parent: parent))
                    work.append((children, nodes.count - 1, depth + 1))
                } else {
                    nodes.append(Node(type: type, payload: payload, parent: parent))
                }
                at += size
            }
        }
    }

    /// A superbox's description box (`jumd`: type UUID, toggles, label if bit 1, ID if bit 2,
    /// signature if bit 3) and the range of the boxes after it.
    static func description(_ bytes: [UInt8], _ payload: Range<Int>) throws(Failure) -> ([UInt8], String?, Range<Int>) {
        guard payload.count >= 8, let size = u32(bytes, payload.lowerBound).map(Int.init), bytes[(payload.lowerBound + 4)..<(payload.lowerBound + 8)].elementsEqual("jumd".utf8),
              size >= 8 + 17, size <= payload.count else {
            throw Failure(offset: payload.lowerBound, reason: "a superbox without its description box (jumd) first")
        }
        let start = payload.lowerBound + 8, end = payload.lowerBound + size
        let uuid = Array(bytes[start..<(start + 16)])
        let toggles = bytes[start + 16]
        var label: String?
        if toggles & 0x02 != 0 {
            let from = start + 17
            guard let zero = bytes[from..<end].firstIndex(of: 0) else { throw Failure(offset: from, reason: "a description label without its terminating zero") }
            label = String(decoding: bytes[from..<zero], as: UTF8.self)
        }
        return (uuid, label, end..<payload.upperBound)
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64? {
        guard at >= 0, at + 8 <= bytes.count else { return nil }
        return bytes[at..<(at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The superboxes and content boxes directly inside node `index` (nil: the top level).
    public func children(of index: Int?) -> [Int] { nodes.indices.filter { nodes[$0].parent == index } }
}
