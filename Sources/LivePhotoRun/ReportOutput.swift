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
                    do { try handle.write(contentsOf: buffer) } catch { failure = error }
                }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if let failure { throw failure }
        try handle.write(contentsOf: buffer)
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

    public struct OutputError: LocalizedError {
        let reason: String
        public var errorDescription: String? { reason }
    }
}
