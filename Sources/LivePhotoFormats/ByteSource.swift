#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to a file's bytes with a count of what was read. Readers ask for exactly
/// the ranges they need; nothing reads a whole file.
public protocol ByteSource: AnyObject {
    var size: Int64 { get }
    /// Reads `count` bytes at `offset`. Throws `.truncated` when the range passes the end.
    func read(at offset: Int64, count: Int) throws -> [UInt8]
    var stats: ReadStats { get }
}

/// What a reader fetched from its source: every read it asked for (a read a source serves from
/// bytes it already holds counts too, so the figures do not depend on how a source is built).
public struct ReadStats: Sendable, Equatable, Codable {
    public var bytesRead: Int64 = 0
    public var reads: Int = 0
    public var largestRead: Int = 0
    public init() {}

    mutating func record(_ count: Int) {
        bytesRead += Int64(count)
        reads += 1
        largestRead = max(largestRead, count)
    }
}

extension ByteSource {
    /// Validates a range against the source before anything is allocated.
    func checkRange(_ offset: Int64, _ count: Int, path: String) throws {
        guard offset >= 0, count >= 0 else {
            throw ParseError(.invalidSize, "negative range", offset: 0, path: path)
        }
        let (end, overflow) = offset.addingReportingOverflow(Int64(count))
        guard !overflow, end <= size else {
            // The error's offset is where the data runs out (inside the file); the message says what was wanted.
            throw ParseError(
                .truncated, "needs \(count) bytes at \(offset) but the file ends at \(size)",
                offset: min(max(offset, 0), size), path: path)
        }
    }
}

/// Bytes held in memory (tests, fuzzing, embedded payloads).
public final class MemorySource: ByteSource {
    public let bytes: [UInt8]
    public private(set) var stats = ReadStats()
    public var size: Int64 { Int64(bytes.count) }

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "")
        stats.record(count)
        let start = Int(offset)
        return Array(bytes[start..<(start + count)])
    }
}

/// A range of another source seen as a whole: a movie embedded in a still. Offsets are relative
/// to the window's start; nothing outside it can be read.
public final class WindowSource: ByteSource {
    public let base: ByteSource
    public let start: Int64
    public let size: Int64
    public var stats: ReadStats { base.stats }

    public init(_ base: ByteSource, range: Range<Int64>) {
        self.base = base
        let lower = min(max(0, range.lowerBound), base.size)
        start = lower
        size = min(max(lower, range.upperBound), base.size) - lower
    }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "")
        return try base.read(at: start + offset, count: count)
    }
}

/// A file opened read-only; reads with `pread`, so the file position is never shared.
public final class FileSource: ByteSource {
    public let path: String
    public let size: Int64
    public private(set) var stats = ReadStats()
    /// Device and inode: two paths with the same identity are one file (hard links).
    public let identity: FileIdentity
    private let descriptor: Int32
    /// The bytes the first read at offset 0 fetched (the format probe). Later reads inside them
    /// (a movie's first box headers, a JPEG's start of image and first segment header) are
    /// served from here instead of the file: about three system calls a file fewer, and not a
    /// byte more read from the file.
    private var head: [UInt8] = []

    public init(path: String) throws {
        self.path = path
        let fd = PathBytes.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ParseError(.io, "cannot open: \(String(cString: strerror(errno)))", offset: 0)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw ParseError(.io, "cannot stat: \(String(cString: strerror(errno)))", offset: 0)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ParseError(.unsupported, "not a regular file", offset: 0)
        }
        descriptor = fd
        size = Int64(info.st_size)
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), links: UInt64(info.st_nlink))
    }

    deinit { close(descriptor) }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "")
        if count == 0 { return [] }
        // `checkRange` has checked offset and count against the file.
        if offset + Int64(count) <= Int64(head.count) {
            stats.record(count)
            return Array(head[Int(offset)..<(Int(offset) + count)])
        }
        // Filled by pread, so not zeroed first.
        let buffer = try [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            guard let base = raw.baseAddress else { return }
            while initialized < count {
                let got = pread(descriptor, base + initialized, count - initialized, off_t(offset) + off_t(initialized))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ParseError(.io, "read failed: \(String(cString: strerror(errno)))", offset: offset + Int64(initialized))
                }
                if got == 0 {
                    throw ParseError(.truncated, "file ended while reading", offset: offset + Int64(initialized))
                }
                initialized += got
            }
        }
        guard buffer.count == count else { throw ParseError(.io, "read failed", offset: offset) }
        stats.record(count)
        if offset == 0 && head.isEmpty && count <= 4096 { head = buffer }
        return buffer
    }
}

/// Which file a path leads to: paths with equal device and inode are hard links of one file.
public struct FileIdentity: Sendable, Hashable, Codable {
    public var device: UInt64
    public var inode: UInt64
    /// How many names the file has (`st_nlink`).
    public var links: UInt64

    public init(device: UInt64, inode: UInt64, links: UInt64 = 1) {
        self.device = device
        self.inode = inode
        self.links = links
    }

    public static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool { lhs.device == rhs.device && lhs.inode == rhs.inode }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
    }
}
