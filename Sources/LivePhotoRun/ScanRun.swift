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
    /// Files read at once; nil: the core count, or `ObjectStoreOptions.defaultJobs` when
    /// objects are read.
    public var jobs: Int?
    public var settings: RunSettings

    /// Files read and written per batch: memory stays bounded whatever the library's size.
    public static let batch = 2048

    public init(settings: RunSettings) { self.settings = settings }

    public func run() throws {
        let checker = try settings.checker(paths)
        let discovery = Discovery(exclude: checker.configuration.exclude, include: checker.configuration.include)
        let listed = try filesFrom.map { try Self.listedPaths($0, io: settings.io) } ?? []
        let objects = try settings.objectStore(for: paths + listed)
        let found = try settings.find(paths, listed: listed, discovery: discovery, objects: objects)
        let remote = objects.map(S3RemoteFiles.init)
        let jobs = jobs ?? (objects == nil ? ProcessInfo.processInfo.activeProcessorCount : ObjectStoreOptions.defaultJobs)
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
            let facts = Checker.inspect(Array(files[start..<end]), options: checker.inspectOptions, jobs: jobs, progress: nil, remote: remote)
            write(FactsRecords.files(Checker.expandingArchives(facts, options: checker.inspectOptions, remote: remote)))
            start = end
        }
    }

    /// The paths of a `--files-from` file (`-`: standard input), one a line, as bytes (a list
    /// from find keeps non-UTF-8 names as they are); status 2 when it cannot be read.
    static func listedPaths(_ file: String, io: RunIO) throws -> [String] {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else if let read = FileManager.default.contents(atPath: file) {
            data = read
        } else {
            io.error("lpcheck: cannot read \(file)")
            throw RunFailure(status: 2)
        }
        return data.split(separator: 0x0A, omittingEmptySubsequences: true).map { PathBytes.string(Array($0)) }
    }
}
