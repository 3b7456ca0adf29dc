import Foundation
import LivePhotoReports

/// A one-line progress bar on standard error.
enum ProgressBar {
    static let lock = NSLock()
    nonisolated(unsafe) static var line = ProgressLine()
    nonisolated(unsafe) static var drawn = false

    @Sendable static func update(_ done: Int, _ total: Int) { draw(done, total, noun: "files") }

    /// make GIF's frames, a re-timed export's.
    @Sendable static func frames(_ done: Int, _ total: Int) { draw(done, total, noun: "frames") }

    /// An exported GIF's frames, read twice (colours counted, then mapped).
    @Sendable static func framePasses(_ done: Int, _ total: Int) { draw(done, total, noun: "frames read (two passes)") }

    /// Items exported.
    @Sendable static func items(_ done: Int, _ total: Int) { draw(done, total, noun: "items") }

    static func draw(_ done: Int, _ total: Int, noun: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let text = line.text(done: done, total: total, noun: noun, now: Double(DispatchTime.now().uptimeNanoseconds) / 1e9) else { return }
        drawn = true
        writeError("\r" + text + "\u{1B}[K")
    }

    static func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { writeError("\r\u{1B}[K") }
        (line, drawn) = (ProgressLine(), false)
    }
}
