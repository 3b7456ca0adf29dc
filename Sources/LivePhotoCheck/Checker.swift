import Foundation
import LivePhotoFormats

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
    /// The rules to run (before the configuration's severities): the registry's.
    public var rules: [any Rule.Type] = RuleRegistry.all
    /// Where `s3://` paths are read (nil: every path is a local file).
    public var remote: (any RemoteFiles)?
    /// Files read at once when that differs from `jobs` (reads that wait on the network).
    public var readJobs: Int?

    public init(roots: [String]) { self.roots = roots }

    public func run() -> CheckReport {
        var scanned = scan(Discovery(exclude: configuration.exclude, include: configuration.include).find(roots))
        return report(&scanned)
    }

    /// Reads every file discovery found (the facts `lpcheck scan` records).
    public func scan(_ discovery: Discovery.Result) -> ScanResult {
        let files = Self.inspect(discovery.files, options: inspectOptions, jobs: readJobs ?? jobs, progress: progress, store: store,
                                 stamps: discovery.stamps.count == discovery.files.count ? discovery.stamps : nil, remote: remote)
        return ScanResult(roots: roots, files: Self.expandingArchives(files, options: inspectOptions, remote: remote), hidden: discovery.hidden, problems: discovery.problems)
    }

    /// Every `.livp` followed by its members, each stored member read in place through a window
    /// of the archive (local, or an object through `remote`) as a file of its own
    /// (`ARCHIVE:MEMBER`, `archive` set), so that they pair, are checked and reported as loose
    /// files are. What cannot be read (an archive the zip reader refuses, a compressed or
    /// encrypted member, a read that failed) is the archive's error, with the offset.
    public static func expandingArchives(_ files: [FileFacts], options: InspectOptions, remote: (any RemoteFiles)?) -> [FileFacts] {
        guard files.contains(where: { $0.format == .zip }) else { return files }
        var expanded: [FileFacts] = []
        expanded.reserveCapacity(files.count + 2)
        for var facts in files {
            guard facts.format == .zip, facts.error == nil else {
                expanded.append(facts)
                continue
            }
            do {
                let source: ByteSource = if let remote, remote.holds(facts.path) { try remote.source(facts.path) } else { try FileSource(path: facts.path) }
                let archive = try ZipArchive(source: source, path: facts.path)
                var members: [FileFacts] = []
                var unread: [String] = []
                for member in archive.members {
                    guard member.readable else {
                        unread.append("\(member.name) (\(member.encrypted ? "encrypted" : "compressed, method \(member.method)"))")
                        if facts.error == nil {
                            facts.error = ParseError(.unsupported, "", offset: Int64(member.localHeaderOffset))
                        }
                        continue
                    }
                    var read = FileFacts(MediaFile.inspect(source: WindowSource(source, range: member.data), path: facts.path + ":" + member.name, options: options))
                    read.archive = facts.path
                    // No archive is opened inside another (no recursion on file structure).
                    if read.format == .zip {
                        read.error = ParseError(.unsupported, "an archive inside an archive: not read", offset: Int64(member.localHeaderOffset))
                    }
                    members.append(read)
                }
                if !unread.isEmpty {
                    // A .livp's members are stored (iCloud writes them so): nothing here inflates.
                    facts.error?.message = "not read: " + unread.joined(separator: ", ") + "; lpcheck reads a .livp's stored members in place and inflates none"
                }
                expanded.append(facts)
                expanded += members
            } catch let error as ParseError {
                facts.error = error
                expanded.append(facts)
            } catch {
                facts.error = ParseError(.io, "\(error)", offset: 0)
                expanded.append(facts)
            }
        }
        return expanded
    }

    /// Read each file's Content Credentials and recompute their binding (`--verify-credentials`).
    public var verifyCredentials = false

    /// What `check` reads of each file.
    public var inspectOptions: InspectOptions {
        InspectOptions(standardExif: false, allTimedSamples: false, thumbnail: false, boxTree: false, decodePlists: false, chunkTables: false, allItems: false, xmpProperties: false,
                       credentials: verifyCredentials)
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
        let checked = Parallel.map(items, jobs: jobs) { item -> (findings: [Finding], verdicts: Verdicts, reasons: [VerdictReason]) in
            let findings = rules.findings(item)
            let judged = rules.judged(item, findings: findings)
            return (findings, judged.verdicts, judged.reasons)
        }
        for index in items.indices { (items[index].findings, items[index].verdicts, items[index].verdictReasons) = checked[index] }
        return report(roots: scanned.roots, items: CheckItems(items), problems: scanned.problems, leftOut: leftOut)
    }

    /// The report around `items`: the rules that ran, the gate, what was left out.
    public func report(roots: [String], items: CheckItems, problems: [(path: String, reason: String)], leftOut: [LeftOutFile]) -> CheckReport {
        CheckReport(version: version, roots: roots, items: items, rules: ruleRun.descriptions, failOn: configuration.failOn ?? .error,
                    ignoredFiles: leftOut.count, discoveryProblems: problems, leftOut: leftOut.sorted { $0.path < $1.path })
    }

    /// The rules this check runs, at their configured severities, with the baseline.
    public var ruleRun: RuleRun {
        RuleRun(rules: rules, severity: configuration.severity(of:), context: configuration.context, baseline: baseline)
    }

    /// Checks one group of files on its own: pairs them and runs the rules on the items. Gives
    /// what `report` gives for those files when no file outside the group pairs with, shares an
    /// identifier or a name with, or is a sidecar of a file inside it (`check --facts
    /// --bounded-memory` checks a library one such group at a time).
    public func checkedItems(_ files: inout [FileFacts], leftOut: inout [LeftOutFile], rules: RuleRun,
                             compare: ((FileFacts, FileFacts) -> Bool)?) -> [CheckItem] {
        var items = pairedItems(&files, leftOut: &leftOut, compare: compare)
        for index in items.indices { rules.check(&items[index]) }
        return items
    }

    /// Pairs the files; sidecars go to their items, the other files that are not media to `leftOut`.
    public func pairedItems(_ facts: inout [FileFacts], leftOut: inout [LeftOutFile], compare: ((FileFacts, FileFacts) -> Bool)?) -> [CheckItem] {
        // Files in object storage are compared there (and a local file with an object through
        // both readers).
        var compare = compare
        if let remote, let local = compare {
            compare = { a, b in remote.holds(a.path) || remote.holds(b.path) ? remote.identical(a.path, b.path) : local(a, b) }
        }
        var kept = 0
        var sidecars: [FileFacts] = []
        for index in facts.indices {
            // A .livp read whole: its members are the files; the archive itself is no item.
            if facts[index].format == .zip && facts[index].error == nil && facts[index].archive == nil {
                leftOut.append(LeftOutFile(path: facts[index].path, reason: "a zip archive (.livp): its stored members are checked in place, as ARCHIVE:MEMBER"))
                continue
            }
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
        // Files are read only where copies are compared (records checked without their files are not).
        if compare != nil {
            let remote = remote
            Pairing.relateEmbeddedMovies(&items) { movie, range, container in
                if let remote, remote.holds(movie.path) || remote.holds(container.path) { return remote.identical(movie.path, to: range, of: container.path) }
                return FileComparison.identical(movie.path, to: range, of: container.path)
            }
        }
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
                               store: (any FactsStore)? = nil, stamps: [FileStamp?]? = nil, remote: (any RemoteFiles)? = nil) -> [FileFacts] {
        store?.load()
        let results = ResultBox(count: paths.count)
        let workers = max(1, min(jobs, paths.count))
        let work: @Sendable (Int) -> Void = { _ in
            while let index = results.claim() {
                let facts = read(paths[index], options: options, store: store, stamp: stamps?[index], remote: remote)
                let done = results.store(facts, at: index)
                progress?(done, paths.count)
            }
        }
        // Reads that wait on the network get a thread each; local reads the cores.
        if remote != nil && workers > 1 { Parallel.threads(workers, work) } else { Parallel.workers(workers, work) }
        return results.values()
    }

    /// One file's facts: from the store when its stamp (`stamp` when given: taken before, by the
    /// walk) is unchanged (no byte of it is read), else read, and kept when the file did not
    /// change from that stamp to the end of the read and no read failed.
    static func read(_ path: String, options: InspectOptions, store: (any FactsStore)?, stamp: FileStamp?? = nil, remote: (any RemoteFiles)? = nil) -> FileFacts {
        if let remote, remote.holds(path) { return readRemote(path, options: options, store: store, stamp: stamp ?? nil, remote: remote) }
        guard let store, let before = stamp ?? FileStamp.of(path) else {
            return FileFacts(MediaFile.inspect(path: path, options: options))
        }
        if var cached = store.facts(for: path, stamp: before) {
            cached.bytesRead = 0
            return cached
        }
        let facts = FileFacts(MediaFile.inspect(path: path, options: options))
        // A read that failed (I/O) says nothing of the file's bytes: it is not kept.
        if facts.error?.code != .io, FileStamp.of(path) == before { store.remember(facts, stamp: before) }
        return facts
    }

    /// A remote file's facts: from the store when the listing's stamp (ETag, size, time) is
    /// known there, else read; kept when the reading did not fail on the way (the reads carry
    /// the listed ETag, so what was read is the object listed).
    static func readRemote(_ path: String, options: InspectOptions, store: (any FactsStore)?, stamp: FileStamp?, remote: any RemoteFiles) -> FileFacts {
        if let store, let stamp, var cached = store.facts(for: path, stamp: stamp) {
            cached.bytesRead = 0
            return cached
        }
        let facts = FileFacts(remote.inspect(path, options: options))
        if let store, let stamp, facts.error?.code != .io { store.remember(facts, stamp: stamp) }
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
    final class ResultBox: Sendable {
        struct State {
            /// Every slot is filled before `values()` is called; the placeholders (no heap parts)
            /// spare the copy that unwrapping optionals would make of a million files' facts.
            var slots: [FileFacts]
            var next = 0
            var done = 0
        }
        private let state: Locked<State>

        init(count: Int) { state = Locked(State(slots: Array(repeating: FileFacts(path: "", format: .unknown, kind: .unknown), count: count))) }

        func claim() -> Int? {
            state.withLock { state in
                guard state.next < state.slots.count else { return nil }
                state.next += 1
                return state.next - 1
            }
        }

        func store(_ facts: FileFacts, at index: Int) -> Int {
            state.withLock { state in
                state.slots[index] = facts
                state.done += 1
                return state.done
            }
        }

        /// The facts, moved out (the box is empty afterwards).
        func values() -> [FileFacts] {
            state.withLock { state in
                defer { state.slots = [] }
                return state.slots
            }
        }
    }
}
