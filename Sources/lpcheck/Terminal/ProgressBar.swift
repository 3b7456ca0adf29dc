import Foundation

/// A one-line progress bar on standard error.
enum ProgressBar {
    static let lock = NSLock()
    nonisolated(unsafe) static var lastPercent = -1

    @Sendable static func update(_ done: Int, _ total: Int) { draw(done, total, noun: "files") }

    /// make GIF's frames, a re-timed export's.
    @Sendable static func frames(_ done: Int, _ total: Int) { draw(done, total, noun: "frames") }

    /// An exported GIF's frames, read twice (colours counted, then mapped).
    @Sendable static func framePasses(_ done: Int, _ total: Int) { draw(done, total, noun: "frames read (two passes)") }

    /// Items exported.
    @Sendable static func items(_ done: Int, _ total: Int) { draw(done, total, noun: "items") }

    static func draw(_ done: Int, _ total: Int, noun: String) {
        // Counts come from other threads and from the codec helper: held to 0...total here,
        // whatever a caller hands over, so that no count can break the bar.
        guard total >= 50 else { return }
        let done = min(max(done, 0), total)
        let percent = done * 100 / max(total, 1)
        lock.lock()
        defer { lock.unlock() }
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = width * done / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        writeError("\r[\(bar)] \(percent)% \(done)/\(total) \(noun)")
    }

    static func finish() {
        lock.lock()
        defer { lock.unlock() }
        if lastPercent >= 0 { writeError("\r\u{1B}[K") }
        lastPercent = -1
    }
}
