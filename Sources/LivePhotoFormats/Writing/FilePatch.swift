/// A planned output file: pieces copied from the original and new bytes. Writers build one; the
/// repair module writes it safely. Media data only ever appears as copied ranges.
public struct FilePatch: Sendable {
    public enum Piece: Sendable, Equatable {
        /// Bytes copied unchanged from the original file.
        case copy(Range<Int64>)
        /// New bytes.
        case bytes([UInt8])
        /// Bytes copied unchanged from another file (conversions join a still and a movie).
        case copyFile(String, Range<Int64>)

        public var count: Int64 {
            switch self {
            case .copy(let range), .copyFile(_, let range): return range.upperBound - range.lowerBound
            case .bytes(let bytes): return Int64(bytes.count)
            }
        }
    }

    public var pieces: [Piece] = []
    /// What the patch does, in words, for the plan.
    public var notes: [String] = []
    /// What the patch cannot keep (keys, values), in words: a plan with losses waits for `--force`.
    public var losses: [String] = []

    public init(pieces: [Piece] = [], notes: [String] = []) {
        self.pieces = pieces
        self.notes = notes
    }

    public var outputSize: Int64 { pieces.reduce(0) { $0 + $1.count } }
    /// Bytes that are new (not copied): what a repair really writes.
    public var newBytes: Int64 { pieces.reduce(0) { if case .bytes(let b) = $1 { return $0 + Int64(b.count) } else { return $0 } } }

    /// The original with `range` replaced by `bytes`.
    public static func replacing(_ range: Range<Int64>, with bytes: [UInt8], size: Int64) -> FilePatch {
        var patch = FilePatch()
        patch.copy(0..<range.lowerBound)
        patch.append(bytes)
        patch.copy(range.upperBound..<size)
        return patch
    }

    public mutating func copy(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        if case .copy(let last)? = pieces.last, last.upperBound == range.lowerBound {
            pieces[pieces.count - 1] = .copy(last.lowerBound..<range.upperBound)
        } else {
            pieces.append(.copy(range))
        }
    }

    public mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if case .bytes(let last)? = pieces.last {
            pieces[pieces.count - 1] = .bytes(last + bytes)
        } else {
            pieces.append(.bytes(bytes))
        }
    }

    /// The original up to `end` with each range replaced by its bytes (ranges sorted, not
    /// overlapping, inside `0..<end`); an empty range inserts.
    public static func replacingRanges(_ replacements: [(range: Range<Int64>, bytes: [UInt8])], end: Int64) -> FilePatch {
        var patch = FilePatch()
        var cursor: Int64 = 0
        for replacement in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            patch.copy(cursor..<replacement.range.lowerBound)
            patch.append(replacement.bytes)
            cursor = replacement.range.upperBound
        }
        patch.copy(cursor..<end)
        return patch
    }

    /// This patch with its copied ranges read from `path` at `base` on: a patch written against
    /// a window of a file (a movie embedded in a still) or against another file.
    public func copying(from path: String, base: Int64 = 0) -> FilePatch {
        var moved = self
        moved.pieces = pieces.map { piece in
            switch piece {
            case .copy(let range): return .copyFile(path, (range.lowerBound + base)..<(range.upperBound + base))
            case .copyFile(let other, let range): return .copyFile(other, range)
            case .bytes: return piece
            }
        }
        return moved
    }

    /// This patch with copied ranges moved by `base` (a patch written against a window of its own source).
    public func shifted(by base: Int64) -> FilePatch {
        var moved = self
        moved.pieces = pieces.map { piece in
            if case .copy(let range) = piece { return .copy((range.lowerBound + base)..<(range.upperBound + base)) }
            return piece
        }
        return moved
    }

    /// This patch with the original's bytes at `offset` replaced by `bytes` (same length), inside copied pieces.
    public func overlaying(_ bytes: [UInt8], at offset: Int64) throws -> FilePatch {
        let end = offset + Int64(bytes.count)
        var result = FilePatch()
        var placed = false
        for piece in pieces {
            guard case .copy(let range) = piece, range.lowerBound <= offset, end <= range.upperBound, !placed else {
                result.append(FilePatch(pieces: [piece]))
                continue
            }
            result.copy(range.lowerBound..<offset)
            result.append(bytes)
            result.copy(end..<range.upperBound)
            placed = true
        }
        guard placed else { throw WriteError(.inconsistentInput, "bytes \(offset)..<\(end) are not copied unchanged by the patch") }
        result.notes = notes
        result.losses = losses
        return result
    }

    /// Appends another patch's pieces (its notes and losses too).
    public mutating func append(_ other: FilePatch) {
        for piece in other.pieces {
            switch piece {
            case .copy(let range): copy(range)
            case .bytes(let bytes): append(bytes)
            case .copyFile: pieces.append(piece)
            }
        }
        notes += other.notes
        losses += other.losses
    }

    /// Applies in-place replacements (same length) at absolute offsets of the original.
    public static func withReplacements(_ replacements: [(offset: Int64, bytes: [UInt8])], size: Int64) -> FilePatch {
        var patch = FilePatch()
        var cursor: Int64 = 0
        for replacement in replacements.sorted(by: { $0.offset < $1.offset }) {
            patch.copy(cursor..<replacement.offset)
            patch.append(replacement.bytes)
            cursor = replacement.offset + Int64(replacement.bytes.count)
        }
        patch.copy(cursor..<size)
        return patch
    }

    /// Renders the whole output in memory (tests and small files).
    public func render(from source: ByteSource, files: [String: ByteSource] = [:]) throws -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .copy(let range): out += try source.read(at: range.lowerBound, count: Int(range.upperBound - range.lowerBound))
            case .bytes(let bytes): out += bytes
            case .copyFile(let path, let range):
                guard let other = files[path] else { throw WriteError(.missingStructure, "no source for \(path)") }
                out += try other.read(at: range.lowerBound, count: Int(range.upperBound - range.lowerBound))
            }
        }
        return out
    }
}
