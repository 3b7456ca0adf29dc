import Foundation
import LivePhotoFormats

/// The result of a check run: what every report writer renders.
public struct CheckReport: Sendable {
    public var tool = "lpcheck"
    public var version: String
    /// The folders and files given.
    public var roots: [String]
    /// The items in report order: an array, or (`check --facts --bounded-memory`) items made
    /// again from their files' records each time one is read.
    public var items: CheckItems
    /// The rules that ran (after configuration), for catalogues in reports.
    public var rules: [RuleDescription]
    public var failOn: Configuration.FailLevel
    /// Files that were not media (left out) and folders or files that could not be opened.
    public var ignoredFiles: Int
    public var discoveryProblems: [(path: String, reason: String)]
    /// The files counted in `ignoredFiles`, by name, with the reason.
    public var leftOut: [LeftOutFile]

    public init(version: String, roots: [String], items: [CheckItem], rules: [RuleDescription], failOn: Configuration.FailLevel,
                ignoredFiles: Int = 0, discoveryProblems: [(path: String, reason: String)] = [], leftOut: [LeftOutFile] = []) {
        self.leftOut = leftOut
        self.version = version
        self.roots = roots
        self.items = CheckItems(items)
        self.rules = rules
        self.failOn = failOn
        self.ignoredFiles = ignoredFiles
        self.discoveryProblems = discoveryProblems
    }

    /// A report over items made on demand (their totals known without making them).
    public init(version: String, roots: [String], items: CheckItems, rules: [RuleDescription], failOn: Configuration.FailLevel,
                ignoredFiles: Int = 0, discoveryProblems: [(path: String, reason: String)] = [], leftOut: [LeftOutFile] = []) {
        self.init(version: version, roots: roots, items: [], rules: rules, failOn: failOn, ignoredFiles: ignoredFiles,
                  discoveryProblems: discoveryProblems, leftOut: leftOut)
        self.items = items
    }

    public var findings: [Finding] { items.flatMap(\.findings) }

    /// Findings that count for the gate (not accepted by a baseline).
    public var gatingFindings: [Finding] { findings.filter { !$0.baselined } }

    // The counts below walk `items` by index and read single fields: items are large values,
    // and a `for item in items` or `reduce` would copy each one.

    /// What the counts below are taken from: kept with items made on demand, else counted now.
    public var totals: ReportTotals { items.totals }

    public func count(_ severity: Severity) -> Int { totals.gating[severity] ?? 0 }

    public func count(_ kind: ItemKind) -> Int { totals.kinds[kind] ?? 0 }
    /// How many items got `verdict` for `target`.
    public func count(_ target: Target, _ verdict: Verdict) -> Int {
        guard let row = Target.allCases.firstIndex(of: target), let column = Verdict.allCases.firstIndex(of: verdict) else { return 0 }
        return totals.verdicts[row * Verdict.allCases.count + column]
    }

    public var fileCount: Int { totals.files }

    /// Bytes read from all files.
    public var bytesRead: Int64 { totals.bytesRead }

    /// Findings a baseline accepted.
    public var baselinedCount: Int { totals.baselined }

    /// Whether the gate passes: every input was read, and no gating finding is at or above
    /// `failOn`. A run that could not read what it was given never passes, whatever `failOn`
    /// says (it exits 2): a CI gate must not pass what it did not read.
    public var passed: Bool {
        guard inputFailure == nil else { return false }
        guard let threshold = failOn.threshold, let worst = totals.worstGating else { return true }
        return worst < threshold
    }

    /// Why the run fails whatever its findings: paths that could not be opened, or nothing
    /// readable among what was given; nil when every input was read.
    public var inputFailure: String? {
        if !discoveryProblems.isEmpty {
            return discoveryProblems.count == 1 ? "1 path could not be read" : "\(discoveryProblems.count) paths could not be read"
        }
        if count(.unreadable) >= items.count { return "nothing readable" }
        return nil
    }

