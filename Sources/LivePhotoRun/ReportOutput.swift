import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Report files: opened where they are, written as the reporters hand them over.
public enum ReportOutput {
    /// Writes a report file as the reporter hands it over (JSON item by item), in 64 KB writes.
    public static func write(to path: String, _ produce: ((String) -> Void) -> Void) throws {
        let handle = try open(path)
        defer { try? handle.close() }
        // Pieces are copied into one byte buffer of fixed capacity, written at 64 KiB (a string
        // grown from empty each time was reallocated and copied as it doubled).
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        var failure: Error?
        produce { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 16 {
                if failure == nil {
                    do { try writeAll(handle, buffer) } catch { failure = error }
                }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        do {
            if let failure { throw failure }
            try writeAll(handle, buffer)
        } catch {
            // A report cut short (a full disk, a file-size limit) is not left to pass for one:
            // a regular file is emptied; the run exits 2 saying why.
            var info = stat()
            if fstat(handle.fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { _ = ftruncate(handle.fileDescriptor, 0) }
            throw error
        }
    }

    /// Every byte written, or the system's reason (EFBIG, ENOSPC) as the error.
    static func writeAll(_ handle: FileHandle, _ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(handle.fileDescriptor, raw.baseAddress, raw.count)
                #else
                Darwin.write(handle.fileDescriptor, raw.baseAddress, raw.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }

    /// Opens a report file where it is, created or truncated. Never an atomic replace: that
    /// would put a regular file in the place of a symbolic link, a FIFO or `/dev/null` (and, run
    /// as root, really replace the device).
    public static func open(_ path: String) throws -> FileHandle {
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        #else
        let descriptor = Darwin.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        #endif
        guard descriptor >= 0 else { throw OutputError(reason: String(cString: strerror(errno))) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Why a report could not be written at `path`, found before any work and without touching
    /// it: a folder there, a folder missing or not a folder above it, no write permission; nil
    /// when it can be.
    public static func unwritable(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return "it is a folder" }
            return access(path, W_OK) == 0 ? nil : String(cString: strerror(errno))
        }
        let folder = (path as NSString).deletingLastPathComponent
        let parent = folder.isEmpty ? "." : folder
        guard stat(parent, &info) == 0 else { return "its folder \(parent): \(String(cString: strerror(errno)))" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(parent) is not a folder" }
        return access(parent, W_OK | X_OK) == 0 ? nil : "its folder \(parent): \(String(cString: strerror(errno)))"
    }

    public struct OutputError: LocalizedError {
        let reason: String
        public var errorDescription: String? { reason }
    }
}
