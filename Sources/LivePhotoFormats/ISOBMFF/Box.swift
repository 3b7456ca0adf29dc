/// One box of a QuickTime / ISO base media file, as found: its header and byte range. Children
/// are filled in for the containers that lpcheck descends into; every other box is kept as a
/// byte range, never an error.
public struct Box: Sendable, Equatable {
    public var type: FourCC
    /// Absolute offset of the box header.
    public var offset: Int64
    /// Total size including the header (for a box that runs past the end of the file, the size it claims).
    public var size: Int64
    public var headerSize: Int
    /// The `uuid` box's extended type.
    public var userType: [UInt8]?
    public var children: [Box]

    public var payloadOffset: Int64 { offset + Int64(headerSize) }
    public var payloadSize: Int64 { size - Int64(headerSize) }
    /// End offset; saturates rather than overflows for a hostile 64-bit size.
    public var end: Int64 {
        let (sum, overflow) = offset.addingReportingOverflow(size)
        return overflow ? Int64.max : sum
    }

    public init(type: FourCC, offset: Int64, size: Int64, headerSize: Int, userType: [UInt8]? = nil, children: [Box] = []) {
        self.type = type
        self.offset = offset
        self.size = size
        self.headerSize = headerSize
        self.userType = userType
        self.children = children
    }

}

/// Decoding of box headers (ISO/IEC 14496-12 §4.2): 32-bit size, `size == 1` with a 64-bit
/// size after the type, `size == 0` to the end of the enclosing range, and `uuid` extended types.
enum BoxHeader {
    /// What a header says, as plain data: the `uuid` extended type stays in the bytes.
    struct Fields {
        let type: FourCC
        let offset: Int64
        let size: Int64
        let headerSize: Int
    }

    /// Parses a header from `reader`, which must be positioned at a box inside a range of
    /// `available` bytes (the rest of the parent). Returns the box with an unchecked size: callers
    /// decide whether a box past the end is an error or an anomaly.
    static func parse(_ reader: inout ByteReader, available: Int64) throws -> Box {
        let start = reader.position
        let header = try fields(&reader, available: available)
        // A `uuid` header ends with its extended type, which `fields` checked and passed.
        let userType = header.type == "uuid" ? Array(reader.bytes[(start + header.headerSize - 16)..<(start + header.headerSize)]) : nil
        return Box(type: header.type, offset: header.offset, size: header.size, headerSize: header.headerSize, userType: userType)
    }

    /// The header fields alone (the box walk's form: nothing allocated), with the errors of `parse`.
    static func fields(_ reader: inout ByteReader, available: Int64) throws -> Fields {
        let start = reader.offset
        let size32: UInt32
        let type: FourCC
        if reader.remaining >= 8 {
            // Size and type in one load (a box walk reads a header for every child).
            let word = try reader.u64()
            (size32, type) = (UInt32(truncatingIfNeeded: word >> 32), FourCC(UInt32(truncatingIfNeeded: word)))
        } else {
            // Fewer bytes: the error of whichever read runs out, as each field's own read gives it.
            size32 = try reader.u32()
            type = try reader.fourCC()
        }
        var headerSize = 8
        var size = Int64(size32)
        if size32 == 1 {
            let large = try reader.u64()
            guard let exact = Int64(exactly: large) else {
                throw invalid(type, at: start, below: reader, "64-bit box size \(large) is out of range")
            }
            size = exact
            headerSize = 16
        } else if size32 == 0 {
            size = available
        }
        if type == "uuid" {
            try reader.require(16, "16-byte field")
            try reader.skip(16)
            headerSize += 16
        }
        guard size >= Int64(headerSize) else {
            throw invalid(type, at: start, below: reader, "box '\(type)' claims \(size) bytes, less than its \(headerSize)-byte header")
        }
        return Fields(type: type, offset: start, size: size, headerSize: headerSize)
    }

    /// The error of a header of `type` at `offset` in `reader`'s range, named below its path
    /// (out of line: the header read keeps no copy of the reader for it).
    @inline(never)
    private static func invalid(_ type: FourCC, at offset: Int64, below reader: ByteReader, _ message: String) -> ParseError {
        ParseError(.invalidSize, message, offset: offset, path: reader.path.isEmpty ? "\(type)" : reader.path + "/\(type)")
    }
}

/// Walks boxes held in memory (the payload of `moov`, HEIF `meta`, a sample entry ...).
public struct BoxIterator {
    private(set) var reader: ByteReader
    /// The path children are named below (built once per container).
    let prefix: PathPrefix
    /// How many children of each type so far.
    private var counts = SiblingCounts()
    private var seen = 0

    public init(_ reader: ByteReader) {
        self.reader = reader
        self.prefix = reader.childPrefix
    }

