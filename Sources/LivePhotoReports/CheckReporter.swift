import LivePhotoCheck

/// A report format of `lpcheck check`: its name (the `--format` value), the report as text, and
/// a writer that hands it to `sink` in pieces (by default the whole text at once; JSON streams item
/// by item). A new format is one type conforming to this and one entry in `CheckReporters.all`.
public protocol CheckReporter: Sendable {
    /// The `--format` value, stable: CI configurations name it.
    static var identifier: String { get }
    static func render(_ report: CheckReport) -> String
    static func write(_ report: CheckReport, to sink: (String) -> Void)
}

extension CheckReporter {
    public static func write(_ report: CheckReport, to sink: (String) -> Void) { sink(render(report)) }
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
extension CheckHTML: CheckReporter { public static let identifier = "html" }
extension CheckJUnit: CheckReporter { public static let identifier = "junit" }
extension CheckSARIF: CheckReporter { public static let identifier = "sarif" }
