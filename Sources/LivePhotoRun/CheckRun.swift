import LivePhotoFormats
import Foundation
import LivePhotoCache
import LivePhotoCheck
import LivePhotoObjectStore
import LivePhotoRecords
import LivePhotoReports

/// One `lpcheck check`: discover or read records, replay a kept run or scan, report, thumbnails,
/// outputs, and the exit status. The command fills it from its arguments and calls `run`.
public struct CheckRun {
    public var paths: [String] = []
    /// A file of more paths to check, one a line (`-` for standard input).
    public var filesFrom: String?
    /// `lpcheck scan` record files (`-` for standard input) instead of paths.
    public var facts: [String] = []
    public var stripPrefix: String?
    public var prefix = ""
    /// Nil: chosen by the records' size (`boundedAbove`).
    public var boundedMemory: Bool?
    /// The reporters, each with its output file, or nil for standard output (one at most).
    public var reports: [(reporter: any CheckReporter.Type, path: String?)] = []
    public var settings: RunSettings
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Files read at once, when given (`--jobs`); else `jobs`, or `ObjectStoreOptions.defaultJobs`
    /// when objects are read.
    public var readJobs: Int?
    public var verbose = false
    public var quiet = false
    public var stats = false
    public var cache: String?
    public var options = ReportOptions()
    public var thumbnails = false
    /// `--previews`: the cards' movies made playable beside the HTML report (`ReportPreviews`).
    public var previews = false
    /// `--verify-credentials`: every file's C2PA store read and its binding recomputed; the
    /// facts cache is left unused (its facts say where stores are, not whether they bind).
    public var verifyCredentials = false
    /// Progress (done, total) and its end, when a progress bar is shown.
    public var progress: (@Sendable (Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?
    /// Whether standard output is a terminal, and whether the summary is in color.
    public var outputIsTerminal = false
    public var summaryColor = false
    /// The command line (its arguments) and this executable, part of what a kept run depends on.
    public var arguments: [String] = []
    public var executablePath: String?

    /// Record files larger than this together are checked in bounded memory.
    public static let boundedAbove: Int64 = 128 << 20

    public init(settings: RunSettings) { self.settings = settings }

    var io: RunIO { settings.io }
    /// Whether a report is a page (HTML): it ranks every item, and is always made anew.
    var writesPage: Bool { reports.contains { $0.reporter.isPage } }
    var files: [String] { reports.compactMap(\.path) }

    /// Runs the check and writes its outputs; throws `RunFailure` with status 1 (findings at or
    /// above the gate) or 2.
    public func run() throws {
        // Previews go beside a page written to a file; asked without one, nothing is read.
        if previews && !reports.contains(where: { $0.reporter.isPage && $0.path != nil }) {
            io.error("lpcheck: --previews makes movies beside an HTML report written to a file: add --format html -o REPORT.html")
            throw RunFailure(status: 2)
        }
        // A report that cannot be written is said before the library is read, not after.
        for path in files {
            if let reason = ReportOutput.unwritable(path) {
                io.error("lpcheck: cannot write \(path.terminalSafe): \(reason.terminalSafe); nothing was checked")
                throw RunFailure(status: 2)
            }
        }
        var checker = try settings.checker(paths)
        checker.jobs = jobs
        ParallelPieces.jobs = jobs
        checker.progress = progress
        checker.verifyCredentials = verifyCredentials
        let started = Date()
        var store: FactsCache?
        if let cache, !verifyCredentials {
            let opened = FactsCache.open(cache, version: settings.version)
            for note in opened.notes { io.error("lpcheck: \(note)") }
            store = opened.cache
            checker.store = store
        }
        guard var made = try makeReport(checker, store: store, started: started) else { return }
        finishProgress?()
        // The cards of an HTML page get their stills' EXIF thumbnails now, not every still during
        // the check; records (--facts) stand for files that need not be here, so not for them.
        let shown = Array(Set(reports.flatMap { $0.reporter.shownItems(made.report, options: options) })).sorted()
        if facts.isEmpty && !shown.isEmpty {
            Checker.addThumbnails(&made.report, items: shown, jobs: jobs, store: store)
            for note in store?.save() ?? [] { io.error("lpcheck: \(note)") }
        }
        let report = made.report
        if stats {
            let repeated = made.bounded?.repeatedRecords ?? made.repeatedRecords
            printStats(files: report.fileCount, pairs: report.count(.pair), bytesRead: report.bytesRead, started: started, store: store,
                       more: (made.bounded == nil ? "" : ", checked in bounded memory (records read again as the report is written)")
                           + (repeated > 0 ? ", \(Plural.count(repeated, "record")) repeating an earlier record of the same path byte for byte kept once" : "")
                           + (made.objects.map { objects in
                               let counted = objects.client.counters
                               return ", \(Plural.count(counted.lists, "listing page")), \(Plural.count(counted.gets, "ranged GET")), \(counted.bodyBytes) bytes received, \(Plural.count(counted.retries, "request")) tried again"
                           } ?? ""))
        }
        if (thumbnails || previews) && !shown.isEmpty { StillThumbnails.add(&made.report, items: shown, jobs: jobs, missing: thumbnails, io: io) }
        if previews, !shown.isEmpty, let page = reports.first(where: { $0.reporter.isPage && $0.path != nil })?.path {
            try ReportPreviews.add(&made.report, items: shown, page: page, jobs: jobs, io: io)
        }
        try finish(made, checker: checker, store: store)
    }

    /// What a run made before its outputs: the report, the bounded source of one from records,
    /// repeated records, and the inputs a cached run is kept under (nil when it is not kept).
    struct Made {
        var report: CheckReport
        var bounded: BoundedFactsCheck.Source?
        var repeatedRecords = 0
        var inputs: [UInt8]?
        var walkedFiles = 0
        /// The object store's client, when objects were read (its requests for `--stats`).
        var objects: S3Files?
    }

    /// The report from the files (or a kept run's outputs written again, then nil) or the records.
    func makeReport(_ checker: Checker, store: FactsCache?, started: Date) throws -> Made? {
        guard facts.isEmpty else { return try recordsReport(checker) }
        var checker = checker
        if paths.contains(StandardInput.path) {
            // `-`: one file, on standard input, checked alone (read once, never cached).
            guard paths == [StandardInput.path], filesFrom == nil, store == nil else {
                io.error("lpcheck: - (standard input) is one file checked alone: give no other path, --files-from or --cache with it")
                throw RunFailure(status: 2)
            }
            checker.remote = StandardInputFile(bytes: try StandardInput.bytes(io: io))
            var scanned = checker.scan(Discovery.Result(files: [StandardInput.path]))
            return Made(report: checker.report(&scanned), walkedFiles: 1)
        }
        let listed = try filesFrom.map { try ScanRun.listedPaths($0, io: io) } ?? []
        let objects = try settings.objectStore(for: paths + listed)
        checker.remote = objects.map(S3RemoteFiles.init)
        checker.readJobs = readJobs ?? (objects == nil ? nil : ObjectStoreOptions.defaultJobs)
        let discovery = try settings.find(paths, listed: listed, discovery: Discovery(exclude: checker.configuration.exclude, include: checker.configuration.include, stamping: store != nil, jobs: jobs),
                                          objects: objects)
        // A check of folders with a cache: the inputs its outputs depend on, when they may be
        // written again from the cache or kept there (`replayable`; not for listed paths or
        // objects, which the second walk that proves a kept run does not see).
        var inputs: [UInt8]?
        if let store, replayable, listed.isEmpty, objects == nil, let settings = runSettings() {
            inputs = RunInputs.bytes(settings: settings, discovery: discovery)
            if let inputs, let run = try replay(inputs, store: store, walked: discovery.files.count, started: started) {
                store.close()
                KeptAtExit.store = store
                if run.status == 2 { io.error("lpcheck: nothing readable in \(paths.joined(separator: ", "))") }
                if run.status != 0 { throw RunFailure(status: Int32(run.status)) }
                return nil
            }
        }
        var scanned = checker.scan(discovery)
        let report = checker.report(&scanned)
        // Rows of files no longer below a root go, for the roots that were walked whole: not
        // a root that is missing or empty, nor one with a folder the walk could not read
        // (an unmounted share must not empty the cache).
        let problems = report.discoveryProblems.map(\.path)
        let walked = paths.filter { root in
            !root.isEmpty && FileManager.default.fileExists(atPath: root)
                && !problems.contains { $0 == root || $0.hasPrefix(root.hasSuffix("/") ? root : root + "/") }
        }
        for note in store?.save(pruningUnder: walked) ?? [] { io.error("lpcheck: \(note)") }
        return Made(report: report, inputs: inputs, walkedFiles: discovery.files.count, objects: objects)
    }

    /// The report from `lpcheck scan` records, in bounded memory when asked or when they are large.
    func recordsReport(_ checker: Checker) throws -> Made {
        var checker = checker
        do {
            if boundedMemory ?? (!facts.contains("-") && !writesPage && facts.allSatisfy { FileStamp.of($0) != nil }
                                 && facts.reduce(Int64(0)) { $0 + (FileStamp.of($1)?.size ?? 0) } > Self.boundedAbove) {
                let (report, bounded) = try BoundedFactsCheck.report(facts, stripPrefix: stripPrefix, prefix: prefix, checker: checker)
                return Made(report: report, bounded: bounded)
            }
            var scanned = try FactsRecords.read(facts, stripPrefix: stripPrefix, prefix: prefix)
            checker.roots = scanned.roots
            return Made(report: checker.report(&scanned), repeatedRecords: scanned.repeatedRecords)
        } catch {
            io.error("lpcheck: \(error)")
            throw RunFailure(status: 2)
        }
    }

    /// The outputs, the kept run, and the exit status.
    func finish(_ made: Made, checker: Checker, store: FactsCache?) throws {
        let report = made.report
        let readable = report.inputFailure == nil
        // Kept for the next run on the same inputs when this one read no file (a run that read
        // some would say bytes read that a replay does not read) and no file changed meanwhile.
        var inputs = made.inputs
        if let kept = inputs {
            let walkedAgain = { runSettings().flatMap { RunInputs.bytes(settings: $0, discovery: Discovery(exclude: checker.configuration.exclude, include: checker.configuration.include, stamping: true, jobs: jobs).find(paths)) } }
            if report.bytesRead != 0 || store?.hits != made.walkedFiles || walkedAgain() != kept { inputs = nil }
        }
        var recorder: FactsCache.RunRecorder?
        if inputs != nil, let store {
            do {
                recorder = try store.recordRun()
            } catch {
                io.error("lpcheck: cache \(store.path): this run's outputs were not kept (\(error))")
            }
        }
        let summary = try writeOutputs(report, recorder: recorder)
        if let failure = report.items.readFailure {
            io.error("lpcheck: \(failure): the report may not match the records")
            throw RunFailure(status: 2)
        }
        if let inputs, let recorder {
            recorder.append(summary, to: reports.count)
            let run = StoredRun(outputs: reports.count + 1, files: report.fileCount, pairs: report.count(.pair), status: !readable ? 2 : report.passed ? 0 : 1)
            for note in recorder.finish(run, inputs: inputs) { io.error("lpcheck: \(note)") }
        }
        KeptAtExit.report = report
        store?.close()
        KeptAtExit.store = store
        if !readable {
            if report.discoveryProblems.isEmpty { io.error("lpcheck: nothing readable in \((paths + facts).joined(separator: ", "))") }
            // The text summary names them; where no summary was shown, standard error does.
            if summary.isEmpty { for problem in report.discoveryProblems { io.error("lpcheck: could not open \(problem.path.terminalSafe): \(problem.reason)") } }
            throw RunFailure(status: 2)
        }
        if !report.passed { throw RunFailure(status: 1) }
    }

    /// Every report, to its file or standard output (each piece kept by `recorder` too), then the
    /// terminal summary unless a report went to standard output or `quiet`; returns the summary.
    func writeOutputs(_ report: CheckReport, recorder: FactsCache.RunRecorder?) throws -> String {
        func emit(_ index: Int, _ reporter: any CheckReporter.Type, _ sink: (String) -> Void) {
            reporter.write(report, options: options) { piece in
                recorder?.append(piece, to: index)
                sink(piece)
            }
        }
        var stdoutUsed = false
        for (index, entry) in reports.enumerated() {
            if let path = entry.path {
                do {
                    try ReportOutput.write(to: path) { emit(index, entry.reporter, $0) }
                } catch {
                    io.error("lpcheck: cannot write \(path): \(error.localizedDescription)")
                    throw RunFailure(status: 2)
                }
            } else {
                emit(index, entry.reporter, io.output)
                stdoutUsed = true
            }
        }
        guard !quiet && !stdoutUsed else { return "" }
        let summary = CheckText.render(report, color: summaryColor, verbose: verbose, showInfo: report.failOn == .info)
        io.output(summary)
        return summary
    }

    /// Whether this run's outputs may be written again from the cache, or kept there: not with
    /// `--thumbnails` (the codec helper is not among the inputs), not for an HTML report, and not when
    /// anything goes to a terminal. Stored bytes are written as they are, so neither a page a
    /// browser runs nor text a terminal interprets comes from them: those are always made anew,
    /// with their escaping.
    var replayable: Bool {
        guard !thumbnails, !previews, !writesPage else { return false }
        let writesToStandardOutput = reports.contains { $0.path == nil } || !quiet
        return !(writesToStandardOutput && outputIsTerminal)
    }

    /// The settings a check's outputs depend on besides the files (see `RunInputs`): this
    /// executable (by its stamp: a rebuilt lpcheck may report otherwise), its arguments, the
    /// working folder (relative paths), the configuration and baseline files (by stamp), and
    /// the summary's color. Nil when one of them cannot be known: the run is then neither
    /// replayed nor kept.
    func runSettings() -> [String]? {
        func stamp(_ path: String) -> String? {
            FileStamp.of(path).map { "\($0.device) \($0.inode) \($0.size) \($0.modified) \($0.changed)" }
        }
        guard let executable = executablePath.flatMap(stamp) else { return nil }
        var values = ["build \(FactsCache.format); lpcheck \(settings.version)", "executable \(executable)",
                      "folder \(FileManager.default.currentDirectoryPath)", "color \(summaryColor)"]
        // Every argument but the two flags that change no output (before a `--`, after which
        // all are paths).
        let end = arguments.firstIndex(of: "--") ?? arguments.count
        values += arguments.enumerated().filter { $0.offset >= end || !["--stats", "--no-progress"].contains($0.element) }.map { "argument \($0.element)" }
        let configuration = settings.config ?? (FileManager.default.fileExists(atPath: Configuration.fileName) ? Configuration.fileName : nil)
        for (name, path) in [("configuration", configuration), ("baseline", settings.baseline)] {
            guard let path else { continue }
            guard let known = stamp(path) else { return nil }
            values.append("\(name) \(path) \(known)")
        }
        return values
    }

    /// Writes the outputs of the stored run on the same inputs as this one, if there is one (the
    /// reports, the terminal summary, the statistics), and returns it.
    func replay(_ inputs: [UInt8], store: FactsCache, walked: Int, started: Date) throws -> StoredRun? {
        var handles: [FileHandle] = []
        defer { for handle in handles { try? handle.close() } }
        var writing = -1
        let paths = files
        do {
            return try store.replay(inputs: inputs, accept: { run in
                guard run.outputs == reports.count + 1 else { return false }
                if stats {
                    printStats(files: run.files, pairs: run.pairs, bytesRead: 0, started: started, store: nil,
                               more: ", \(walked) files from the cache, 0 cache rows of files the walk no longer finds removed (the same files and settings as the run that kept these outputs: its outputs again)")
                }
                // Every report file is made (emptied) first, an empty one included.
                for path in paths {
                    writing = handles.count
                    handles.append(try ReportOutput.open(path))
                }
                return true
            }, write: { index, bytes in
                writing = index
                if index < handles.count {
                    try handles[index].write(contentsOf: bytes)
                } else {
                    try FileHandle.standardOutput.write(contentsOf: bytes)
                }
            })
        } catch let error as FactsCache.Failure {
            io.error("lpcheck: \(error)")
            throw RunFailure(status: 2)
        } catch {
            io.error("lpcheck: cannot write \(writing < paths.count && writing >= 0 ? paths[writing] : "the standard output"): \(error.localizedDescription)")
            throw RunFailure(status: 2)
        }
    }

    /// The `--stats` line.
    func printStats(files: Int, pairs: Int, bytesRead: Int64, started: Date, store: FactsCache?, more: String) {
        let seconds = Date().timeIntervalSince(started)
        io.error("stats: \(files) files (\(pairs) pairs) in \(String(format: "%.3f", seconds)) s, \(bytesRead) bytes read"
                 + (pairs > 0 ? String(format: ", %.0f bytes per file", Double(bytesRead) / Double(max(files, 1))) : "")
                 + (store.map { ", \($0.hits) files from the cache, \($0.pruned) cache rows of files the walk no longer finds removed" } ?? "")
                 + more)
    }
}
