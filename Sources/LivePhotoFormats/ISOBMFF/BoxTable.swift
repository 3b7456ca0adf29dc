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
        guard depth <= Limits.maxDepth else { throw reader.error(.limitExceeded, "boxes nested deeper than \(Limits.maxDepth)") }
        var result: [Box] = []
        for (var box, payload) in try BoxIterator.all(reader) {
            if containers.contains(box.type) {
                var inner = payload
                if box.type == "meta" { try MetaHeader.skip(&inner) }
                box.children = try tree(inner, depth: depth + 1)
            } else if box.type == "stsd" {
                var inner = payload
                try inner.skip(8)
                box.children = try tree(inner, depth: depth + 1).map { var entry = $0; entry.children = []; return entry }
            }
            result.append(box)
        }
        return result
    }
}
