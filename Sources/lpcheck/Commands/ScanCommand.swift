import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoRun
import LivePhotoFormats
import LivePhotoRecords
import LivePhotoReports

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read files and write their facts, one record per line, for check --facts (map/reduce over many machines).",
        discussion: """
        Finds files as check does (or takes them from --files-from, one path per line, - for \
        standard input; s3://BUCKET/PREFIX paths list and read objects by ranged GETs, see \
        --endpoint-url) and writes, streaming and in bounded memory, a scan header, a record for \
        every hidden or unreadable path, and one record per file with everything pairing and the \
        rules read (Reports/facts.schema.json). `lpcheck check --facts FILE...` pairs and checks \
        the records of one or many scans without opening a media file, and gives the report \
        check gives on the same files. Never writes a media file.

        Exit status: 0 the facts were written, 2 bad usage or an unwritable output.
        """
    )

    @Argument(help: "Folders and files to scan (s3://BUCKET/PREFIX for object storage).")
    var paths: [String] = []

    @Option(help: "Read the paths to scan from this file, one per line (- for standard input).")
    var filesFrom: String?

    @Option(name: .shortAndLong, help: "Record format: ndjson (the only one).")
    var format: Format = .ndjson

    @Option(name: .shortAndLong, help: "Write the records to this file instead of standard output.")
    var output: String?

    @Option(help: "Files read at once (default: the number of cores; 32 when s3:// objects are read, whose reads wait on the network).")
    var jobs: Int?

    @Option(help: SharedHelp.config)
    var config: String?

    @Option(help: SharedHelp.include)
    var include: [String] = []

    @Option(help: SharedHelp.exclude)
    var exclude: [String] = []

    // Taken as check takes them, so one command line serves both, and doing nothing here (scan
    // records facts; the gate, the baseline, the expectation, the profile and the progress bar
    // are check's): left out of scan's help.
    @Option(help: .hidden) var baseline: String?
    @Option(help: .hidden) var failOn: Configuration.FailLevel?
    @Option(help: .hidden) var expect: Expectation?
    @Option(help: .hidden) var profile: Target?
    @Flag(help: .hidden) var noProgress = false

    @OptionGroup var objectStore: ObjectStoreArguments

    enum Format: String, ExpressibleByArgument { case ndjson }

    func validate() throws {
        guard !paths.isEmpty || filesFrom != nil else { throw ValidationError("give folders or files to scan, or --files-from") }
        guard (jobs ?? 1) >= 1 && (jobs ?? 1) <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        var run = ScanRun(settings: ConfigurationOptions.run(config: config, baseline: nil, failOn: nil, expect: nil, profile: nil, include: include, exclude: exclude))
        run.settings.objectStoreOptions = objectStore.options
        let roots = ConfigurationOptions.paths(paths, into: &run.settings)
        (run.paths, run.filesFrom, run.output, run.jobs) = (roots, filesFrom, output, jobs)
        try exiting { try run.run() }
    }
}
