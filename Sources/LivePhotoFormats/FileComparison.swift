#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether two files hold the same bytes. Used only to confirm that two files of one identifier
/// group and of equal size are copies, so a claim of "byte-identical copy" is never a guess.
public enum FileComparison {
    /// Compares in 1 MiB blocks and stops at the first difference; false on any read error.
    public static func identical(_ first: String, _ second: String) -> Bool {
        guard let a = try? FileSource(path: first), let b = try? FileSource(path: second), a.size == b.size else { return false }
        if a.identity == b.identity { return true }
        return sameBytes(count: a.size, { try? a.read(at: $0, count: $1) }, { try? b.read(at: $0, count: $1) })
    }

    /// Whether `movie` holds exactly the bytes `range` of `container` (a motion photo's embedded
    /// movie and a standalone copy of it), compared a megabyte at a time.
    public static func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool {
        guard let a = try? FileSource(path: movie), let b = try? FileSource(path: container), a.size == Int64(range.count),
              range.lowerBound >= 0, range.upperBound <= b.size else { return false }
        return sameBytes(count: a.size, { try? a.read(at: $0, count: $1) }, { try? b.read(at: range.lowerBound + $0, count: $1) })
    }

    /// Whether `count` bytes read by `left` and by `right` (offset, length; nil when they cannot
    /// be read) are the same, a megabyte at a time, stopping at the first difference: the one
    /// comparison files, ranges and objects in storage go through.
    public static func sameBytes(count: Int64, _ left: (Int64, Int) -> [UInt8]?, _ right: (Int64, Int) -> [UInt8]?) -> Bool {
        var offset: Int64 = 0
        let block: Int64 = 1 << 20
        while offset < count {
            let length = Int(min(block, count - offset))
            guard let a = left(offset, length), let b = right(offset, length), a.count == length, a == b else { return false }
            offset += Int64(length)
        }
        return true
    }
}
