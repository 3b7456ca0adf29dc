import Foundation

/// What a progress line says: a bar, the percent and the count, and once a run has gone on for
/// two seconds its rate and about how long is left. Counts come from several threads and arrive
/// out of order: the percent shown never goes back. No line for totals under 50 (done at once).
public struct ProgressLine: Sendable {
    var started: Double?
    var shownPercent = -1

    public init() {}

    /// The line for `done` of `total` at `now` (seconds on any steady clock), or nil when it
    /// would not change what is shown.
    public mutating func text(done: Int, total: Int, noun: String, now: Double) -> String? {
        guard total >= 50 else { return nil }
        let done = min(max(done, 0), total)
        let start = started ?? now
        started = start
        let percent = done * 100 / total
        guard percent > shownPercent else { return nil }
        shownPercent = percent
        let width = 30, filled = width * done / total
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(percent)% \(done)/\(total) \(noun)"
        let elapsed = now - start
        if elapsed >= 2, done > 0, done < total {
            let rate = Double(done) / elapsed
            let left = Double(total - done) / rate
            line += ", \(rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate))/s, about \(Self.duration(left)) left"
        }
        return line
    }

    /// Whole seconds, minutes and seconds, or hours and minutes.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(min(seconds, 360_000).rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole / 60 % 60) min"
    }
}
