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
        var gifs: [String: GIFStructure] = [:]
        var failed = false
        if files.filter({ $0 == StandardInput.path }).count > 1 {
            io.error("lpcheck: - (standard input) may be given once")
            throw RunFailure(status: 2)
        }
        for path in files {
            // `-`: the file on standard input, held in memory.
            let given: ByteSource? = path == StandardInput.path ? MemorySource(try StandardInput.bytes(io: io)) : nil
            let file = given.map { MediaFile.inspect(source: $0, path: path) } ?? MediaFile.inspect(path: path)
            failed = failed || file.error != nil
            if file.error == nil && file.kind == .unknown {
                let source: ByteSource? = given ?? (try? FileSource(path: path))
                let head = source.flatMap { try? $0.read(at: 0, count: Int(min($0.size, 4096))) } ?? []
                if ZipArchive.isZip(head), let source {
                    // An archive (a .livp): each member that is stored read in place, as a file of its own.
                    let members = archiveMembers(path, source: source)
                    failed = failed || members.failed
                    for member in members.files {
                        if json { inspected.append(member) } else { io.output(DumpText.render(member, tableLimit: full ? nil : 8, stats: stats)) }
                    }
                    continue
                }
                // Recognised as nothing: say why (the first bytes), and fail.
                io.error("lpcheck: \(path.terminalSafe): not recognised: \(FileFormat.unrecognised(head))")
                failed = true
            }
            // An animated GIF's blocks (the file read whole, within the GIF reader's bounds).
            let gif = file.format == .gif ? Self.gif(given ?? (try? FileSource(path: path)), path: path, io: io) : nil
            if let gif { gifs[path] = gif }
            if json { inspected.append(file) } else { io.output(DumpText.render(file, tableLimit: full ? nil : 8, stats: stats, gif: gif)) }
        }
        if json { io.output(DumpJSON.render(inspected, gifs: gifs)) }
        if stats && json {
            for file in inspected {
                io.error("stats: \(file.path.terminalSafe): read \(file.stats.bytesRead) of \(file.size) bytes in \(file.stats.reads) reads")
            }
        }
        if failed { throw RunFailure(status: 1) }
    }

    /// The most of a GIF dump reads to show its frames.
    static let maxGIFBytes: Int64 = 256 << 20

    /// A GIF's blocks; nil (said on standard error) when it is larger than `maxGIFBytes` or
    /// its blocks cannot be read.
    static func gif(_ source: ByteSource?, path: String, io: RunIO) -> GIFStructure? {
        guard let source else { return nil }
        guard source.size <= maxGIFBytes else {
            io.error("lpcheck: \(path.terminalSafe): a GIF of \(source.size) bytes: its frames are listed up to \(maxGIFBytes >> 20) MiB")
            return nil
        }
        do {
            return try GIFStructure(try source.read(at: 0, count: Int(source.size)), path: path)
        } catch {
            io.error("lpcheck: \(path.terminalSafe): its GIF blocks cannot be read: \("\(error)".terminalSafe)")
            return nil
        }
    }

    /// A zip's members read through windows of it, named `ARCHIVE:MEMBER`; what cannot be read
    /// (a damaged archive, a compressed or encrypted member) is said on standard error.
    func archiveMembers(_ path: String, source: ByteSource) -> (files: [MediaFile], failed: Bool) {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(source: source, path: path)
        } catch {
            io.error("lpcheck: \(path.terminalSafe): an archive lpcheck does not read: \("\(error)".terminalSafe)")
            return ([], true)
        }
        if !json { io.output("\(path.terminalSafe): zip archive, \(Plural.count(archive.members.count, "member"))\(archive.zip64 ? " (zip64)" : "")\n") }
        var files: [MediaFile] = []
        var failed = false
        for member in archive.members {
            guard member.readable else {
                let why = member.encrypted ? "encrypted" : "compressed (method \(member.method)): a .livp's members are stored"
                io.error("lpcheck: \(path.terminalSafe):\(member.name.terminalSafe): \(why); not read")
                failed = true
                continue
            }
            files.append(MediaFile.inspect(source: WindowSource(source, range: member.data), path: path + ":" + member.name))
        }
        return (files, failed)
    }
}
