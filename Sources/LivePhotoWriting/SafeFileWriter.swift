internal import CFileCopy
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

    /// What identifies a file's content for "did it change while we worked", and what a
    /// replacement must keep (owner, group, mode, times).
    public struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64
        /// Names the file has: more than one means hard links that a replacement would split.
        public var links: UInt64 = 1
        var owner: UInt32 = 0
        var group: UInt32 = 0
        var mode: UInt32 = 0o644
        var accessed: timespec = timespec()
        var modifiedTime: timespec = timespec()

        public static func of(_ path: String) throws -> Identity {
            var info = stat()
            guard PathBytes.status(path, &info) == 0 else { throw Failure("\(path): \(String(cString: strerror(errno)))") }
            #if canImport(Darwin)
            let time = info.st_mtimespec, access = info.st_atimespec
            #else
            let time = info.st_mtim, access = info.st_atim
            #endif
            return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                            modified: Int64(time.tv_sec), modifiedNanoseconds: Int64(time.tv_nsec), links: UInt64(info.st_nlink),
                            owner: UInt32(info.st_uid), group: UInt32(info.st_gid), mode: UInt32(info.st_mode) & 0o7777,
                            accessed: access, modifiedTime: time)
        }

        /// The same content: device, inode, size and modification time (not the link count, which
        /// the backup itself changes).
        public static func == (lhs: Identity, rhs: Identity) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified == rhs.modified && lhs.modifiedNanoseconds == rhs.modifiedNanoseconds
        }
    }

    public struct Written: Sendable {
        public var path: String
        /// What could not be kept (an extended attribute the file system refused, the owner when
        /// not run as root).
        public var notes: [String] = []
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
        /// What the replacement could not keep of the original's attributes.
        public var notes: [String] = []
    }

    /// Refuses a new file's `destination` (make, convert) that is a symbolic link (renamed over,
    /// a link would be replaced; followed, its target anywhere on disk would be) or that is one
    /// of `inputs` (the same path, or the same device and inode): `--force` does not change that.
    public static func refuseNewOutput(_ destination: String, inputs: [String]) throws {
        var info = stat()
        guard PathBytes.linkStatus(destination, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            var target = [UInt8](repeating: 0, count: 4096)
            let count = target.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return -1 }
                return PathBytes.withCString(destination) { readlink($0, base, 4096) }
            }
            let named = count > 0 ? " (to " + PathBytes.string(target.prefix(count)) + ")" : ""
            throw Failure("\(destination) is a symbolic link\(named): lpcheck writes new files and never through a link; remove it or choose another --output")
        }
        for input in inputs {
            var other = stat()
            if input == destination || (PathBytes.status(input, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino) {
                throw Failure("\(destination) is the input \(input): it would be replaced by what is made from it; choose another --output")
            }
        }
    }

    /// Writes `patch` (pieces of `original` and new bytes) to a temporary file beside `destination`.
    /// A replacement (`original == destination`, repair) writes the file a link points to; a new
    /// file never goes through a link (`refuseNewOutput`). `replacing`: a new file over an
    /// existing one of another input (keyphoto in place) keeps that file's owner, group and mode.
    public static func stage(_ patch: FilePatch, original: String, destination: String, identity: Identity?, replacing: Bool = false) throws -> Staged {
        let inPlace = original == destination
        if !inPlace { try refuseNewOutput(destination, inputs: [original]) }
        let destination = inPlace ? throughLinks(destination) : destination
        let original = inPlace ? destination : original
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/" + WriterTemporary.name(for: name, pid: getpid(), random: UInt32.random(in: 0...UInt32.max))
        var info = stat(), replaced = stat()
        let hasOriginal = PathBytes.status(original, &info) == 0
        let keeps = replacing && !inPlace && PathBytes.status(destination, &replaced) == 0
        // A replacement keeps the original's mode (or the replaced file's); a new file (make,
        // convert) gets the umask's.
        let mode = inPlace && hasOriginal ? mode_t(info.st_mode & 0o7777) : keeps ? mode_t(replaced.st_mode & 0o7777) : 0o666
        let output = PathBytes.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard output >= 0 else {
            throw Failure("cannot create a temporary file beside \(destination): \(String(cString: strerror(errno)))")
        }
        var success = false
        defer {
            close(output)
            if !success { _ = PathBytes.withCString(temporary) { unlink($0) } }
        }
        let input = PathBytes.open(original, O_RDONLY)
        guard input >= 0 else { throw Failure("cannot open \(original): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var others: [String: Int32] = [:]
        defer { for descriptor in others.values { close(descriptor) } }
        var position: Int64 = 0
        for piece in patch.pieces {
            switch piece {
            case .copy(let range):
                try naming(destination) { try copyRange(from: input, range: range, to: output, at: position) }
            case .bytes(let bytes):
                try naming(destination) { try writeAll(output, bytes, at: position) }
            case .copyFile(let path, let range):
                if others[path] == nil {
                    let descriptor = PathBytes.open(path, O_RDONLY)
                    guard descriptor >= 0 else { throw Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
                    others[path] = descriptor
                }
                guard let descriptor = others[path] else { throw Failure("cannot open \(path)") }
                try naming(destination) { try copyRange(from: descriptor, range: range, to: output, at: position) }
            }
            position += piece.count
            FaultInjection.step("piece")
        }
        // A replacement keeps what the original had: owner and group (where allowed), the mode
        // (which the umask narrowed at open) and extended attributes.
        var notes: [String] = []
        if inPlace && hasOriginal {
            notes = FileAttributes.copy(from: input, to: output, owner: info.st_uid, group: info.st_gid, mode: mode)
        } else if keeps {
            let old = PathBytes.open(destination, O_RDONLY)
            guard old >= 0 else { throw Failure("cannot open \(destination): \(String(cString: strerror(errno)))") }
            defer { close(old) }
            notes = FileAttributes.copy(from: old, to: output, owner: replaced.st_uid, group: replaced.st_gid, mode: mode)
        }
        guard fsync(output) == 0 else { throw Failure("writing \(destination): fsync failed: \(String(cString: strerror(errno)))") }
        FaultInjection.step("fsync")
        success = true
        return Staged(temporary: temporary, destination: destination, original: original, identity: identity, newBytes: patch.newBytes, size: position, notes: notes)
    }

    /// A file a producer writes as it goes (an encoded movie, its samples as they come), in order
    /// and, for a header known last, at an offset already written.
    public final class ProducedFile {
        let descriptor: Int32
        /// The file this one becomes, for messages (the temporary's name is nobody's business).
        let destination: String
        public private(set) var size: Int64 = 0

        init(_ descriptor: Int32, destination: String) { (self.descriptor, self.destination) = (descriptor, destination) }

        public func append(_ bytes: [UInt8]) throws {
            try naming(destination) { try writeAll(descriptor, bytes, at: size) }
            size += Int64(bytes.count)
            FaultInjection.step("piece")
        }

        /// Overwrites bytes already written.
        public func write(_ bytes: [UInt8], at offset: Int64) throws {
            guard offset >= 0, offset + Int64(bytes.count) <= size else { throw Failure("a produced file's bytes \(offset)..<\(offset + Int64(bytes.count)) are not written yet") }
            try naming(destination) { try writeAll(descriptor, bytes, at: offset) }
        }
    }

    /// Stages a new file that `produce` writes, beside `destination` under a writer's temporary
    /// name (which `check` names if it is left), fsynced; committed or discarded as a staged patch
    /// is. Refuses what `refuseNewOutput` refuses; removes the temporary file when `produce` throws.
    public static func stage(producedAs destination: String, inputs: [String], produce: (ProducedFile) throws -> Void) throws -> Staged {
        try refuseNewOutput(destination, inputs: inputs)
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/" + WriterTemporary.name(for: name, pid: getpid(), random: UInt32.random(in: 0...UInt32.max))
        let output = PathBytes.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard output >= 0 else { throw Failure("cannot create a temporary file beside \(destination): \(String(cString: strerror(errno)))") }
        var success = false
        defer {
            close(output)
            if !success { _ = PathBytes.withCString(temporary) { unlink($0) } }
        }
        let file = ProducedFile(output, destination: destination)
        try produce(file)
        guard fsync(output) == 0 else { throw Failure("writing \(destination): fsync failed: \(String(cString: strerror(errno)))") }
        FaultInjection.step("fsync")
        success = true
        return Staged(temporary: temporary, destination: destination, original: inputs.first ?? destination, identity: nil, newBytes: file.size, size: file.size)
    }

    /// Renames a verified temporary file into place, after keeping a backup of what it replaces.
    public static func commit(_ staged: Staged, backup: Bool, keepTimes: Bool = false) throws -> Written {
        if let identity = staged.identity, try Identity.of(staged.original) != identity {
            discard(staged)
            throw Failure("\(staged.original) changed while it was being repaired; nothing was written (run again)")
        }
        if keepTimes, let identity = staged.identity {
            // Last, after every read of the temporary file, so the access time stays the original's.
            let times = [identity.accessed, identity.modifiedTime]
            _ = PathBytes.withCString(staged.temporary) { utimensat(AT_FDCWD, $0, times, 0) }
        }
        var backupPath: String?
        if backup, PathBytes.exists(staged.destination) {
            backupPath = try keepBackup(of: staged.destination)
            FaultInjection.step("backup")
        }
        let renamed = PathBytes.withCString(staged.temporary) { from in PathBytes.withCString(staged.destination) { to in rename(from, to) } }
        guard renamed == 0 else {
            let reason = String(cString: strerror(errno))
            discard(staged)
            throw Failure("cannot rename into \(staged.destination): \(reason)")
        }
        FaultInjection.step("rename")
        syncFolder(of: staged.destination)
        return Written(path: staged.destination, notes: staged.notes, newBytes: staged.newBytes, size: staged.size, backup: backupPath)
    }

    public static func discard(_ staged: Staged) { _ = PathBytes.withCString(staged.temporary) { unlink($0) } }

    /// The file a symbolic link points to, so that the rename replaces that file and the link
    /// stays a link (renaming over the link would leave the linked file unrepaired and turn the
    /// link into a copy). Any other path is returned as it is.
    static func throughLinks(_ path: String) -> String {
        var info = stat()
        guard PathBytes.linkStatus(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
              let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return path }
        defer { free(resolved) }
        return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// Hard-links the file into `.lpcheck-backup/` beside it (a copy where links are not possible).
    static func keepBackup(of path: String) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        // The hidden folder `check` skips, so backups never confuse a later check.
        let backups = (folder.isEmpty ? "." : folder) + "/" + Discovery.backupFolder
        if PathBytes.withCString(backups, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw Failure("cannot create \(backups): \(String(cString: strerror(errno)))")
        }
        var candidate = backups + "/" + name
        var counter = 1
        while PathBytes.exists(candidate) {
            candidate = backups + "/" + name + ".\(counter)"
            counter += 1
        }
        let linked = PathBytes.withCString(path) { from in PathBytes.withCString(candidate) { to in link(from, to) } }
        if linked != 0 {
            do {
                try copyWhole(path, to: candidate)
            } catch {
                throw Failure("cannot keep a backup of \(path) in \(backups): \(error)")
            }
        }
        syncFolder(of: candidate)
        return candidate
    }

    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = PathBytes.open(folder.isEmpty ? "." : folder, O_RDONLY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    /// A whole-file copy where a hard link is not possible (another file system), attributes kept.
    static func copyWhole(_ path: String, to destination: String) throws {
        let input = PathBytes.open(path, O_RDONLY)
        guard input >= 0 else { throw Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw Failure("cannot stat \(path)") }
        let output = PathBytes.open(destination, O_WRONLY | O_CREAT | O_EXCL, mode_t(info.st_mode & 0o7777))
        guard output >= 0 else { throw Failure("cannot create \(destination): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        try copyRange(from: input, range: 0..<Int64(info.st_size), to: output, at: 0)
        _ = FileAttributes.copy(from: input, to: output, owner: info.st_uid, group: info.st_gid, mode: mode_t(info.st_mode & 0o7777))
        guard fsync(output) == 0 else { throw Failure("fsync of \(destination) failed") }
    }

    /// A write's failure named by the file it was for ("writing out/x.mov: write failed: File too large").
    static func naming(_ destination: String, _ body: () throws -> Void) throws {
        do { try body() } catch let failure as Failure { throw Failure("writing \(destination): \(failure)") }
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

/// lpcheck's own temporary files (`WriterTemporary` names) left by writes whose process has
/// ended: found, and removed by `repair` and `convert` before they write.
public enum StaleTemporaries {
    /// Whether a process with this id exists (it may be another program that reuses the id:
    /// such a temporary is left alone).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The temporaries among `paths` and in `folders` (not below them) whose process has ended:
    /// regular files only, never this process's own.
    public static func find(paths: [String] = [], folders: Set<String> = []) -> [String] {
        var candidates = paths
        for folder in folders.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            candidates += names.sorted().map { (folder.isEmpty ? "" : folder + "/") + $0 }
        }
        var seen = Set<String>()
        return candidates.filter { path in
            guard seen.insert(path).inserted, let pid = WriterTemporary.processID(inName: (path as NSString).lastPathComponent),
                  pid != getpid(), !isRunning(pid) else { return false }
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Removes what `find` finds; returns what it removed.
    public static func remove(paths: [String] = [], folders: Set<String> = []) -> [String] {
        find(paths: paths, folders: folders).filter { unlink($0) == 0 }
    }
}
