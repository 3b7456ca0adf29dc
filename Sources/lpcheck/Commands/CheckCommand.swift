import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoReports
import LivePhotoRun

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

        Object storage: s3://BUCKET/PREFIX paths (and s3:// lines of --files-from) are listed and \
        read by ranged GETs (a few KB a file), with the same report as for local files; see \
        --endpoint-url and --region.

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
        var isPage: Bool { reporter.isPage }
    }

    @Argument(help: "Folders and files to check (s3://BUCKET/PREFIX for object storage; - alone for one file on standard input).")
    var paths: [String] = []

    @Option(help: "Check the paths listed in this file too, one per line (- for standard input).")
    var filesFrom: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Check the records of lpcheck scan (one or more files; - for standard input) instead of reading files.", valueName: "file"))
    var facts: [String] = []

    @Option(help: "With --facts: paths starting with this prefix get --prefix instead (shards from other machines or mounts).")
    var stripPrefix: String?

    @Option(help: "With --facts and --strip-prefix: the prefix put in its place.")
    var prefix: String = ""

    @Flag(inversion: .prefixedNo, help: "With --facts: keep only where each record is and what relates it to others, and read records again as the report is written (150 MB at a million files instead of 960 MB, in about twice the time). Chosen by itself when the record files pass 128 MiB, unless one is standard input or another pipe, or an HTML report is asked for.")
    var boundedMemory: Bool?


    @Option(name: .shortAndLong, help: ArgumentHelp("Report format (repeatable).", valueName: "format"))
    var format: [ReportFormat] = []

    @Option(name: .shortAndLong, help: "Report file for the --format at the same position (repeatable).")
    var output: [String] = []

    // ConfigurationOptions' and ObjectStoreArguments' options, declared flat (their help is
    // SharedHelp's): check is the command of nearly every run, and ArgumentParser builds an
    // option group's arguments by reflection several times a parse. The two groups cost 5.6M
    // instructions of every run, a fifth of a whole check of an empty folder; each distinct
    // type of option costs a scan of every protocol conformance of the binary, so the timeout
    // is whole seconds (an Int, as the other numbers here) (BENCHMARKS.md, issue 37).
    @Option(help: SharedHelp.config)
    var config: String?

    @Option(help: SharedHelp.baseline)
    var baseline: String?

    @Option(help: SharedHelp.failOn)
    var failOn: Configuration.FailLevel?

    @Option(help: SharedHelp.expect)
    var expect: Expectation?

    @Option(help: SharedHelp.profile)
    var profile: Target?

    @Option(help: SharedHelp.include)
    var include: [String] = []

    @Option(help: SharedHelp.exclude)
    var exclude: [String] = []

    @Option(help: SharedHelp.endpointUrl)
    var endpointUrl: String?

    @Option(help: SharedHelp.region)
    var region: String?

    @Option(help: SharedHelp.timeout)
    var timeout: Int = ObjectStoreOptions.defaultTimeout

    @Option(help: SharedHelp.maxListPages)
    var maxListPages: Int = ObjectStoreOptions.defaultMaxListPages

    @Option(help: "Files read at once, and threads that run the rules and render report items (default: the number of cores; files read at once 32 when s3:// objects are read, whose reads wait on the network).")
    var jobs: Int?

    @Flag(help: "The same as --format json (the JSON report on standard output).")
    var json = false

    @Flag(name: .shortAndLong, help: "List every item, info findings and left-out files in the terminal summary.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "No terminal summary.")
    var quiet = false

    @Option(help: ArgumentHelp("Colour in the terminal summary: auto (on a terminal, unless NO_COLOR is set), always, never.", valueName: "when"))
    var color = "auto"

    @Flag(help: "No progress bar.")
    var noProgress = false

    @Flag(help: "Print the bytes read and the time taken to standard error.")
    var stats = false

    @Option(help: ArgumentHelp("Keep each file's facts in this SQLite file; later runs read only new or changed files (rows of files no longer found in the checked folders are removed). A run that read no file keeps its outputs, and the next run with the same arguments, settings and file stamps writes them again.", valueName: "file"))
    var cache: String?

    @Option(help: "Item cards in an HTML report at most (the worst first; a note counts the rest; 0 for no limit).")
    var htmlLimit: Int = CheckHTML.defaultLimit

    @Flag(help: "With an HTML report: the stills of the cards shown that have no EXIF thumbnail (HEIC, AVIF, JPEG, PNG) get a picture from the codec helper (FFmpeg's libraries, run only for this).")
    var thumbnails = false

    @Flag(help: "With an HTML report written to a file: each card's movie made playable beside it (NAME-previews/, by the export flow: H.264 samples copied, other codecs re-encoded to H.264 320 pixels wide); a card plays it on hover or click, its timeline following.")
    var previews = false

    @Flag(help: "Read each file's Content Credentials (C2PA) and recompute their binding (the whole file is read for it; the facts cache is not used). Without it, check names where they are from headers alone.")
    var verifyCredentials = false

    func validate() throws {
        guard (paths.isEmpty && filesFrom == nil) != facts.isEmpty else { throw ValidationError("give folders or files to check (or --files-from), or --facts FILE (not both)") }
        guard stripPrefix == nil || !facts.isEmpty else { throw ValidationError("--strip-prefix goes with --facts") }
        guard boundedMemory == nil || !facts.isEmpty else { throw ValidationError("--bounded-memory goes with --facts") }
        guard boundedMemory != true || !facts.contains("-") else { throw ValidationError("--bounded-memory reads the record files twice: standard input cannot be one") }
        guard boundedMemory != true || !format.contains(where: { $0.isPage }) else {
            throw ValidationError("--bounded-memory does not go with an HTML report (the page ranks every item; use --html-limit on a smaller selection)")
        }
        for path in output { try requireOutputPath(path) }
        guard output.count <= format.count else { throw ValidationError("--output given without a --format for it") }
        guard format.count - output.count <= 1 else { throw ValidationError("only one --format may go to standard output: give an --output for the others") }
        guard (jobs ?? 1) >= 1 && (jobs ?? 1) <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
        guard ["auto", "always", "never"].contains(color) else { throw ValidationError("--color takes auto, always or never, not '\(color)'") }
        guard !json || format.count == output.count else { throw ValidationError("--json writes the JSON report to standard output, where another --format already goes: give an --output for it") }
        guard htmlLimit >= 0 else { throw ValidationError("--html-limit must be 0 (no limit) or more") }
        try ObjectStoreArguments.validate(timeout: timeout, maxListPages: maxListPages)
    }

    func run() throws {
        var run = CheckRun(settings: ConfigurationOptions.run(config: config, baseline: baseline, failOn: failOn, expect: expect, profile: profile, include: include, exclude: exclude))
        run.settings.objectStoreOptions = ObjectStoreOptions(endpoint: endpointUrl, region: region, timeout: Double(timeout), maxListPages: maxListPages)
        (run.filesFrom, run.readJobs) = (filesFrom, jobs)
        let roots = ConfigurationOptions.paths(paths, into: &run.settings)
        (run.paths, run.facts, run.stripPrefix, run.prefix, run.boundedMemory) = (roots, facts, stripPrefix, prefix, boundedMemory)
        run.reports = format.enumerated().map { ($0.element.reporter, $0.offset < output.count ? output[$0.offset] : nil) }
        if json, let reporter = CheckReporters.named("json") { run.reports.append((reporter, nil)) }
        (run.jobs, run.verbose, run.quiet, run.stats, run.cache, run.options.limit, run.thumbnails, run.previews) = (jobs ?? ProcessInfo.processInfo.activeProcessorCount, verbose, quiet, stats, cache, htmlLimit, thumbnails, previews)
        run.verifyCredentials = verifyCredentials
        if !noProgress && isatty(2) == 1 {
            run.progress = ProgressBar.update
            run.finishProgress = ProgressBar.finish
        }
        run.outputIsTerminal = isatty(1) == 1
        run.summaryColor = color == "always" || (color == "auto" && isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        (run.arguments, run.executablePath) = (Array(CommandLine.arguments.dropFirst()), Bundle.main.executablePath)
        try exiting { try run.run() }
    }
}
