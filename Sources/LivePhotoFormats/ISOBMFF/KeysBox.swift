/// `keys` of a QuickTime `meta` (`moov/meta`): the key of each `ilst` item, by 1-based index.
/// Read and written here, so the reader and the rewriter agree on every byte.
public struct KeysBox: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var namespace: FourCC
        /// The key's bytes (UTF-8 in practice; kept as bytes so a rewrite is exact).
        public var key: [UInt8]
        public init(namespace: FourCC, key: [UInt8]) {
            self.namespace = namespace
            self.key = key
        }
        public var text: String { String(decoding: key, as: UTF8.self) }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Parses the payload of a `keys` box: version and flags, a count checked against the bytes
    /// left, then (size, namespace, key) entries, each inside its own size.
    public init(parsing reader: inout ByteReader) throws {
        var entries: [Entry] = []
        try Self.forEachEntry(&reader, reserve: { entries.reserveCapacity($0) }) { entries.append(Entry(namespace: $0, key: Array($1))) }
        self.entries = entries
    }

    /// The entries of a `keys` payload in order, each as its namespace and its key's bytes in
    /// place: the parse itself, for readers that want the keys as text and no copy of their
    /// bytes. `reserve` is told the count once it is checked.
    static func forEachEntry(_ reader: inout ByteReader, reserve: (Int) -> Void, _ body: (FourCC, ArraySlice<UInt8>) throws -> Void) throws {
        _ = try FullBoxHeader(&reader)
        let count = try reader.entryCount(UInt32.self, entrySize: 8, what: "keys")
        guard count <= Limits.maxKeys else { throw reader.error(.limitExceeded, "\(count) keys") }
        reserve(count)
        for _ in 0..<count {
            let start = reader.offset
            let size = try reader.u32()
            guard size >= 8 else { throw ParseError(.invalidSize, "key entry of \(size) bytes", offset: start, path: reader.path) }
            var entry = try reader.sub(count: Int(size) - 4)
            try body(try entry.fourCC(), entry.restSlice())
        }
    }

    /// The 1-based index of an `mdta` key, if declared.
    public func index(of key: String) -> UInt32? {
        let bytes = Array(key.utf8)
        return entries.firstIndex { $0.namespace == "mdta" && $0.key == bytes }.map { UInt32($0 + 1) }
    }

    /// The whole `keys` box.
    public var bytes: [UInt8] {
        BoxWriter.fullBox("keys", BoxWriter.u32(UInt32(entries.count)) + entries.flatMap { BoxWriter.u32(UInt32(8 + $0.key.count)) + $0.namespace.bytes + $0.key })
    }
}
