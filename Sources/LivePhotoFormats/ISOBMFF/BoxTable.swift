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
        _ = try walk(reader, depth: depth, keep: false)
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
