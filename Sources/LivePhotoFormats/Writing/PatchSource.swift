/// The bytes a patch would write, read without writing them: the pieces copied from the
/// original (or another file) are read from there, new bytes from the patch. The preservation
/// ledger reads a planned output through this before anything is written.
public final class PatchSource: ByteSource {
    public let size: Int64
    public private(set) var stats = ReadStats()
    private let original: ByteSource
    private let pieces: [FilePatch.Piece]
    /// Where each piece starts in the output.
    private let starts: [Int64]
    private var others: [String: FileSource] = [:]

    public init(_ patch: FilePatch, original: ByteSource) {
        self.original = original
        pieces = patch.pieces
        var starts: [Int64] = []
        var offset: Int64 = 0
        for piece in patch.pieces {
            starts.append(offset)
            offset += piece.count
        }
        self.starts = starts
        size = offset
    }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "")
        stats.record(count)
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var at = offset
        let end = offset + Int64(count)
        // The last piece starting at or before `at`.
        var index = max(0, (starts.partitioningIndex { $0 > at }) - 1)
        while at < end, index < pieces.count {
            let pieceEnd = starts[index] + pieces[index].count
            let take = Int(min(end, pieceEnd) - at)
            let within = at - starts[index]
            if take > 0 {
                switch pieces[index] {
                case .copy(let range): result += try original.read(at: range.lowerBound + within, count: take)
                case .copyFile(let path, let range): result += try other(path).read(at: range.lowerBound + within, count: take)
                case .bytes(let bytes): result += bytes[Int(within)..<(Int(within) + take)]
                }
                at += Int64(take)
            }
            index += 1
        }
        return result
    }

    private func other(_ path: String) throws -> FileSource {
        if let source = others[path] { return source }
        let source = try FileSource(path: path)
        others[path] = source
        return source
    }
}

extension Array where Element == Int64 {
    /// The first index whose element satisfies `predicate`, for a predicate false then true
    /// along the array (binary search).
    func partitioningIndex(where predicate: (Int64) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
