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
        standard input) and writes, streaming and in bounded memory, a scan header, a record for \
        every hidden or unreadable path, and one record per file with everything pairing and the \
        rules read (Reports/facts.schema.json). `lpcheck check --facts FILE...` pairs and checks \
        the records of one or many scans without opening a media file, and gives the report \
        check gives on the same files. Never writes a media file.

        Exit status: 0 the facts were written, 2 bad usage or an unwritable output.
        """
    )

    @Argument(help: "Folders and files to scan.")
    var paths: [String] = []

    @Option(help: "Read the paths to scan from this file, one per line (- for standard input).")
    var filesFrom: String?

    @Option(name: .shortAndLong, help: "Record format: ndjson (the only one).")
    var format: Format = .ndjson

    @Option(name: .shortAndLong, help: "Write the records to this file instead of standard output.")
    var output: String?

    @Option(help: "Files read at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var settings: ConfigurationOptions

    enum Format: String, ExpressibleByArgument { case ndjson }

    /// Files read and written per batch: memory stays bounded whatever the library's size.
    static let batch = 2048

    func validate() throws {
        guard !paths.isEmpty || filesFrom != nil else { throw ValidationError("give folders or files to scan, or --files-from") }
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        var checker = try exiting { try settings.run.checker(paths) }
        checker.jobs = jobs
        let discovery = Discovery(exclude: checker.configuration.exclude)
        var found = paths.isEmpty ? Discovery.Result(files: [], problems: []) : discovery.find(paths)
        if let filesFrom {
            let data: Data
            if filesFrom == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else if let read = FileManager.default.contents(atPath: filesFrom) {
                data = read
            } else {
                printError("lpcheck: cannot read \(filesFrom)")
                throw ExitCode(2)
            }
            // Names are bytes (a list from find keeps non-UTF-8 names as they are).
            let listed = discovery.listed(data.split(separator: 0x0A, omittingEmptySubsequences: true).map { PathBytes.string(Array($0)) })
            found.files += listed.files
            found.hidden += listed.hidden
            found.problems += listed.problems
        }
        let sink: FileHandle
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil), let handle = FileHandle(forWritingAtPath: output) else {
                printError("lpcheck: cannot write \(output)")
                throw ExitCode(2)
            }
            sink = handle
        } else {
            sink = FileHandle.standardOutput
        }
        defer { if output != nil { try? sink.close() } }
        func write(_ text: String) { sink.write(Data(text.utf8)) }
        write(FactsRecords.header(version: LPCheck.configuration.version, roots: paths))
        write(FactsRecords.leftUnread(hidden: found.hidden, problems: found.problems))
        var start = 0
        let files = found.files
        while start < files.count {
            let end = min(start + Self.batch, files.count)
            let facts = Checker.inspect(Array(files[start..<end]), options: checker.inspectOptions, jobs: jobs, progress: nil)
            write(FactsRecords.files(facts))
            start = end
        }
    }
}
