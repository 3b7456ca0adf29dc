import Foundation
import LivePhotoFormats

/// What a scan found: the facts of every file discovery named, and what it could not read or
/// left unread. `lpcheck scan` writes it as records; `check --facts` reads it back.
public struct ScanResult: Sendable {
    public var roots: [String]
    public var files: [FileFacts]
    public var hidden: [String]
    public var problems: [(path: String, reason: String)]
    /// Records read from facts files that repeated an earlier record of the same path byte for
    /// byte (a shard passed twice): kept once.
    public var repeatedRecords = 0

    public init(roots: [String], files: [FileFacts], hidden: [String], problems: [(path: String, reason: String)]) {
        self.roots = roots
        self.files = files
        self.hidden = hidden
        self.problems = problems
    }
}

/// What says a file is unchanged since its facts were taken: device, inode, size, and the
/// modification and status-change times in nanoseconds (any write or rename touches the latter).
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    /// The stamp of a regular file, nil when it cannot be read.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard PathBytes.status(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The stamp in a file's status.
    public init(_ info: stat) {
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec) }
        #if canImport(Darwin)
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modified: nanoseconds(info.st_mtimespec), changed: nanoseconds(info.st_ctimespec))
        #else
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim))
        #endif
    }
}

/// Facts kept from earlier runs (`--cache`): a file whose stamp is unchanged is not read again.
/// EXIF thumbnails (for the cards an HTML report shows) are kept apart from the facts, for the
/// stamp they were read at. Called from several threads at once.
public protocol FactsStore: AnyObject, Sendable {
    /// Called once before the first `facts(for:stamp:)`, on one thread (a store may load then).
    func load()
    func facts(for path: String, stamp: FileStamp) -> FileFacts?
    func remember(_ facts: FileFacts, stamp: FileStamp)
    /// The file's EXIF thumbnail: nil when not known, `.some(nil)` when known to have none.
    func thumbnail(for path: String, stamp: FileStamp) -> [UInt8]??
    func remember(thumbnail: [UInt8]?, for path: String, stamp: FileStamp)
}

/// The active rules at their severities, the rule context and the baseline: findings for an item.
public struct RuleRun: Sendable {
    let active: [(rule: any Rule.Type, severity: Severity)]
    let context: RuleContext
    let baseline: Baseline?

    /// Every active rule's findings on `item`, graded and checked against the baseline.
    public func findings(_ item: CheckItem) -> [Finding] {
        var found: [Finding] = []
        for (rule, severity) in active {
            for var finding in rule.check(item, context: context) {
                finding.severity = severity
                finding.baselined = baseline?.accepts(finding) ?? false
                found.append(finding)
            }
        }
        return found
    }

    /// The descriptions of the active rules, at their configured severities.
    var descriptions: [RuleDescription] {
        active.map { rule, severity in
            var description = RuleRegistry.describe(rule)
            description.severity = severity
            return description
        }
    }
}

/// Runs a check: discovery, reading in parallel, pairing, rules.
public struct Checker {
    public var roots: [String]
    public var configuration = Configuration()
    public var baseline: Baseline?
    /// Files read at once (default: the core count).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var version = "0.0.0"
    /// Called with (files read, files to read) from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Facts of unchanged files from earlier runs, and where this run's are kept.
    public var store: (any FactsStore)?

    public init(roots: [String]) { self.roots = roots }

    public func run() -> CheckReport {
        var scanned = scan(Discovery(exclude: configuration.exclude).find(roots))
        return report(&scanned)
    }

    /// Reads every file discovery found (the facts `lpcheck scan` records).
    public func scan(_ discovery: Discovery.Result) -> ScanResult {
        ScanResult(roots: roots, files: Self.inspect(discovery.files, options: inspectOptions, jobs: jobs, progress: progress, store: store,
                                                     stamps: discovery.stamps.count == discovery.files.count ? discovery.stamps : nil),
                   hidden: discovery.hidden, problems: discovery.problems)
    }

    /// What `check` reads of each file.
    public var inspectOptions: InspectOptions {
        InspectOptions(standardExif: false, allTimedSamples: false, thumbnail: false, boxTree: false, decodePlists: false, chunkTables: false, allItems: false, xmpProperties: false)
    }

