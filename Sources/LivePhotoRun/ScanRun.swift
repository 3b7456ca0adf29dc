import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoRecords

/// One `lpcheck scan`: the files found (and listed), read in batches, their records written to
/// a file or standard output as they are made, in bounded memory.
public struct ScanRun {
    public var paths: [String] = []
    /// A file of paths, one a line (`-` for standard input).
    public var filesFrom: String?
    /// The records' file; nil for standard output.
    public var output: String?
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var settings: RunSettings

    /// Files read and written per batch: memory stays bounded whatever the library's size.
    public static let batch = 2048

    public init(settings: RunSettings) { self.settings = settings }

    public func run() throws {
        var checker = try settings.checker(paths)
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
                settings.io.error("lpcheck: cannot read \(filesFrom)")
                throw RunFailure(status: 2)
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
                settings.io.error("lpcheck: cannot write \(output)")
                throw RunFailure(status: 2)
            }
            sink = handle
        } else {
            sink = FileHandle.standardOutput
        }
        defer { if output != nil { try? sink.close() } }
        func write(_ text: String) { sink.write(Data(text.utf8)) }
        write(FactsRecords.header(version: settings.version, roots: paths))
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
