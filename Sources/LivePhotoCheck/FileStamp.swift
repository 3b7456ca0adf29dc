import Foundation
import LivePhotoFormats

/// What says a file is unchanged since its facts were taken: device, inode, size, and the
/// modification and status-change times in nanoseconds (any write or rename touches the latter).
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    /// The stamp of a regular file, nil when it cannot be read.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard PathBytes.status(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The stamp in a file's status.
    public init(_ info: stat) {
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec) }
        #if canImport(Darwin)
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modified: nanoseconds(info.st_mtimespec), changed: nanoseconds(info.st_ctimespec))
        #else
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim))
        #endif
    }
}
