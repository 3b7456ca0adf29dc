import Foundation

/// Test hook: `LPCHECK_FAULT_STEP=N` ends the process abruptly at the N-th step of a write
/// (after each piece, after fsync, after the backup, after the rename), as a crash would.
/// With `LPCHECK_FAULT_WAIT=FIFO` too, the process stops at that step instead: it opens the FIFO
/// for reading and waits there, so that a test that opened the other end knows the write is
/// under way at exactly that step when it sends a signal (it ends the wait by closing its end,
/// and the process then ends as without the FIFO).
enum FaultInjection {
    nonisolated(unsafe) static var count = 0
    static let limit: Int? = ProcessInfo.processInfo.environment["LPCHECK_FAULT_STEP"].flatMap(Int.init)
    static let waitPath: String? = ProcessInfo.processInfo.environment["LPCHECK_FAULT_WAIT"]

    static func step(_ name: String) {
        guard let limit else { return }
        count += 1
        guard count >= limit else { return }
        if let waitPath {
            let descriptor = open(waitPath, O_RDONLY)
            if descriptor >= 0 {
                var byte: UInt8 = 0
                _ = read(descriptor, &byte, 1)
                close(descriptor)
            }
        }
        _exit(86)
    }
}
