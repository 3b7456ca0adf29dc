import ArgumentParser
import Foundation
import LivePhotoCache
import LivePhotoCheck
import LivePhotoRecords
import LivePhotoReports
import LivePhotoThumbnails

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Find every still and movie below the given folders, pair them, check them, report.",
        discussion: """
        Pairs by content identifier first (files sharing one are grouped: same folder and name, \
        then names without export marks such as " (1)", "-edited", "IMG_E", "_HEVC", then the \
        closest folder), then by folder and file name. Every file lands in one item: pair, \
        still-only, movie-only, motion-photo, not-live-photo, unreadable, duplicate (a hard link \
        or byte copy) or variant (another rendition of a Live Photo). Sidecars (.AAE, .xmp, \
        Takeout .json) go with their item; other files are left out (--verbose lists them). \
        Info findings are listed with --verbose or --fail-on info. `lpcheck rules` lists the rules.

        Reports: --format text|json|plist|html|junit|sarif, each with an --output FILE in the same \
        order (several in one run; one format may go to standard output). The terminal summary is \
        printed unless a report goes to standard output or --quiet is given.

        Facts: --facts FILE... checks the records of `lpcheck scan` (one scan or many shards) \
        instead of reading files, and reports what check reports on those files; --strip-prefix \
        and --prefix map the paths of shards scanned elsewhere. Record files above 128 MiB are \
        checked in bounded memory (--bounded-memory, --no-bounded-memory): the same report, \
        records read again as it is written.

        Configuration: .lpcheck.yml in the current folder (or --config FILE) enables, disables and \
        re-grades rules, excludes paths and sets failOn; see README.

        Exit status: 0 no finding at or above --fail-on, 1 findings at or above it, 2 bad usage, \
        a bad configuration, or nothing readable.
        """
    )

    /// A `--format` value: one of `CheckReporters.all`.
    struct ReportFormat: ExpressibleByArgument {
        let reporter: any CheckReporter.Type
        init?(argument: String) {
            guard let reporter = CheckReporters.named(argument) else { return nil }
            self.reporter = reporter
        }
        static var allValueStrings: [String] { CheckReporters.identifiers }
        var isHTML: Bool { reporter.identifier == CheckHTML.identifier }
    }

    @Argument(help: "Folders and files to check.")
    var paths: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Check the records of lpcheck scan (one or more files; - for standard input) instead of reading files.", valueName: "file"))
    var facts: [String] = []

    @Option(help: "With --facts: paths starting with this prefix get --prefix instead (shards from other machines or mounts).")
    var stripPrefix: String?

    @Option(help: "With --facts and --strip-prefix: the prefix put in its place.")
    var prefix: String = ""

    @Flag(inversion: .prefixedNo, help: "With --facts: keep only where each record is and what relates it to others, and read records again as the report is written (150 MB at a million files instead of 960 MB, in about twice the time). Chosen by itself when the record files pass 128 MiB, unless one is standard input or another pipe, or an HTML report is asked for.")
    var boundedMemory: Bool?

    /// Record files larger than this together are checked in bounded memory.
    static let boundedAbove: Int64 = 128 << 20

    @Option(name: .shortAndLong, help: ArgumentHelp("Report format (repeatable).", valueName: "format"))
    var format: [ReportFormat] = []

    @Option(name: .shortAndLong, help: "Report file for the --format at the same position (repeatable).")
    var output: [String] = []

    @OptionGroup var settings: ConfigurationOptions

    @Option(help: "Files read at once, and threads that run the rules and render report items (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "List every item, info findings and left-out files in the terminal summary.")
    var verbose = false

    @Flag(help: "No terminal summary.")
    var quiet = false

    @Flag(help: "No progress bar.")
    var noProgress = false

    @Flag(help: "Print the bytes read and the time taken to standard error.")
    var stats = false

    @Option(help: ArgumentHelp("Keep each file's facts in this SQLite file; later runs read only new or changed files (rows of files no longer found in the checked folders are removed). A run that read no file keeps its outputs, and the next run with the same arguments, settings and file stamps writes them again.", valueName: "file"))
    var cache: String?

    @Option(help: "Item cards in an HTML report at most (the worst first; a note counts the rest; 0 for no limit).")
    var htmlLimit: Int = CheckHTML.defaultLimit

    @Flag(help: "With an HTML report: the HEIC stills of the cards shown that have no EXIF thumbnail get one decoded by libheif (loaded at run time).")
    var thumbnails = false

    func validate() throws {
        guard paths.isEmpty != facts.isEmpty else { throw ValidationError("give folders or files to check, or --facts FILE (not both)") }
        guard stripPrefix == nil || !facts.isEmpty else { throw ValidationError("--strip-prefix goes with --facts") }
        guard boundedMemory == nil || !facts.isEmpty else { throw ValidationError("--bounded-memory goes with --facts") }
        guard boundedMemory != true || !facts.contains("-") else { throw ValidationError("--bounded-memory reads the record files twice: standard input cannot be one") }
        guard boundedMemory != true || !format.contains(where: { $0.isHTML }) else {
            throw ValidationError("--bounded-memory does not go with an HTML report (the page ranks every item; use --html-limit on a smaller selection)")
        }
        guard output.count <= format.count else { throw ValidationError("--output given without a --format for it") }
        guard format.count - output.count <= 1 else { throw ValidationError("only one --format may go to standard output: give an --output for the others") }
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
        guard htmlLimit >= 0 else { throw ValidationError("--html-limit must be 0 (no limit) or more") }
    }

    func run() throws {
        var checker = try settings.checker(paths)
        checker.version = LPCheck.configuration.version
        checker.jobs = jobs
        ParallelPieces.jobs = jobs
        let showProgress = !noProgress && isatty(2) == 1
        if showProgress { checker.progress = ProgressBar.update }
        let started = Date()
        var store: FactsCache?
        if let cache {
            let opened = FactsCache.open(cache, version: LPCheck.configuration.version)
            for note in opened.notes { printError("lpcheck: \(note)") }
            store = opened.cache
            checker.store = store
        }
        var report: CheckReport
        var bounded: BoundedFactsCheck.Source?
        var repeatedRecords = 0
        // A check of folders with a cache: the inputs its outputs depend on, when they may be
        // written again from the cache or kept there (`replayable`).
        var inputs: [UInt8]?
        var discovery = Discovery.Result()
        if facts.isEmpty {
            discovery = Discovery(exclude: checker.configuration.exclude, stamping: store != nil, jobs: jobs).find(paths)
            if let store, replayable, let settings = runSettings() {
                inputs = RunInputs.bytes(settings: settings, discovery: discovery)
                if let inputs, let run = try replay(inputs, store: store, walked: discovery.files.count, started: started) {
                    store.close()
                    KeptAtExit.store = store
                    if run.status == 2 { printError("lpcheck: nothing readable in \(paths.joined(separator: ", "))") }
                    if run.status != 0 { throw ExitCode(Int32(run.status)) }
                    return
                }
            }
            var scanned = checker.scan(discovery)
            report = checker.report(&scanned)
            // Rows of files no longer below a root go, for the roots that were walked whole: not
            // a root that is missing or empty, nor one with a folder the walk could not read
            // (an unmounted share must not empty the cache).
            let problems = report.discoveryProblems.map(\.path)
            let walked = paths.filter { root in
                !root.isEmpty && FileManager.default.fileExists(atPath: root)
                    && !problems.contains { $0 == root || $0.hasPrefix(root.hasSuffix("/") ? root : root + "/") }
            }
            for note in store?.save(pruningUnder: walked) ?? [] { printError("lpcheck: \(note)") }
        } else if boundedMemory ?? (!facts.contains("-") && !format.contains(where: { $0.isHTML }) && facts.allSatisfy { FileStamp.of($0) != nil }
                                     && facts.reduce(Int64(0)) { $0 + (FileStamp.of($1)?.size ?? 0) } > Self.boundedAbove) {
            do {
                (report, bounded) = try BoundedFactsCheck.report(facts, stripPrefix: stripPrefix, prefix: prefix, checker: checker)
            } catch {
                printError("lpcheck: \(error)")
                throw ExitCode(2)
            }
        } else {
            var scanned: ScanResult
            do {
                scanned = try FactsRecords.read(facts, stripPrefix: stripPrefix, prefix: prefix)
            } catch {
                printError("lpcheck: \(error)")
                throw ExitCode(2)
            }
            checker.roots = scanned.roots
            repeatedRecords = scanned.repeatedRecords
            report = checker.report(&scanned)
        }
        if showProgress { ProgressBar.finish() }
        // The cards of an HTML page get their stills' EXIF thumbnails now, not every still during
        // the check; records (--facts) stand for files that need not be here, so not for them.
        let shown = format.contains(where: { $0.isHTML }) ? CheckHTML.shownItems(report, limit: htmlLimit) : []
        if facts.isEmpty && !shown.isEmpty {
            Checker.addThumbnails(&report, items: shown, jobs: jobs, store: store)
            for note in store?.save() ?? [] { printError("lpcheck: \(note)") }
        }
        if stats {
            let repeated = bounded?.repeatedRecords ?? repeatedRecords
            printStats(files: report.fileCount, pairs: report.count(.pair), bytesRead: report.bytesRead, started: started, store: store,
                       more: (bounded == nil ? "" : ", checked in bounded memory (records read again as the report is written)")
                           + (repeated > 0 ? ", \(repeated) record(s) repeating an earlier record of the same path byte for byte kept once" : ""))
        }

        if thumbnails && !shown.isEmpty { Self.addHEIFThumbnails(&report, items: shown) }
        let readable = report.count(.unreadable) < report.items.count
        // Kept for the next run on the same inputs when this one read no file (a run that read
        // some would say bytes read that a replay does not read) and no file changed meanwhile.
        if let kept = inputs {
            let walkedAgain = { runSettings().flatMap { RunInputs.bytes(settings: $0, discovery: Discovery(exclude: checker.configuration.exclude, stamping: true, jobs: jobs).find(paths)) } }
            if report.bytesRead != 0 || store?.hits != discovery.files.count || walkedAgain() != kept { inputs = nil }
        }
        var recorder: FactsCache.RunRecorder?
        if inputs != nil, let store {
            do {
                recorder = try store.recordRun()
            } catch {
                printError("lpcheck: cache \(store.path): this run's outputs were not kept (\(error))")
            }
        }
        // HTML takes --html-limit; every other format is the reporter's own.
        func emit(_ index: Int, _ kind: ReportFormat, _ sink: (String) -> Void) {
            func piece(_ text: String) {
                recorder?.append(text, to: index)
                sink(text)
            }
            if kind.isHTML { piece(CheckHTML.render(report, limit: htmlLimit)) } else { kind.reporter.write(report, to: piece) }
        }
        var stdoutUsed = false
        for (index, kind) in format.enumerated() {
            if index < output.count {
                do {
                    try Self.write(to: output[index]) { emit(index, kind, $0) }
                } catch {
                    printError("lpcheck: cannot write \(output[index]): \(error.localizedDescription)")
                    throw ExitCode(2)
                }
            } else {
                emit(index, kind) { print($0, terminator: "") }
                stdoutUsed = true
            }
        }
        var summary = ""
        if !quiet && !stdoutUsed {
            summary = CheckText.render(report, color: summaryColor, verbose: verbose, showInfo: report.failOn == .info)
            print(summary, terminator: "")
        }
        if let failure = bounded?.failure {
            printError("lpcheck: \(failure): the report may not match the records")
            throw ExitCode(2)
        }
        if let inputs, let recorder {
            recorder.append(summary, to: format.count)
            let run = StoredRun(outputs: format.count + 1, files: report.fileCount, pairs: report.count(.pair), status: !readable ? 2 : report.passed ? 0 : 1)
            for note in recorder.finish(run, inputs: inputs) { printError("lpcheck: \(note)") }
        }
        // The report (every file's facts) is not taken apart object by object on the way out:
        // the process ends next, and freeing a large library's report took 5% of a warm check.
        KeptAtExit.report = report
        // Likewise the cache's loaded rows: the database is closed (its journal folded in),
        // the rows are left to the process's end.
        store?.close()
        KeptAtExit.store = store
        if !readable {
            printError("lpcheck: nothing readable in \((paths + facts).joined(separator: ", "))")
            throw ExitCode(2)
        }
        if !report.passed { throw ExitCode(1) }
    }

    /// Whether this run's outputs may be written again from the cache, or kept there: not with
    /// `--thumbnails` (libheif is not among the inputs), not for an HTML report, and not when
    /// anything goes to a terminal. Stored bytes are written as they are, so neither a page a
    /// browser runs nor text a terminal interprets comes from them: those are always made anew,
    /// with their escaping.
    var replayable: Bool {
        guard !thumbnails, !format.contains(where: { $0.isHTML }) else { return false }
        let writesToStandardOutput = format.count > output.count || !quiet
        return !(writesToStandardOutput && isatty(1) == 1)
    }

    /// Whether the terminal summary is in color.
    var summaryColor: Bool { isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// The settings a check's outputs depend on besides the files (see `RunInputs`): this
    /// executable (by its stamp: a rebuilt lpcheck may report otherwise), its arguments, the
    /// working folder (relative paths), the configuration and baseline files (by stamp), and
    /// the summary's color. Nil when one of them cannot be known: the run is then neither
    /// replayed nor kept.
    func runSettings() -> [String]? {
        func stamp(_ path: String) -> String? {
            FileStamp.of(path).map { "\($0.device) \($0.inode) \($0.size) \($0.modified) \($0.changed)" }
        }
        guard let executable = Bundle.main.executablePath.flatMap(stamp) else { return nil }
        var values = ["build \(FactsCache.format); lpcheck \(LPCheck.configuration.version)", "executable \(executable)",
                        "folder \(FileManager.default.currentDirectoryPath)", "color \(summaryColor)"]
        // Every argument but the two flags that change no output (before a `--`, after which
        // all are paths).
        let arguments = Array(CommandLine.arguments.dropFirst())
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
        do {
            return try store.replay(inputs: inputs, accept: { run in
                guard run.outputs == format.count + 1 else { return false }
                if stats {
                    printStats(files: run.files, pairs: run.pairs, bytesRead: 0, started: started, store: nil,
                               more: ", \(walked) files from the cache, 0 cache rows of files the walk no longer finds removed (the same files and settings as the run that kept these outputs: its outputs again)")
                }
                // Every report file is made (emptied) first, an empty one included.
                for path in output {
                    writing = handles.count
                    handles.append(try Self.openOutput(path))
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
            printError("lpcheck: \(error)")
            throw ExitCode(2)
        } catch {
            printError("lpcheck: cannot write \(writing < output.count && writing >= 0 ? output[writing] : "the standard output"): \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }

    /// The `--stats` line.
    func printStats(files: Int, pairs: Int, bytesRead: Int64, started: Date, store: FactsCache?, more: String) {
        let seconds = Date().timeIntervalSince(started)
        printError("stats: \(files) files (\(pairs) pairs) in \(String(format: "%.3f", seconds)) s, \(bytesRead) bytes read"
                   + (pairs > 0 ? String(format: ", %.0f bytes per file", Double(bytesRead) / Double(max(files, 1))) : "")
                   + (store.map { ", \($0.hits) files from the cache, \($0.pruned) cache rows of files the walk no longer finds removed" } ?? "")
                   + more)
    }

    /// Thumbnails for the HEIC stills of `items` that have none, decoded by libheif on all cores.
    static func addHEIFThumbnails(_ report: inout CheckReport, items: [Int]) {
        let availability = HEIFThumbnail.availability()
        guard availability.available else {
            printError("lpcheck: --thumbnails: \(availability.problem ?? "libheif cannot be used"); HEIC stills have no thumbnail")
            return
        }
        let wanted = items.filter { index in
            guard let still = report.items[index].still else { return false }
            return still.thumbnail == nil && (still.format == .heic || still.format == .heif) && still.error == nil
        }
        let paths = wanted.map { report.items[$0].still?.path ?? "" }
        let results = ThumbnailSlots(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            if case .success(let png) = HEIFThumbnail.png(path: paths[index]) { results.set(index, png) }
        }
        for (slot, index) in wanted.enumerated() { report.items[index].still?.thumbnail = results.value(slot) }
    }

    final class ThumbnailSlots: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [[UInt8]?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: [UInt8]) { lock.lock(); slots[index] = value; lock.unlock() }
        func value(_ index: Int) -> [UInt8]? { lock.lock(); defer { lock.unlock() }; return slots[index] }
    }

    /// Writes a report file as the reporter hands it over (JSON item by item), in 64 KB writes.
    static func write(to path: String, _ produce: ((String) -> Void) -> Void) throws {
        let handle = try openOutput(path)
        defer { try? handle.close() }
        // Pieces are copied into one byte buffer of fixed capacity, written at 64 KiB (a string
        // grown from empty each time was reallocated and copied as it doubled).
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        var failure: Error?
        produce { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 16 {
                if failure == nil {
                    do { try handle.write(contentsOf: buffer) } catch { failure = error }
                }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if let failure { throw failure }
        try handle.write(contentsOf: buffer)
    }

    /// Opens a report file where it is, created or truncated. Never an atomic replace: that
    /// would put a regular file in the place of a symbolic link, a FIFO or `/dev/null` (and, run
    /// as root, really replace the device).
    static func openOutput(_ path: String) throws -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(reason: String(cString: strerror(errno))) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    struct OutputError: LocalizedError {
        let reason: String
        var errorDescription: String? { reason }
    }
}

/// Holds the last report and the cache's loaded rows until the process exits (see `Check.run`).
enum KeptAtExit {
    nonisolated(unsafe) static var report: CheckReport?
    nonisolated(unsafe) static var store: FactsCache?
}
