import CFileCopy
import Foundation
import LivePhotoCheck
import LivePhotoFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a planned file without ever leaving a partial one: a temporary file beside the target,
/// written and fsynced, verified by reading it back, then renamed over the target (and the folder
/// fsynced). The original is kept as a hard link in `.lpcheck-backup/` unless told otherwise, and
/// the write is refused if the original changed since it was read.
public enum SafeFileWriter {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// What identifies a file's content for "did it change while we worked".
    public struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64

        public static func of(_ path: String) throws -> Identity {
            var info = stat()
            guard stat(path, &info) == 0 else { throw Failure("\(path): \(String(cString: strerror(errno)))") }
            #if canImport(Darwin)
            let time = info.st_mtimespec
            #else
            let time = info.st_mtim
            #endif
            return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                            modified: Int64(time.tv_sec), modifiedNanoseconds: Int64(time.tv_nsec))
        }
    }

    public struct Written: Sendable {
        public var path: String
        /// Bytes lpcheck wrote itself (new bytes); unchanged ranges are copied by the kernel.
        public var newBytes: Int64
        public var size: Int64
        public var backup: String?
    }

    /// A written temporary file waiting to be renamed into place.
    public struct Staged: Sendable {
        public var temporary: String
        public var destination: String
        public var original: String
        public var identity: Identity?
        public var newBytes: Int64
        public var size: Int64
    }

    /// Writes `patch` (pieces of `original` and new bytes) to a temporary file beside `destination`.
    public static func stage(_ patch: FilePatch, original: String, destination: String, identity: Identity?) throws -> Staged {
        let inPlace = original == destination
        let destination = throughLinks(destination)
        let original = inPlace ? destination : original
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\(name).lpcheck-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var mode: mode_t = 0o644
        var info = stat()
        if stat(original, &info) == 0 { mode = info.st_mode & 0o7777 }
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard output >= 0 else {
            throw Failure("cannot create a temporary file beside \(destination): \(String(cString: strerror(errno)))")
        }
        var success = false
        defer {
            close(output)
            if !success { unlink(temporary) }
        }
        let input = open(original, O_RDONLY)
        guard input >= 0 else { throw Failure("cannot open \(original): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var position: Int64 = 0
        for piece in patch.pieces {
            switch piece {
            case .copy(let range):
                try copyRange(from: input, range: range, to: output, at: position)
            case .bytes(let bytes):
                try writeAll(output, bytes, at: position)
            }
            position += piece.count
            FaultInjection.step("piece")
        }
        guard fsync(output) == 0 else { throw Failure("fsync of \(temporary) failed: \(String(cString: strerror(errno)))") }
        FaultInjection.step("fsync")
        success = true
        return Staged(temporary: temporary, destination: destination, original: original, identity: identity, newBytes: patch.newBytes, size: position)
    }

    /// Renames a verified temporary file into place, after keeping a backup of what it replaces.
    public static func commit(_ staged: Staged, backup: Bool) throws -> Written {
        if let identity = staged.identity, try Identity.of(staged.original) != identity {
            discard(staged)
            throw Failure("\(staged.original) changed while it was being repaired; nothing was written (run again)")
        }
        var backupPath: String?
        if backup, FileManager.default.fileExists(atPath: staged.destination) {
            backupPath = try keepBackup(of: staged.destination)
            FaultInjection.step("backup")
        }
        guard rename(staged.temporary, staged.destination) == 0 else {
            let reason = String(cString: strerror(errno))
            discard(staged)
            throw Failure("cannot rename into \(staged.destination): \(reason)")
        }
        FaultInjection.step("rename")
        syncFolder(of: staged.destination)
        return Written(path: staged.destination, newBytes: staged.newBytes, size: staged.size, backup: backupPath)
    }

    public static func discard(_ staged: Staged) { unlink(staged.temporary) }

    /// The file a symbolic link points to, so that the rename replaces that file and the link
    /// stays a link (renaming over the link would leave the linked file unrepaired and turn the
    /// link into a copy). Any other path is returned as it is.
    static func throughLinks(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Hard-links the file into `.lpcheck-backup/` beside it (a copy where links are not possible).
    static func keepBackup(of path: String) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        // The hidden folder `check` skips, so backups never confuse a later check.
        let backups = (folder.isEmpty ? "." : folder) + "/" + Discovery.backupFolder
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        var candidate = backups + "/" + name
        var counter = 1
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = backups + "/" + name + ".\(counter)"
            counter += 1
        }
        if link(path, candidate) != 0 {
            do {
                try FileManager.default.copyItem(atPath: path, toPath: candidate)
            } catch {
                throw Failure("cannot keep a backup of \(path) in \(backups): \(error.localizedDescription)")
            }
        }
        syncFolder(of: candidate)
        return candidate
    }

    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in pwrite(descriptor, raw.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure("write failed: \(String(cString: strerror(errno)))")
            }
            done += written
        }
    }

    /// Copies a range in the kernel where it can (copy_file_range, which also shares blocks on
    /// file systems that support it), else through a buffer.
    static func copyRange(from input: Int32, range: Range<Int64>, to output: Int32, at offset: Int64) throws {
        var source = range.lowerBound
        var destination = offset
        var left = range.upperBound - range.lowerBound
        while left > 0 {
            var inOffset = Int64(source), outOffset = Int64(destination)
            let copied = lpcheck_copy_file_range(input, &inOffset, output, &outOffset, Int(min(left, 1 << 30)))
            if copied < 0 {
                if errno == EINTR { continue }
                if errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP { break }
                throw Failure("copy failed: \(String(cString: strerror(errno)))")
            }
            if copied == 0 { throw Failure("the original ended early while copying (it changed?)") }
            source += Int64(copied)
            destination += Int64(copied)
            left -= Int64(copied)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while left > 0 {
            let want = Int(min(left, Int64(buffer.count)))
            let got = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress!, want, off_t(source)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Failure("read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { throw Failure("the original ended early while copying (it changed?)") }
            try writeAll(output, Array(buffer[0..<got]), at: destination)
            source += Int64(got)
            destination += Int64(got)
            left -= Int64(got)
        }
    }
}

/// Test hook: `LPCHECK_FAULT_STEP=N` ends the process abruptly at the N-th step of a write
/// (after each piece, after fsync, after the backup, after the rename), as a crash would.
enum FaultInjection {
    nonisolated(unsafe) static var count = 0
    static let limit: Int? = ProcessInfo.processInfo.environment["LPCHECK_FAULT_STEP"].flatMap(Int.init)

    static func step(_ name: String) {
        guard let limit else { return }
        count += 1
        if count >= limit { _exit(86) }
    }
}