    /// Items with a gating finding at or above `failOn` (JUnit's failed test cases).
    public var failingItemCount: Int {
        guard let threshold = failOn.threshold else { return 0 }
        return totals.itemsByWorstGating.reduce(0) { $0 + ($1.key >= threshold ? $1.value : 0) }
    }

    /// Findings per rule identifier, in catalogue order.
    public var countsByRule: [(rule: String, count: Int)] {
        let counts = totals.rules
        return rules.map(\.identifier).compactMap { id in counts[id].map { (id, $0) } }
    }
}

/// A report's counts: findings by severity and rule, items by kind, files and bytes read.
public struct ReportTotals: Sendable, Equatable {
    /// Findings not accepted by a baseline, by severity and by rule.
    public var gating: [Severity: Int] = [:]
    public var rules: [String: Int] = [:]
    public var baselined = 0
    /// The most severe gating finding of any item.
    public var worstGating: Severity?
    /// Items by the severity of their most severe gating finding.
    public var itemsByWorstGating: [Severity: Int] = [:]
    public var kinds: [ItemKind: Int] = [:]
    /// Items by target and verdict (`Target.allCases` × `Verdict.allCases`, row by row).
    public var verdicts = [Int](repeating: 0, count: Target.allCases.count * Verdict.allCases.count)
    public var items = 0
    public var files = 0
    public var bytesRead: Int64 = 0

    public init() {}

    /// The totals of `items` (walked by index: items are large values, and `for item in` would
    /// copy each one).
    public init<Items: RandomAccessCollection>(_ items: Items) where Items.Element == CheckItem, Items.Index == Int {
        // Kinds counted in a fixed list first: a dictionary update per item cost more than the
        // rest of the count on a warm check.
        var perKind = [Int](repeating: 0, count: ItemKind.allCases.count)
        for index in items.indices {
            if let slot = ItemKind.allCases.firstIndex(of: items[index].kind) { perKind[slot] += 1 }
            add(items[index], countingKind: false)
        }
        for (slot, kind) in ItemKind.allCases.enumerated() where perKind[slot] > 0 { kinds[kind] = perKind[slot] }
    }

    public mutating func add(_ item: CheckItem) { add(item, countingKind: true) }

    private mutating func add(_ item: CheckItem, countingKind: Bool) {
        items += 1
        if countingKind { kinds[item.kind, default: 0] += 1 }
        files += item.fileCount
        bytesRead += (item.still?.bytesRead ?? 0) + (item.movie?.bytesRead ?? 0)
        item.verdicts.counting { row, column in verdicts[row * Verdict.allCases.count + column] += 1 }
        var worst: Severity?
        for finding in item.findings {
            if finding.baselined {
                baselined += 1
                continue
            }
            gating[finding.severity, default: 0] += 1
            rules[finding.rule, default: 0] += 1
            if worst.map({ finding.severity > $0 }) ?? true { worst = finding.severity }
        }
        if let worst {
            itemsByWorstGating[worst, default: 0] += 1
            if worstGating.map({ worst > $0 }) ?? true { worstGating = worst }
        }
    }

    public mutating func add(_ other: ReportTotals) {
        gating.merge(other.gating, uniquingKeysWith: +)
        rules.merge(other.rules, uniquingKeysWith: +)
        itemsByWorstGating.merge(other.itemsByWorstGating, uniquingKeysWith: +)
        kinds.merge(other.kinds, uniquingKeysWith: +)
        for index in verdicts.indices where index < other.verdicts.count { verdicts[index] += other.verdicts[index] }
        baselined += other.baselined
        items += other.items
        files += other.files
        bytesRead += other.bytesRead
        if let worst = other.worstGating, worstGating.map({ worst > $0 }) ?? true { worstGating = worst }
    }
}