    /// Pairs the scanned files and runs the rules. The facts are moved out of `scanned` into the
    /// items, so a large library holds one copy of them. `compare` confirms suspected byte copies
    /// (same identifier group, same size) and is the only reader of file contents here.
    public func report(_ scanned: inout ScanResult, compare: ((FileFacts, FileFacts) -> Bool)? = { FileComparison.identical($0.path, $1.path) }) -> CheckReport {
        var leftOut: [LeftOutFile] = scanned.hidden.map(LeftOutFile.hidden)
        var files = scanned.files
        scanned.files = []
        var items = pairedItems(&files, leftOut: &leftOut, compare: compare)
        files.removeAll()
        // Rules are pure functions of an item: run them on all cores.
        let rules = ruleRun
        let findings = Parallel.map(items, jobs: jobs) { rules.findings($0) }
        for index in items.indices { items[index].findings = findings[index] }
        return report(roots: scanned.roots, items: CheckItems(items), problems: scanned.problems, leftOut: leftOut)
    }

    /// The report around `items`: the rules that ran, the gate, what was left out.
    public func report(roots: [String], items: CheckItems, problems: [(path: String, reason: String)], leftOut: [LeftOutFile]) -> CheckReport {
        CheckReport(version: version, roots: roots, items: items, rules: ruleRun.descriptions, failOn: configuration.failOn ?? .error,
                    ignoredFiles: leftOut.count, discoveryProblems: problems, leftOut: leftOut.sorted { $0.path < $1.path })
    }

    /// The rules this check runs, at their configured severities, with the baseline.
    public var ruleRun: RuleRun {
        RuleRun(active: RuleRegistry.all.compactMap { rule -> (any Rule.Type, Severity)? in
            configuration.severity(of: RuleRegistry.describe(rule)).map { (rule, $0) }
        }, context: configuration.context, baseline: baseline)
    }

    /// Checks one group of files on its own: pairs them and runs the rules on the items. Gives
    /// what `report` gives for those files when no file outside the group pairs with, shares an
    /// identifier or a name with, or is a sidecar of a file inside it (`check --facts
    /// --bounded-memory` checks a library one such group at a time).
    public func checkedItems(_ files: inout [FileFacts], leftOut: inout [LeftOutFile], rules: RuleRun,
                             compare: ((FileFacts, FileFacts) -> Bool)?) -> [CheckItem] {
        var items = pairedItems(&files, leftOut: &leftOut, compare: compare)
        for index in items.indices { items[index].findings = rules.findings(items[index]) }
        return items
    }

    /// Pairs the files; sidecars go to their items, the other files that are not media to `leftOut`.
    public func pairedItems(_ facts: inout [FileFacts], leftOut: inout [LeftOutFile], compare: ((FileFacts, FileFacts) -> Bool)?) -> [CheckItem] {
        var kept = 0
        var sidecars: [FileFacts] = []
        for index in facts.indices {
            guard Self.keepAsMedia(&facts[index]) else {
                if Sidecars.isSidecar(facts[index]) {
                    sidecars.append(facts[index])
                } else {
                    leftOut.append(LeftOutFile.notMedia(facts[index]))
                }
                continue
            }
            if kept != index { facts.swapAt(kept, index) }
            kept += 1
        }
        facts.removeLast(facts.count - kept)
        var items = Pairing.items(facts, identical: compare)
        for sidecar in Sidecars.attach(sidecars, to: &items) {
            leftOut.append(LeftOutFile(path: sidecar.path, reason: "sidecar (.\(sidecar.fileExtension)) describing no file of the scan"))
        }
        return items
    }

    /// Whether the file counts as media for a report. A file named like media but holding
    /// something else is kept, with an error saying so, rather than skipped.
    public static func keepAsMedia(_ file: inout FileFacts) -> Bool {
        if file.format != .unknown { return true }
        guard file.formatsByExtension != nil else { return false }
        if file.error == nil {
            file.error = ParseError(.invalidValue, "not a recognised image or movie (the content does not match .\(file.fileExtension))", offset: 0)
        }
        return true
    }

