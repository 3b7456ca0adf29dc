import ArgumentParser
import LivePhotoFormats
import LivePhotoReports

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Show every Live Photo marker of stills (JPEG, HEIC, AVIF) and movies (MOV, MP4).",
        discussion: """
        Prints the structure (JPEG segments or boxes), the Apple MakerNote, EXIF, XMP, movie \
        metadata (keys/ilst), tracks with their sample tables, decoded timed metadata, and the \
        Live Photo markers: content identifier and still-image-time (edit list applied). Never writes.
        Exit status: 0 when every file was read, 1 when any file could not be read or was recognised \
        as nothing (standard error says why: what its first bytes are not, and where a known \
        signature starts when one is there), 2 on bad usage.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(name: .shortAndLong, help: "Output format: text or json (one object per file; schema in Reports/dump.schema.json).")
    var format: Format = .text

    @Flag(help: "Print every entry of every sample table (text format).")
    var full = false

    @Flag(help: "Print the bytes read per file.")
    var stats = false

    @Argument(help: "Files to read.")
    var files: [String]

    func run() throws {
        var inspected: [MediaFile] = []
        var failed = false
        for path in files {
            let file = MediaFile.inspect(path: path)
            failed = failed || file.error != nil
            if file.error == nil && file.kind == .unknown {
                // Recognised as nothing: say why (the first bytes), and fail.
                let head = (try? FileSource(path: path)).flatMap { try? $0.read(at: 0, count: Int(min($0.size, 4096))) } ?? []
                printError("lpcheck: \(path.terminalSafe): not recognised: \(FileFormat.unrecognised(head))")
                failed = true
            }
            switch format {
            case .text:
                print(DumpText.render(file, tableLimit: full ? nil : 8, stats: stats), terminator: "")
            case .json:
                inspected.append(file)
            }
        }
        if format == .json { print(DumpJSON.render(inspected), terminator: "") }
        if stats && format == .json {
            for file in inspected {
                printError("stats: \(file.path.terminalSafe): read \(file.stats.bytesRead) of \(file.size) bytes in \(file.stats.reads) reads")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
