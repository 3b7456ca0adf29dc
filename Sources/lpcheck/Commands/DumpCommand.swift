import ArgumentParser
import LivePhotoRun
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

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "Print every entry of every sample table (text format).")
    var full = false

    @Flag(help: "Print the bytes read per file.")
    var stats = false

    @Argument(help: "Files to read (- for one on standard input).")
    var files: [String]

    func run() throws {
        var run = DumpRun(io: .standard)
        (run.files, run.json, run.full, run.stats) = (files, format == .json || json, full, stats)
        try exiting { try run.run() }
    }
}
