/// A bounded cursor over bytes already in memory. It cannot read past its own end: a child
/// structure gets a reader limited to that structure (`sub(count:path:)`). Offsets in errors
/// are absolute file offsets (`base` is the file offset of `bytes[0]`).
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    public let base: Int64
    public private(set) var position: Int
    public private(set) var end: Int
    // The path is kept as a chain of box names and put together only when asked (errors are
    // rare, boxes many): a node for the chain above and up to two steps below it held in place,
    // so that naming a box allocates nothing, and walking a container allocates a node only
    // once its readers' steps are full (every other level). Neither field is an optional: a
    // reader is copied for every box, and a struct with optional fields was copied through the
    // runtime's generic value witnesses instead of one retain.

    /// The chain above; `PathNode.root` when nothing is above.
    private var node: PathNode
    /// The steps below `node` down to this reader's own box; `.none` when it names none.
    private var steps: PathSteps

    /// Box or segment path of this reader, such as `moov/trak[2]/mdia`.
    public var path: String {
        get {
            var text = node.rendered
            steps.render(below: &text)
            return text
        }
        set {
            node = newValue.isEmpty ? .root : PathNode(text: newValue)
            steps = .none
        }
    }

    public init(_ bytes: [UInt8], base: Int64 = 0, path: String = "") {
        self.bytes = bytes
        self.base = base
        self.position = 0
        self.end = bytes.count
        self.node = path.isEmpty ? .root : PathNode(text: path)
        self.steps = .none
    }

    private init(bytes: [UInt8], base: Int64, position: Int, end: Int, node: PathNode, steps: PathSteps) {
        self.bytes = bytes
        self.base = base
        self.position = position
        self.end = end
        self.node = node
        self.steps = steps
    }

    /// The path of this reader as children hang below it: its own node and steps while a
    /// child's step still fits in place, else a node holding them (the one allocation).
    var childPrefix: PathPrefix {
        steps.isFull ? PathPrefix(node: PathNode(parent: node, steps: steps), steps: .none) : PathPrefix(node: node, steps: steps)
    }

    /// Moves this reader past a child whose payload is `payloadStart..<boxEnd` (offsets relative
    /// to this reader's bytes, already checked by the caller against this reader's range).
    mutating func moveToChildEnd(payloadStart: Int, boxEnd: Int) {
        precondition(payloadStart >= position && payloadStart <= boxEnd && boxEnd <= end)
        position = boxEnd
    }

    /// This reader moved onto `start..<end` of its bytes (a child's payload, already checked
    /// against the container's range by `moveToChildEnd`), named `steps` below its node: a box
    /// walk's one payload reader goes from child to child so, with nothing retained or released.
    mutating func moveOnto(start: Int, end: Int, steps: PathSteps) {
        precondition(start >= 0 && start <= end && end <= bytes.count)
        (self.position, self.end, self.steps) = (start, end, steps)
    }

    /// An empty reader over these bytes named by `prefix`: the payload reader of a box walk
    /// before `moveOnto` puts it on the first child.
    func walkReader(below prefix: PathPrefix) -> ByteReader {
        ByteReader(bytes: bytes, base: base, position: 0, end: 0, node: prefix.node, steps: .none)
    }

    /// A reader over `start..<end` of these bytes (a child's payload, already checked against
    /// this reader's range by `moveToChildEnd`), named `type[index]` below `prefix`.
    func payloadReader(from start: Int, to end: Int, type: FourCC, index: Int, below prefix: PathPrefix) -> ByteReader {
        ByteReader(bytes: bytes, base: base, position: start, end: end, node: prefix.node, steps: prefix.steps.appending(PathStep(type: type, index: index)))
    }

    public var remaining: Int { end - position }
    public var isAtEnd: Bool { position >= end }
    /// Absolute file offset of the cursor.
    public var offset: Int64 { base + Int64(position) }

    public func error(_ code: ParseError.Code, _ message: String) -> ParseError {
        ParseError(code, message, offset: offset, path: path)
    }

    @inline(__always)
    public func require(_ count: Int, _ what: @autoclosure () -> String = "value") throws {
        guard count >= 0, count <= remaining else { throw shortError(what(), count) }
    }

    /// The error of a read past the end, built out of line: the reads that check for it stay small
    /// enough to be inlined where they are called.
    @inline(never)
    private func shortError(_ what: String, _ count: Int) -> ParseError {
        error(.truncated, "\(what) needs \(count) bytes, \(remaining) remain")
    }

    public mutating func skip(_ count: Int) throws {
        try require(count, "skip")
        position += count
    }

    public mutating func seek(toRelative newPosition: Int) throws {
        guard newPosition >= 0, newPosition <= end else {
            throw error(.invalidSize, "offset \(newPosition) outside a \(end)-byte structure")
        }
        position = newPosition
    }

    // The fixed-width reads load straight from the array's storage once `require` has checked
    // the range: every reader keeps `0 <= position <= end <= bytes.count` (`init` sets `end` to
    // the count; `sub`, `payloadReader` and `seek` only narrow within it), so the per-byte
    // bounds checks of `bytes[i]` would check again what `require` just did. Small enough to be
    // inlined where they are called, which the indexed versions were not.

    /// The next big-endian `T`, loaded after `require` has checked its bytes.
    @inline(__always)
    private mutating func next<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let width = MemoryLayout<T>.size
        try require(width)
        assert(position >= 0 && position + width <= bytes.count)
        let start = position
        position += width
        return bytes.withUnsafeBytes { T(bigEndian: $0.loadUnaligned(fromByteOffset: start, as: T.self)) }
    }

    @inline(__always) public mutating func u8() throws -> UInt8 { try next(UInt8.self) }
    @inline(__always) public mutating func u16() throws -> UInt16 { try next(UInt16.self) }
    public mutating func u24() throws -> UInt32 { UInt32(try uint(3)) }
    @inline(__always) public mutating func u32() throws -> UInt32 { try next(UInt32.self) }
    @inline(__always) public mutating func u64() throws -> UInt64 { try next(UInt64.self) }

    /// A table of 32-bit fields as sample tables store it: a 32-bit entry count, checked against
    /// the bytes left before anything is allocated, then `fieldsPerEntry` values per entry, read
    /// in one pass. Returns the count and the values.
    public mutating func u32Table(fieldsPerEntry: Int, what: String) throws -> (count: Int, values: [UInt32]) {
        let count = try entryCount(UInt32.self, entrySize: 4 * fieldsPerEntry, what: what)
        return (count, try u32s(count * fieldsPerEntry))
    }

    /// `u32Table`'s count and check without its values: the reader moves past them. The same
    /// errors as reading the table, for readers that need only its size.
    public mutating func skipU32Table(fieldsPerEntry: Int, what: String) throws -> Int {
        let count = try entryCount(UInt32.self, entrySize: 4 * fieldsPerEntry, what: what)
        try skip(count * 4 * fieldsPerEntry)
        return count
    }

    /// `count` big-endian 32-bit values in one pass (sample tables hold thousands).
    public mutating func u32s(_ count: Int) throws -> [UInt32] {
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: 4)
        guard !overflow else { throw error(.invalidSize, "\(count) 32-bit values") }
        try require(byteCount, "\(count) 32-bit values")
        let start = position
        position += byteCount
        return bytes.withUnsafeBytes { raw in
            Array(unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    buffer[index] = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: start + index * 4, as: UInt32.self))
                }
                initialized = count
            }
        }
    }

    public mutating func i16() throws -> Int16 { Int16(bitPattern: try u16()) }
    public mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }
    public mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }

    /// Big-endian unsigned integer of 1 to 8 bytes.
    public mutating func uint(_ width: Int) throws -> UInt64 {
        guard (1...8).contains(width) else { throw error(.invalidValue, "integer width \(width)") }
        try require(width, "\(width)-byte integer")
        // The range is checked: the loads below cannot fail. The common widths load at once
        // (a full box's 24-bit flags, `iloc` fields); a byte loop over the array's storage made
        // a retained copy of the array on every call.
        switch width {
        case 2: return UInt64(try next(UInt16.self))
        case 3: return UInt64(try next(UInt16.self)) << 8 | UInt64(try next(UInt8.self))
        case 4: return UInt64(try next(UInt32.self))
        case 8: return try next(UInt64.self)
        default:
            var value: UInt64 = 0
            for _ in 0..<width { value = value << 8 | UInt64(try next(UInt8.self)) }
            return value
        }
    }

    /// Little- or big-endian 16/32-bit values, for TIFF structures.
    public mutating func u16(littleEndian: Bool) throws -> UInt16 {
        let value = try u16()
        return littleEndian ? value.byteSwapped : value
    }

    public mutating func u32(littleEndian: Bool) throws -> UInt32 {
        let value = try u32()
        return littleEndian ? value.byteSwapped : value
    }

    public mutating func read(_ count: Int) throws -> [UInt8] {
        try require(count, "\(count)-byte field")
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    public mutating func fourCC() throws -> FourCC { FourCC(try u32()) }

    /// A reader limited to the next `count` bytes; this reader moves past them.
    public mutating func sub(count: Int, path: String? = nil) throws -> ByteReader {
        try require(count, "nested structure")
        var child = ByteReader(bytes: bytes, base: base, position: position, end: position + count, node: node, steps: steps)
        if let path { child.path = path }
        position += count
        return child
    }

    /// The rest of this reader as a new reader; this reader ends.
    public mutating func rest(path: String? = nil) throws -> ByteReader {
        try sub(count: remaining, path: path)
    }

    public mutating func restBytes() throws -> [UInt8] { try read(remaining) }

    /// The rest of the bytes in place (no copy: a string or value made from them reads them
    /// where they are); this reader ends.
    public mutating func restSlice() -> ArraySlice<UInt8> {
        defer { position = end }
        return bytes[position..<end]
    }

    /// Peek without moving.
    public func peek(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= remaining else { return nil }
        return Array(bytes[position..<(position + count)])
    }

    /// A NUL-terminated string within the reader (the NUL is consumed; a missing NUL takes the rest).
    public mutating func cString() throws -> String {
        let start = position
        let stop = terminator(from: start)
        guard stop - start <= Limits.maxStringBytes else { throw error(.limitExceeded, "string of \(stop - start) bytes") }
        position = stop < end ? stop + 1 : stop
        // Most names in item and key tables are empty: no string to build.
        return stop == start ? "" : String(decoding: bytes[start..<stop], as: UTF8.self)
    }

    /// Where the NUL at or after `start` is, or `end`. Not `mutating`: the bytes are read where
    /// they are (a closure over them in a mutating method retained a copy of the array).
    private func terminator(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var stop = start
            while stop < end && buffer[stop] != 0 { stop += 1 }
            return stop
        }
    }

    /// Validates `count` entries of `entrySize` bytes against what remains, before allocating.
    public func checkCount(_ count: UInt64, entrySize: Int, what: String) throws -> Int {
        try Self.checkCount(count, entrySize: entrySize, what: what, within: self)
    }

    /// Reads a `T`-wide entry count and checks it as `checkCount` does, against the bytes from
    /// the count field on, with errors at the count field. That is what
    /// `checkCount(UInt64(try u32()), ...)` reported, which first copied the whole reader (to
    /// call the check on the reader as it was before the count was read).
    public mutating func entryCount<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, entrySize: Int, what: String) throws -> Int {
        let start = position
        let count = UInt64(try next(T.self))
        guard let exact = Self.fit(count, entrySize: entrySize, available: end - start) else {
            let atCount = ByteReader(bytes: bytes, base: base, position: start, end: end, node: node, steps: steps)
            return try Self.checkCount(count, entrySize: entrySize, what: what, within: atCount)
        }
        return exact
    }

    private static func checkCount(_ count: UInt64, entrySize: Int, what: String, within reader: ByteReader) throws -> Int {
        guard let exact = fit(count, entrySize: entrySize, available: reader.remaining) else {
            throw reader.error(.invalidSize, "\(what) claims \(count) entries of \(entrySize) bytes, \(reader.remaining) bytes remain")
        }
        return exact
    }

    /// `count` as an `Int` when that many entries of `entrySize` bytes fit in `available` bytes
    /// (0 for entries of no bytes).
    @inline(__always)
    private static func fit(_ count: UInt64, entrySize: Int, available: Int) -> Int? {
        guard entrySize > 0 else { return 0 }
        let (total, overflow) = count.multipliedReportingOverflow(by: UInt64(entrySize))
        guard !overflow, total <= UInt64(available) else { return nil }
        return Int(exactly: count)
    }
}
