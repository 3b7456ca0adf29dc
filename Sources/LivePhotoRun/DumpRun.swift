import LivePhotoFormats
import LivePhotoReports

/// One `lpcheck dump`: every file read whole and shown as text (file by file) or one JSON document.
public struct DumpRun {
    public var files: [String] = []
    public var json = false
    /// Every table entry instead of the first 8 (text).
    public var full = false
    public var stats = false
    public var io: RunIO

    public init(io: RunIO) { self.io = io }

    /// Status 1 when a file could not be read or was recognised as nothing.
    public func run() throws {
        var inspected: [MediaFile] = []
        var failed = false
        for path in files {
            let file = MediaFile.inspect(path: path)
            failed = failed || file.error != nil
            if file.error == nil && file.kind == .unknown {
                // Recognised as nothing: say why (the first bytes), and fail.
                let head = (try? FileSource(path: path)).flatMap { try? $0.read(at: 0, count: Int(min($0.size, 4096))) } ?? []
                io.error("lpcheck: \(path.terminalSafe): not recognised: \(FileFormat.unrecognised(head))")
                failed = true
            }
            if json { inspected.append(file) } else { io.output(DumpText.render(file, tableLimit: full ? nil : 8, stats: stats)) }
        }
        if json { io.output(DumpJSON.render(inspected)) }
        if stats && json {
            for file in inspected {
                io.error("stats: \(file.path.terminalSafe): read \(file.stats.bytesRead) of \(file.size) bytes in \(file.stats.reads) reads")
            }
        }
        if failed { throw RunFailure(status: 1) }
    }
}
