/// Chunk offsets and sample-table children of a `trak`, rewritten in its bytes.
extension MovieRewriter {
    /// A box (trak and below) with every chunk offset at or past `threshold` moved by `delta`;
    /// `stco` becomes `co64` when a value no longer fits 32 bits. Other boxes are copied as they are.
    static func shiftingChunkOffsets(_ bytes: [UInt8], by delta: Int64, from threshold: UInt64) throws -> [UInt8] {
        try mappingChunkOffsets(bytes) { value in
            guard value >= threshold else { return value }
            let (result, overflow) = Int64(clamping: value).addingReportingOverflow(delta)
            guard !overflow, result >= 0 else { throw WriteError(.fieldOverflow, "a chunk offset overflows when shifted") }
            return UInt64(result)
        }
    }

    /// A box (trak and below) with every chunk offset replaced by `moved(offset)`.
    static func mappingChunkOffsets(_ bytes: [UInt8], _ moved: (UInt64) throws -> UInt64) throws -> [UInt8] {
        try mappingSampleTableChildren(bytes) { type, whole, headerSize in
            type == "stco" || type == "co64" ? try mappedChunkOffsetBox(type, payload: Array(whole[headerSize...]), moved) : whole
        }
    }

    /// A box (trak and below) with each child of its `stbl` replaced by `map(type, box, header
    /// size)`. Only the path `trak/mdia/minf/stbl` is descended into (a container of another
    /// type, or one of these at another level, is copied as it is), one level at a time without
    /// recursion, so the walk is at most four levels deep whatever the file nests.
    static func mappingSampleTableChildren(_ bytes: [UInt8], _ map: (FourCC, [UInt8], Int) throws -> [UInt8]) throws -> [UInt8] {
        /// A container being rewritten: its type, its children still to read, its rewritten bytes.
        struct Level {
            let type: FourCC
            var children: ByteReader
            var out: [UInt8] = []
        }
        let path = BoxTable.trackToSampleTable
        var reader = ByteReader(bytes, base: 0, path: "trak")
        let header = try BoxHeader.parse(&reader, available: Int64(bytes.count))
        guard header.type == path[0] else { return bytes }
        var stack = [Level(type: header.type, children: ByteReader(Array(bytes[header.headerSize..<Int(header.size)]), base: 0, path: "\(header.type)"))]
        while let top = stack.indices.last {
            guard stack[top].children.remaining >= 8 else {
                var done = stack.removeLast()
                done.out += try done.children.restBytes()
                let box = BoxWriter.box(done.type, done.out)
                guard let parent = stack.indices.last else { return box }
                stack[parent].out += box
                continue
            }
            var probe = stack[top].children
            let child = try BoxHeader.parse(&probe, available: Int64(stack[top].children.remaining))
            guard child.size <= Int64(stack[top].children.remaining) else {
                throw WriteError(.inconsistentInput, "box '\(child.type)' runs past its parent")
            }
            let childBytes = try stack[top].children.read(Int(child.size))
            let payload = Array(childBytes[child.headerSize...])
            if stack.count < path.count, child.type == path[stack.count] {
                stack.append(Level(type: child.type, children: ByteReader(payload, base: 0, path: "\(child.type)")))
            } else if stack.count == path.count {
                stack[top].out += try map(child.type, childBytes, child.headerSize)
            } else {
                stack[top].out += childBytes
            }
        }
        return bytes
    }

    /// An `stco` or `co64` box with every offset mapped; `stco` becomes `co64` when a value no
    /// longer fits 32 bits.
    static func mappedChunkOffsetBox(_ type: FourCC, payload: [UInt8], _ moved: (UInt64) throws -> UInt64) throws -> [UInt8] {
        var table = ByteReader(payload, base: 0, path: "\(type)")
        let versionAndFlags = try table.read(4)
        let count = try table.entryCount(UInt32.self, entrySize: type == "co64" ? 8 : 4, what: "\(type)")
        var values: [UInt64] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try moved(type == "co64" ? try table.u64() : UInt64(try table.u32()))) }
        if type == "stco" && values.allSatisfy({ $0 <= UInt64(UInt32.max) }) {
            return BoxWriter.box("stco", versionAndFlags + BoxWriter.u32(UInt32(count)) + values.flatMap { BoxWriter.u32(UInt32($0)) })
        }
        return BoxWriter.box("co64", versionAndFlags + BoxWriter.u32(UInt32(count)) + values.flatMap { BoxWriter.u64($0) })
    }
}
