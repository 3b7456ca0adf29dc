/// A planned output file: pieces copied from the original and new bytes. Writers build one; the
/// repair module writes it safely. Media data only ever appears as copied ranges.
public struct FilePatch: Sendable {
    public enum Piece: Sendable, Equatable {
        /// Bytes copied unchanged from the original file.
        case copy(Range<Int64>)
        /// New bytes.
        case bytes([UInt8])

        public var count: Int64 {
            switch self {
            case .copy(let range): return range.upperBound - range.lowerBound
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
    public func render(from source: ByteSource) throws -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .copy(let range): out += try source.read(at: range.lowerBound, count: Int(range.upperBound - range.lowerBound))
            case .bytes(let bytes): out += bytes
            }
        }
        return out
    }
}

/// Big-endian and box encoding primitives.
public enum BoxWriter {
    public static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    public static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(value & 0xFFFF_FFFF)) }
    public static func i32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }
    public static func uint(_ value: UInt64, width: Int) -> [UInt8] { (0..<width).map { UInt8(value >> UInt64(8 * (width - 1 - $0)) & 0xFF) } }

    /// A box; 64-bit size when the payload needs it.
    public static func box(_ type: FourCC, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt64(payload.count) + 8
        if size > UInt64(UInt32.max) { return u32(1) + type.bytes + u64(size + 8) + payload }
        return u32(UInt32(size)) + type.bytes + payload
    }

    public static func fullBox(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    /// A `free` box of exactly `size` bytes (at least 8).
    public static func free(size: Int) -> [UInt8] {
        precondition(size >= 8)
        return u32(UInt32(size)) + FourCC("free").bytes + [UInt8](repeating: 0, count: size - 8)
    }
}
