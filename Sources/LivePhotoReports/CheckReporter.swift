import Foundation
import LivePhotoCheck

/// A report format of `lpcheck check`: its name (the `--format` value), the report as text, and
/// a writer that hands it to `sink` in pieces (by default the whole text at once; JSON streams item
/// by item). A new format is one type conforming to this and one entry in `CheckReporters.all`.
public protocol CheckReporter: Sendable {
    /// The `--format` value, stable: CI configurations name it.
    static var identifier: String { get }
    static func render(_ report: CheckReport) -> String
    static func write(_ report: CheckReport, to sink: (String) -> Void)
    /// The report written with the run's options (a format that has none writes as `write`).
    static func write(_ report: CheckReport, options: ReportOptions, to sink: (String) -> Void)
    /// The items whose stills the report shows pictures of: the run fetches their thumbnails.
    static func shownItems(_ report: CheckReport, options: ReportOptions) -> [Int]
    /// Whether the report is a page a browser runs (ranking every item): it needs the whole
    /// report in memory and is never written again from stored bytes.
    static var isPage: Bool { get }
}

/// What a run asks of its reports beyond the report itself.
public struct ReportOptions: Sendable {
    /// Item cards at most (HTML; 0 for no limit).
    public var limit: Int
    public init(limit: Int = CheckHTML.defaultLimit) { self.limit = limit }
}

extension CheckReporter {
    public static func write(_ report: CheckReport, to sink: (String) -> Void) { sink(render(report)) }
    public static func write(_ report: CheckReport, options: ReportOptions, to sink: (String) -> Void) { write(report, to: sink) }
    public static func shownItems(_ report: CheckReport, options: ReportOptions) -> [Int] { [] }
    public static var isPage: Bool { false }
}

/// Every report format, in `--help` order. The command line's `--format` values come from here.
public enum CheckReporters {
    public static let all: [any CheckReporter.Type] = [CheckText.self, CheckJSON.self, CheckPlist.self, CheckHTML.self, CheckJUnit.self, CheckSARIF.self]

    public static var identifiers: [String] { all.map { $0.identifier } }

    public static func named(_ identifier: String) -> (any CheckReporter.Type)? {
        all.first { $0.identifier == identifier }
    }
}

extension CheckText: CheckReporter {
    public static let identifier = "text"
    /// The report file: no colour, items with findings only.
    public static func render(_ report: CheckReport) -> String { render(report, color: false, verbose: false) }
}

extension CheckJSON: CheckReporter { public static let identifier = "json" }
extension CheckPlist: CheckReporter { public static let identifier = "plist" }
extension CheckHTML: CheckReporter {
    public static let identifier = "html"
    public static let isPage = true
    public static func write(_ report: CheckReport, options: ReportOptions, to sink: (String) -> Void) { sink(render(report, limit: options.limit)) }
    public static func shownItems(_ report: CheckReport, options: ReportOptions) -> [Int] { shownItems(report, limit: options.limit) }
}
extension CheckJUnit: CheckReporter { public static let identifier = "junit" }
extension CheckSARIF: CheckReporter { public static let identifier = "sarif" }

/// Pieces of a report rendered on all cores and handed over in order, a batch at a time: a
/// large library's items are written at the pace of the cores, and only one batch of their text
/// is held at once. Rendering a piece is a pure function of the report, so the bytes are those
/// of rendering one piece after another.
public enum ParallelPieces {
    /// Pieces rendered at once: enough to keep the cores busy, few enough to hold (an item's
    /// JSON is about a kilobyte).
    static let batch = 4096
    /// Threads that render (the command line sets it from `--jobs`).
    nonisolated(unsafe) public static var jobs = ProcessInfo.processInfo.activeProcessorCount

    static func stream(count: Int, jobs: Int = ParallelPieces.jobs,
                       _ render: @Sendable (Int) -> String, to sink: (String) -> Void) {
        guard jobs > 1, count > 256 else {
            for index in 0..<count { sink(render(index)) }
            return
        }
        var start = 0
        var pieces = [String](repeating: "", count: min(batch, count))
        while start < count {
            let size = min(batch, count - start)
            let base = start
            let chunks = min(jobs * 4, size)
            pieces.withUnsafeMutableBufferPointer { buffer in
                let slots = Slots(buffer: buffer)
                // Each chunk writes only its own slots.
                Parallel.chunks(size, chunks: chunks) { _, range in
                    for slot in range { slots.buffer[slot] = render(base + slot) }
                }
            }
            for slot in 0..<size {
                sink(pieces[slot])
                pieces[slot] = ""
            }
            start += size
        }
    }

    struct Slots: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<String>
    }
}