    /// One child as the walk found it: where it starts, where its payload starts and where it
    /// ends in the container's bytes, and its index among same-type siblings. Plain data of 32
    /// bytes (the header's offset, size and `uuid` type follow from these and the container), so
    /// a list of them holds nothing to retain or release.
    struct Child {
        let type: FourCC
        /// At most `Limits.maxBoxesPerContainer`.
        let index: Int32
        let start: Int
        let payloadStart: Int
        let end: Int

        /// A placeholder for unused slots.
        static var none: Child { Child(type: FourCC(0), index: 0, start: 0, payloadStart: 0, end: 0) }

        /// The header as `BoxHeader.parse` read it from `container`, the reader walked.
        func box(in container: ByteReader) -> Box {
            let headerSize = payloadStart - start
            // A `uuid` header ends with its 16-byte extended type, inside the checked range.
            let userType = type == "uuid" ? Array(container.bytes[(payloadStart - 16)..<payloadStart]) : nil
            return Box(type: type, offset: container.base + Int64(start), size: Int64(end - start), headerSize: headerSize, userType: userType)
        }
    }

    /// The next child: its header and a reader bounded to its payload whose path names it
    /// (`trak[2]` when a type repeats). Throws when a child runs past its parent.
    public mutating func next() throws -> (box: Box, payload: ByteReader)? {
        guard let child = try nextChild() else { return nil }
        return (child.box(in: reader), reader.payloadReader(from: child.payloadStart, to: child.end, type: child.type, index: Int(child.index),
                                                            below: prefix))
    }

    /// The next child's header, checked against the container; the walk moves past it.
    mutating func nextChild() throws -> Child? {
        // Fewer than 8 bytes left: QuickTime allows a 4-byte zero terminator; anything else is noise.
        guard reader.remaining >= 8 else {
            if reader.remaining > 0, reader.peek(reader.remaining)?.allSatisfy({ $0 == 0 }) == false {
                throw reader.error(.invalidSize, "\(reader.remaining) stray bytes after the last box")
            }
            return nil
        }
        seen += 1
        guard seen <= Limits.maxBoxesPerContainer else {
            throw reader.error(.limitExceeded, "more than \(Limits.maxBoxesPerContainer) boxes in one container")
        }
        let start = reader.position
        let box = try BoxHeader.fields(&reader, available: Int64(reader.remaining))
        let index = counts.next(box.type)
        let available = reader.end - start
        guard box.size <= Int64(available) else {
            var path = prefix.node.rendered
            prefix.steps.appending(PathStep(type: box.type, index: index)).render(below: &path)
            throw ParseError(
                .invalidSize, "box '\(box.type)' claims \(box.size) bytes but its parent has \(available) left",
                offset: box.offset, path: path)
        }
        // Both within `available`: the size was just checked and the header is at most 32 bytes.
        let child = Child(type: box.type, index: Int32(truncatingIfNeeded: index), start: start, payloadStart: start + box.headerSize,
                          end: start + Int(box.size))
        reader.moveToChildEnd(payloadStart: child.payloadStart, boxEnd: child.end)
        return child
    }

    /// Every child (box and payload). All headers are read and checked before the first child is
    /// handed out, so a damaged header later in the container throws before any child is used.
    public static func all(_ reader: ByteReader) throws -> BoxList {
        var iterator = BoxIterator(reader)
        let children = try iterator.remainingChildren()
        return BoxList(container: reader, prefix: iterator.prefix, children: children)
    }

    /// `all(reader).walk()` without the list in between (whose copies of the container's reader
    /// and path were retained and released again for every container walked), with the same
    /// checks: every header before the first child.
    static func walk(_ reader: ByteReader) throws -> BoxList.Walk {
        var iterator = BoxIterator(reader)
        let children = try iterator.remainingChildren()
        return BoxList.Walk(headers: iterator, children: children)
    }

    /// The children from here to the end, every header read and checked.
    private mutating func remainingChildren() throws -> BoxList.Children {
        var children = BoxList.Children()
        while let child = try nextChild() {
            // Past the four held in place: room for as many as the bytes left could still hold
            // at 16 bytes a box, so an item list grows once, not four times.
            children.append(child, roomForMore: reader.remaining / 16)
        }
        return children
    }
}

/// The children of a container that `BoxIterator.all` found, walked as (box, payload) pairs.
/// It keeps their headers as plain data and the container's reader once; each payload reader
/// is made when the walk reaches its child (a list of readers retained every one of them again
/// as it was stored and as it was read).
public struct BoxList: Sequence {
    let container: ByteReader
    let prefix: PathPrefix
    let children: Children

    /// The headers: the first four in place, the rest in an array. Most containers (a track's
    /// `mdia`, a `keys` entry, an item's `data`) have four children or fewer and allocate
    /// nothing for them; a list for every container cost an allocation and its release.
    struct Children {
        private var first = (BoxIterator.Child.none, BoxIterator.Child.none, BoxIterator.Child.none, BoxIterator.Child.none)
        private var more: [BoxIterator.Child] = []
        private(set) var count = 0