    /// Reads files on `jobs` threads; results keep the input order. `stamps` (a stamping walk's,
    /// taken before any file is read) stand for the stamps the store is asked with.
    public static func inspect(_ paths: [String], options: InspectOptions, jobs: Int, progress: (@Sendable (Int, Int) -> Void)?,
                               store: (any FactsStore)? = nil, stamps: [FileStamp?]? = nil) -> [FileFacts] {
        store?.load()
        let results = ResultBox(count: paths.count)
        let workers = max(1, min(jobs, paths.count))
        Parallel.workers(workers) { _ in
            while let index = results.claim() {
                let facts = read(paths[index], options: options, store: store, stamp: stamps?[index])
                let done = results.store(facts, at: index)
                progress?(done, paths.count)
            }
        }
        return results.values()
    }

    /// One file's facts: from the store when its stamp (`stamp` when given: taken before, by the
    /// walk) is unchanged (no byte of it is read), else read, and kept when the file did not
    /// change from that stamp to the end of the read.
    static func read(_ path: String, options: InspectOptions, store: (any FactsStore)?, stamp: FileStamp?? = nil) -> FileFacts {
        guard let store, let before = stamp ?? FileStamp.of(path) else {
            return FileFacts(MediaFile.inspect(path: path, options: options))
        }
        if var cached = store.facts(for: path, stamp: before) {
            cached.bytesRead = 0
            return cached
        }
        let facts = FileFacts(MediaFile.inspect(path: path, options: options))
        if FileStamp.of(path) == before { store.remember(facts, stamp: before) }
        return facts
    }

    /// EXIF thumbnails for the stills of `items` (the cards an HTML page shows, not the whole
    /// library): from the store when it knows the file's, else read from the file (and kept in
    /// the store when the file did not change meanwhile). The bytes read are added to the
    /// still's. Thumbnails are read after the check so that a large library's report does not
    /// hold one per still.
    public static func addThumbnails(_ report: inout CheckReport, items: [Int], jobs: Int, store: (any FactsStore)?) {
        let wanted = items.compactMap { index -> (index: Int, path: String)? in
            guard report.items.indices.contains(index), let still = report.items[index].still, still.thumbnail == nil, still.error == nil else { return nil }
            return (index, still.path)
        }
        let options = InspectOptions(standardExif: false, allTimedSamples: false, thumbnail: true, boxTree: false, decodePlists: false, chunkTables: false, allItems: false)
        let results = Parallel.map(wanted.map(\.path), jobs: jobs) { path -> (thumbnail: [UInt8]?, bytesRead: Int64) in
            let before = FileStamp.of(path)
            if let store, let before, let known = store.thumbnail(for: path, stamp: before) { return (known, 0) }
            let file = MediaFile.inspect(path: path, options: options)
            let thumbnail = file.error == nil ? file.still?.thumbnail : nil
            if let store, let before, FileStamp.of(path) == before, file.error == nil { store.remember(thumbnail: thumbnail, for: path, stamp: before) }
            return (thumbnail, file.stats.bytesRead)
        }
        for (slot, entry) in wanted.enumerated() {
            report.items[entry.index].still?.thumbnail = results[slot].thumbnail
            report.items[entry.index].still?.bytesRead += results[slot].bytesRead
        }
    }

    /// Work distribution and results behind a lock.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        /// Every slot is filled before `values()` is called; the placeholders (no heap parts)
        /// spare the copy that unwrapping optionals would make of a million files' facts.
        private var slots: [FileFacts]
        private var next = 0
        private var done = 0

        init(count: Int) { slots = Array(repeating: FileFacts(path: "", format: .unknown, kind: .unknown), count: count) }

        func claim() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ facts: FileFacts, at index: Int) -> Int {
            lock.lock()
            defer { lock.unlock() }
            slots[index] = facts
            done += 1
            return done
        }

        /// The facts, moved out (the box is empty afterwards).
        func values() -> [FileFacts] {
            lock.lock()
            defer { lock.unlock() }
            let values = slots
            slots = []
            return values
        }
    }
}
