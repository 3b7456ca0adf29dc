/// The one table of box types lpcheck knows by role, shared by the movie reader, the HEIF reader,
/// the display tree and the rewriter. Adding a container is one entry here.
public enum BoxTable {
    /// Boxes whose payload is a list of boxes (descended into by the display tree).
    public static let containers: Set<FourCC> = [
        "moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "tref", "udta", "meta", "ilst", "mvex", "moof", "traf",
    ]
    /// The path from a track to its sample tables: the boxes the rewriter walks to shift chunk
    /// offsets and to find the sample description.
    public static let trackToSampleTable: [FourCC] = ["trak", "mdia", "minf", "stbl"]

    /// The subtree of `reader` for display: containers are descended into (a `meta` past its
    /// header), sample descriptions listed one level, everything else kept as a range.
    public static func tree(_ reader: ByteReader, depth: Int) throws -> [Box] {
        try walk(reader, depth: depth, keep: true)
    }

    /// Walks `reader` as `tree` does, with the same checks and limits, and keeps nothing: the
    /// readers that build no tree (check's) call it so that what `dump` refuses they refuse too.
    public static func checkStructure(_ reader: ByteReader, depth: Int) throws {
        // The walk builds a path and a payload reader for every box; a check meets a sound file
        // nearly always, so the headers are first checked from the bytes alone, and only a file
        // this finds anything in is walked again to throw the walk's own error.
        if !headersAreSound(reader, depth: depth) { _ = try walk(reader, depth: depth, keep: false) }
    }

    /// Whether `code` is one of `containers` (a switch: no hashing, no array), or `stsd`.
    /// `BoxTableTests` holds the two lists equal.
    @inline(__always)
    static func descends(_ code: UInt32) -> Bool {
        switch code {
        case 0x6D6F_6F76, 0x7472_616B, 0x6D64_6961, 0x6D69_6E66, 0x7374_626C, 0x6564_7473, 0x6469_6E66, // moov trak mdia minf stbl edts dinf
             0x7472_6566, 0x7564_7461, 0x6D65_7461, 0x696C_7374, 0x6D76_6578, 0x6D6F_6F66, 0x7472_6166, // tref udta meta ilst mvex moof traf
             0x7374_7364: // stsd
            return true
        default:
            return false
        }
    }

    /// Whether every header below `reader` passes the checks `walk` makes, to the same depth:
    /// no allocation but one small stack, no path. False when anything might fail (then `walk`
    /// decides, so a false alarm costs time, never a wrong answer).
    static func headersAreSound(_ reader: ByteReader, depth: Int) -> Bool {
        guard depth <= Limits.maxDepth else { return false }
        return reader.bytes.withUnsafeBytes { raw -> Bool in
            // The containers being walked (where each ends, how many children it has had), on
            // the stack: at most `Limits.maxDepth` levels.
            withUnsafeTemporaryAllocation(of: (end: Int, count: Int).self, capacity: Limits.maxDepth + 1) { stack -> Bool in
                var top = 0
                var position = reader.position, end = reader.end, count = 0, level = depth
                while true {
                    let left = end - position
                    if left < 8 {
                        for index in position..<end where raw[index] != 0 { return false }
                        guard top > 0 else { return true }
                        top -= 1
                        (position, end, count, level) = (end, stack[top].end, stack[top].count, level - 1)
                        continue
                    }
                    count += 1
                    guard count <= Limits.maxBoxesPerContainer else { return false }
                    let head = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                    let size32 = UInt32(truncatingIfNeeded: head >> 32), type = UInt32(truncatingIfNeeded: head)
                    var header = 8, size = Int(size32)
                    if size32 == 1 {
                        guard left >= 16 else { return false }
                        let large = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
                        guard large <= UInt64(Int.max) else { return false }
                        (size, header) = (Int(large), 16)
                    } else if size32 == 0 {
                        size = left
                    }
                    if type == 0x7575_6964 { header += 16 } // uuid
                    guard size >= header, size <= left else { return false }
                    let childEnd = position + size
                    guard descends(type) else {
                        position = childEnd
                        continue
                    }
                    var payload = position + header
                    if type == 0x6D65_7461 { // meta: past a full-box header, as MetaHeader.skip
                        let hdlr = childEnd - payload >= 8
                            && UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: payload + 4, as: UInt32.self)) == 0x6864_6C72
                        if !hdlr, childEnd - payload >= 4, raw.loadUnaligned(fromByteOffset: payload, as: UInt32.self) == 0 { payload += 4 }
                    } else if type == 0x7374_7364 { // stsd: past its entry count
                        payload += 8
                        guard payload <= childEnd else { return false }
                    }
                    guard level + 1 <= Limits.maxDepth, top < Limits.maxDepth + 1 else { return false }
                    stack[top] = (end, count)
                    top += 1
                    (position, end, count, level) = (payload, childEnd, 0, level + 1)
                }
            }
        }
    }

    /// One container being walked: its children, the boxes kept so far, and its own header.
    private struct Frame {
        var children: BoxList.Iterator
        var boxes: [Box] = []
        var container: Box?
        /// `stsd`: its entries are listed without their children.
        var entriesOnly = false
    }

    /// The walk behind `tree` and `checkStructure`: iterative, one frame a level, at most
    /// `Limits.maxDepth` levels; every container's headers are checked before any child of it
    /// is descended into.
    private static func walk(_ reader: ByteReader, depth: Int, keep: Bool) throws -> [Box] {
        guard depth <= Limits.maxDepth else { throw reader.error(.limitExceeded, "boxes nested deeper than \(Limits.maxDepth)") }
        var stack = [Frame(children: try BoxIterator.all(reader).makeIterator())]
        while let top = stack.indices.last {
            guard let (box, payload) = stack[top].children.next() else {
                let done = stack.removeLast()
                guard var container = done.container else { return done.boxes }
                if keep {
                    container.children = done.entriesOnly ? done.boxes.map { var entry = $0; entry.children = []; return entry } : done.boxes
                    stack[stack.count - 1].boxes.append(container)
                }
                continue
            }
            var inner = payload
            if containers.contains(box.type) {
                if box.type == "meta" { try MetaHeader.skip(&inner) }
            } else if box.type == "stsd" {
                try inner.skip(8)
            } else {
                if keep { stack[top].boxes.append(box) }
                continue
            }
            guard depth + stack.count <= Limits.maxDepth else {
                throw inner.error(.limitExceeded, "boxes nested deeper than \(Limits.maxDepth)")
            }
            stack.append(Frame(children: try BoxIterator.all(inner).makeIterator(), container: box, entriesOnly: box.type == "stsd"))
        }
        return []
    }
}