        /// Appends `child`; `roomForMore` (how many more there may be) sizes the list at the
        /// first child past four: at least a dozen, at most 4,096 (past those it grows as needed).
        mutating func append(_ child: BoxIterator.Child, roomForMore: Int = 0) {
            switch count {
            case 0: first.0 = child
            case 1: first.1 = child
            case 2: first.2 = child
            case 3: first.3 = child
            default:
                if more.isEmpty { more.reserveCapacity(Swift.min(Swift.max(12, roomForMore + 1), 4096)) }
                more.append(child)
            }
            count += 1
        }

        subscript(position: Int) -> BoxIterator.Child {
            switch position {
            case 0: return first.0
            case 1: return first.1
            case 2: return first.2
            case 3: return first.3
            default: return more[position - 4]
            }
        }
    }

    public var count: Int { children.count }
    public var isEmpty: Bool { children.count == 0 }
    /// The children's types in order (no payload reader made).
    var types: [FourCC] { (0..<children.count).map { children[$0].type } }

    /// The type of child `position` (0-based), nil past the end.
    func type(at position: Int) -> FourCC? { position >= 0 && position < children.count ? children[position].type : nil }

    /// The payload of child `position` (0-based), nil past the end.
    func payload(at position: Int) -> ByteReader? {
        guard position >= 0 && position < children.count else { return nil }
        let child = children[position]
        return container.payloadReader(from: child.payloadStart, to: child.end, type: child.type, index: Int(child.index), below: prefix)
    }
    public var underestimatedCount: Int { children.count }

    public struct Iterator: IteratorProtocol {
        let list: BoxList
        var position = 0

        public mutating func next() -> (box: Box, payload: ByteReader)? {
            guard position < list.children.count else { return nil }
            let child = list.children[position]
            position += 1
            return (child.box(in: list.container), list.container.payloadReader(from: child.payloadStart, to: child.end, type: child.type,
                                                                                 index: Int(child.index), below: list.prefix))
        }
    }

    public func makeIterator() -> Iterator { Iterator(list: self) }

    /// The children one by one with one payload reader that `next()` moves onto each in turn
    /// (the iterator made a reader for every child, retaining the container's bytes and path
    /// and releasing them again: a third of a box walk's cost). Reading `payload` in place, or
    /// through `inout`, costs nothing; a copy of it is a reader like any other. Made by
    /// `BoxIterator.walk`.
    struct Walk {
        /// The header walk that found the children: their container's bytes and path.
        private let headers: BoxIterator
        private let children: Children
        private var position = 0
        /// The payload of the child `next()` returned last, named as `Iterator` names it.
        var payload: ByteReader

        init(headers: BoxIterator, children: Children) {
            self.headers = headers
            self.children = children
            payload = headers.reader.walkReader(below: headers.prefix)
        }

        var count: Int { children.count }

        mutating func next() -> BoxIterator.Child? {
            guard position < children.count else { return nil }
            let child = children[position]
            position += 1
            payload.moveOnto(start: child.payloadStart, end: child.end,
                             steps: headers.prefix.steps.appending(PathStep(type: child.type, index: Int(child.index))))
            return child
        }
    }
}

/// The index of each child among its same-type siblings (`trak[2]`). The first eight types are
/// counted in place (a container walk allocates nothing for them); more go to a list, as in an
/// `ilst`, whose children are typed by key index.
struct SiblingCounts {
    private var types = SIMD8<UInt32>(repeating: 0)
    private var counts = SIMD8<UInt32>(repeating: 0)
    private var used = 0
    private var more: [(type: FourCC, count: Int)] = []

    /// Counts one more child of `type` and returns its 1-based index among its type.
    mutating func next(_ type: FourCC) -> Int {
        for slot in 0..<used where types[slot] == type.value {
            counts[slot] &+= 1
            return Int(counts[slot])
        }
        if used < 8 {
            types[used] = type.value
            counts[used] = 1
            used += 1
            return 1
        }
        if let slot = more.firstIndex(where: { $0.type == type }) {
            more[slot].count += 1
            return more[slot].count
        }
        more.append((type, 1))
        return 1
    }
}

/// Full-box header: version and 24-bit flags.
struct FullBoxHeader {
    var version: UInt8
    var flags: UInt32
    init(_ reader: inout ByteReader) throws {
        // Version and flags in one 32-bit load; fewer bytes left fail as the two reads did.
        guard reader.remaining < 4 else {
            let word = try reader.u32()
            (version, flags) = (UInt8(truncatingIfNeeded: word >> 24), word & 0xFF_FFFF)
            return
        }
        version = try reader.u8()
        flags = try reader.u24()
    }
}