/// Items made on demand: `check --facts --bounded-memory` keeps no item, and makes each one
/// again from its files' records when it is read. Read from several threads at once.
public protocol ItemSource: AnyObject, Sendable {
    var count: Int { get }
    /// The item at `position`, made again; throws when its records can no longer be read or no
    /// longer give the item they gave (a record file changed while it was checked).
    func item(at position: Int) throws -> CheckItem
    var totals: ReportTotals { get }
    /// Throws when an input the items are made from changed since the source was made.
    func verifyUnchanged() throws
}

/// A report's items, in report order: held in an array, or made by an `ItemSource` when read
/// (an item changed in place is then kept beside the source).
public struct CheckItems: RandomAccessCollection, MutableCollection, Sendable {
    private var array: [CheckItem]
    private let source: (any ItemSource)?
    /// The first item the source could not make (`readFailure`).
    private let failures = FirstFailure()
    private var changed: [Int: CheckItem] = [:]
    /// Totals counted once (a report's writers ask for a dozen counts); a new one on every change.
    private var memo = Memo()

    final class Memo: Sendable {
        private let totals = Locked<ReportTotals?>(nil)
        func value(_ count: () -> ReportTotals) -> ReportTotals {
            totals.withLock { totals in
                if let totals { return totals }
                let counted = count()
                totals = counted
                return counted
            }
        }
    }

    public init(_ items: [CheckItem] = []) {
        array = items
        source = nil
    }

    public init(source: any ItemSource) {
        array = []
        self.source = source
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { source?.count ?? array.count }

    public subscript(position: Int) -> CheckItem {
        // Yielded, not returned: an item of the array is lent in place instead of copied out
        // (a copy retains and releases each of its parts; writers read every item).
        _read {
            if let source {
                yield changed[position] ?? made(position, by: source)
            } else {
                yield array[position]
            }
        }
        set {
            if source == nil { array[position] = newValue } else { changed[position] = newValue }
            memo = Memo()
        }
    }

    /// An item the source makes; one it cannot make is an unreadable item, and the failure is
    /// kept for `readFailure` (writers read items as a collection, which cannot throw).
    private func made(_ position: Int, by source: any ItemSource) -> CheckItem {
        do {
            return try source.item(at: position)
        } catch {
            failures.note("\(error)")
            return CheckItem(kind: .unreadable)
        }
    }

    /// Why the items read so far may not be those the source's inputs gave: the first item the
    /// source could not make, else an input that changed since. Nil for items held in an array.
    /// A run asks once its outputs are written, and fails if there is one.
    public var readFailure: String? {
        guard let source else { return nil }
        if let first = failures.first { return first }
        do {
            try source.verifyUnchanged()
            return nil
        } catch {
            return "\(error)"
        }
    }

    final class FirstFailure: Sendable {
        private let message = Locked<String?>(nil)
        func note(_ text: String) { message.withLock { if $0 == nil { $0 = text } } }
        var first: String? { message.current }
    }

    /// The source's totals, or the items' counted once.
    var totals: ReportTotals {
        if let source, changed.isEmpty { return source.totals }
        // The array itself: its elements are read in place, not copied out one by one.
        return memo.value { source == nil ? ReportTotals(array) : ReportTotals(self) }
    }

    /// Whether the items are made on demand.
    public var madeOnDemand: Bool { source != nil }
}

/// A file found below the roots that is in no item, and why.
public struct LeftOutFile: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A hidden file; lpcheck's own temporary files are named as such.
    public static func hidden(_ path: String) -> LeftOutFile {
        LeftOutFile(path: path, reason: WriterTemporary.leftOutReason(path) ?? "hidden file (name starts with a dot)")
    }

    /// A file that is neither media nor a sidecar.
    public static func notMedia(_ file: FileFacts) -> LeftOutFile {
        LeftOutFile(path: file.path, reason: file.error.map { "unreadable: \($0.message)" } ?? "not an image or movie")
    }
}
