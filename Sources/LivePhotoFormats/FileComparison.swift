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
        var offset: Int64 = 0
        let block: Int64 = 1 << 20
        while offset < a.size {
            let count = Int(min(block, a.size - offset))
            guard let left = try? a.read(at: offset, count: count), let right = try? b.read(at: offset, count: count), left == right else { return false }
            offset += Int64(count)
        }
        return true
    }

    /// Whether `movie` holds exactly the bytes `range` of `container` (a motion photo's embedded
    /// movie and a standalone copy of it), compared a megabyte at a time.
    public static func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool {
        guard let a = try? FileSource(path: movie), let b = try? FileSource(path: container), a.size == Int64(range.count),
              range.lowerBound >= 0, range.upperBound <= b.size else { return false }
        var offset: Int64 = 0
        let block: Int64 = 1 << 20
        while offset < a.size {
            let count = Int(min(block, a.size - offset))
            guard let left = try? a.read(at: offset, count: count), let right = try? b.read(at: range.lowerBound + offset, count: count), left == right else { return false }
            offset += Int64(count)
        }
        return true
    }
}
