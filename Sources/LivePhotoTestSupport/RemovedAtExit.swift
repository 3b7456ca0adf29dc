import Foundation

/// Paths a test process removes when it exits: the scratch of fixtures held in static lets
/// (built once a run, shared by every test), which no test's `defer` and no `deinit` reaches.
public enum RemovedAtExit {
    nonisolated(unsafe) private static var paths: [String] = []
    private static let lock = NSLock()
    private static let installed: Void = { atexit { RemovedAtExit.removeAll() } }()

    /// Removes `url` (a file or a whole folder) when the process exits.
    public static func register(_ url: URL) {
        _ = installed
        lock.lock()
        paths.append(url.path)
        lock.unlock()
    }

    private static func removeAll() {
        lock.lock()
        let all = paths
        lock.unlock()
        for path in all { try? FileManager.default.removeItem(atPath: path) }
    }
}
