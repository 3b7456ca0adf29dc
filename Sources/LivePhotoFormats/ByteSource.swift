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
    /// The first read that failed for another reason than the file's bytes (an I/O error, a
    /// network failure, a server's refusal), nil when none did. A reader may have caught that
    /// error and gone on as if the bytes were damaged: `MediaFile.inspect` makes the file
    /// unread instead.
    var readFailure: ParseError? { get }
}

extension ByteSource {
    public var readFailure: ParseError? { nil }
}

/// What a reader fetched from its source: every read it asked for (a read a source serves from
/// bytes it already holds counts too, so the figures do not depend on how a source is built).
public struct ReadStats: Sendable, Equatable, Codable {
    public var bytesRead: Int64 = 0
    public var reads: Int = 0
    public var largestRead: Int = 0
    public init() {}

    public mutating func record(_ count: Int) {
        bytesRead += Int64(count)
        reads += 1
        largestRead = max(largestRead, count)
    }
}

extension ByteSource {
    /// Validates a range against the source before anything is allocated.
    public func checkRange(_ offset: Int64, _ count: Int, path: String) throws {
        guard offset >= 0, count >= 0 else {
            throw ParseError(.invalidSize, "negative range", offset: 0, path: path)
        }
        let (end, overflow) = offset.addingReportingOverflow(Int64(count))
        guard !overflow, end <= size else {
            // The error's offset is where the data runs out (inside the file); the message says what was wanted.
            let where_ = offset >= size
                ? "at \(offset), past the end of the file (\(size) bytes)"
                : "at \(offset) but only \(size - offset) remain before the file ends at \(size)"
            throw ParseError(.truncated, "needs \(count) bytes \(where_)", offset: min(max(offset, 0), size), path: path)
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
    public var readFailure: ParseError? { base.readFailure }

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
    /// The last small read's window: a read of fewer than `windowSize` bytes fetches that many
    /// (up to the end of the file), as a larger read fetches the `windowSize` bytes after it,
    /// and later reads inside them are served from here. Readers
    /// walk headers a few bytes apart (a JPEG's segment markers, a HEIC's top-level boxes and the
    /// items right after `mdat`'s header): one system call instead of one each. The kernel reads
    /// whole pages anyway; `stats` count the bytes the readers take, as before.
    private let window: UnsafeMutablePointer<UInt8>
    private var windowStart: Int64 = 0
    /// How many bytes of `window` hold the file's (none yet: 0).
    private var windowCount = 0
    /// The file's first bytes, kept apart from the window: the first small read at offset 0
    /// fetches them (every reader starts there), and reads inside them are served from here for
    /// the rest of the file's reading. A movie's `ftyp` is read after its `moov` at the end of
    /// the file, which had taken the window away from the start.
    private let head: UnsafeMutablePointer<UInt8>
    private var headCount = 0
    static let windowSize = 4096

    public init(path: String) throws {
        self.path = path
        // Opened without waiting: a FIFO's open blocks until a writer comes, and a device may
        // block too; only a regular file is read, and then in blocking mode again.
        let fd = PathBytes.open(path, O_RDONLY | O_NONBLOCK)
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
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        descriptor = fd
        size = Int64(info.st_size)
        // Head and window in one allocation.
        head = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * Self.windowSize)
        window = head + Self.windowSize
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), links: UInt64(info.st_nlink))
    }

    deinit {
        close(descriptor)
        head.deallocate()
    }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "")
        if count == 0 { return [] }
        // `checkRange` has checked offset and count against the file.
        if offset + Int64(count) <= Int64(headCount) {
            stats.record(count)
            return Array(UnsafeBufferPointer(start: head + Int(offset), count: count))
        }
        if offset >= windowStart, offset - windowStart + Int64(count) <= Int64(windowCount) {
            stats.record(count)
            return Array(UnsafeBufferPointer(start: window + Int(offset - windowStart), count: count))
        }
        guard count < Self.windowSize else {
            // Filled by pread, so not zeroed first. The window's worth of bytes after it comes in
            // the same call and becomes the window (a JPEG's next segment marker follows its
            // EXIF): one system call fewer when the next read is there, a copy of at most 4 KiB
            // when it is not.
            let ahead = Int(min(Int64(Self.windowSize), size - offset - Int64(count)))
            var bytes = try [UInt8](unsafeUninitializedCapacity: count + ahead) { raw, initialized in
                guard let base = raw.baseAddress else { return }
                initialized = try Self.read(descriptor, into: base, count: count + ahead, at: offset, atLeast: count)
            }
            let extra = bytes.count - count
            if extra > 0 {
                bytes.withUnsafeBufferPointer { read in
                    guard let base = read.baseAddress else { return }
                    window.update(from: base + count, count: extra)
                    (windowStart, windowCount) = (offset + Int64(count), extra)
                }
                bytes.removeLast(extra)
            }
            stats.record(count)
            return bytes
        }
        // A small read: its window (or what the file has of it; a file cut meanwhile gives what
        // it still holds, at least the bytes asked for). The first at offset 0 fills the head.
        if offset == 0, headCount == 0 {
            headCount = try Self.read(descriptor, into: head, count: Int(min(Int64(Self.windowSize), size)), at: 0, atLeast: count)
            stats.record(count)
            return Array(UnsafeBufferPointer(start: head, count: count))
        }
        windowCount = 0
        let got = try Self.read(descriptor, into: window, count: Int(min(Int64(Self.windowSize), size - offset)), at: offset, atLeast: count)
        (windowStart, windowCount) = (offset, got)
        stats.record(count)
        return Array(UnsafeBufferPointer(start: window, count: count))
    }

    /// Reads up to `count` bytes at `offset` into `base` by `pread` and returns how many: fewer
    /// only when the file ends first, and never fewer than `atLeast` (else it throws).
    private static func read(_ descriptor: Int32, into base: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64, atLeast: Int) throws -> Int {
        var initialized = 0
        while initialized < count {
            let got = pread(descriptor, base + initialized, count - initialized, off_t(offset) + off_t(initialized))
            if got < 0 {
                if errno == EINTR { continue }
                throw ParseError(.io, "read failed: \(String(cString: strerror(errno)))", offset: offset + Int64(initialized))
            }
            if got == 0 {
                guard initialized >= atLeast else { throw ParseError(.truncated, "file ended while reading", offset: offset + Int64(initialized)) }
                break
            }
            initialized += got
        }
        return initialized
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
