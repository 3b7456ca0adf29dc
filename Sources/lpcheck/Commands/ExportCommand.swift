import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats
import LivePhotoRun
import LivePhotoWriting

extension ExportForm: ExpressibleByArgument {}
extension LoopStart: ExpressibleByArgument {}
extension GIFDither: ExpressibleByArgument {}
extension MovieContainer: ExpressibleByArgument {}
extension GIFPaletteScope: ExpressibleByArgument {}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the movie of every Live Photo and motion photo as a plain movie or a loop (samples copied), reversed or bounced (re-encoded), or as a GIF.",
        discussion: """
        Files and folders are found and paired as check does; every Live Photo pair and motion \
        photo becomes NAME.<as>.mov in the output folder. --as movie writes its movie alone: every \
        sample copied, Apple's timed-metadata tracks and the Live Photo keys of moov/meta dropped \
        (the plan names them), so that the movie is not half of a Live Photo. --as loop writes the \
        movie shown --count times: each sample is stored once and listed --count times in the \
        sample tables, audio loops with the video, and every decoded frame is the source's; with \
        --start still the loop opens on the sync sample at or before the still's moment. \
        --as reverse shows the frames last to first, --as bounce first to last and back to the \
        second (2N-2 frames, so that it loops with neither turn frame shown twice), --as boomerang \
        as bounce with its last frame held a quarter of a second at the turn; each frame \
        lasts the duration it had, so a variable frame rate is mirrored. These three re-encode \
        (lpcheck-codec, one group of pictures decoded at a time; --codec, else the source's; \
        by default the best the encoder gives within 1.3× the source's bit rate, --quality a CRF), \
        keep the source's colour tags and track matrix, and drop the sound; the plan says so. \
        --audio drop leaves a movie's or loop's sound tracks out (named in the plan). \
        --container mp4 writes NAME.<as>.mp4 (ftyp isom; colour as nclx); a track MP4 does not \
        carry (PCM sound, timecode) is refused by name rather than written. \
        --as gif writes NAME.gif, looping forever: every frame at its own time (or the frame shown \
        at each 1/--fps s), --width pixels wide at most (Lanczos), turned and mirrored as the movie is shown, \
        one palette of 255 colours made from the whole clip's colours (--palette frame: one from \
        each frame's colours, a local table each), --dither sierra-lite \
        (FFmpeg's default), floyd-steinberg or none; delays are the frames' times rounded to \
        centiseconds with the error carried, so they sum to the movie's duration within half a \
        centisecond, and none is under 2 cs (a shorter frame runs on over the next). With \
        --start still the GIF opens on the frame shown at the still's moment.

        Each output is written to a temporary file, fsynced and read back (every sample where the \
        plan lists it, byte for byte; the planned duration; no Live Photo metadata left) before it \
        is renamed; a GIF is read back block by block (its frames, delays, size and looping as \
        planned). An existing output is refused without --force; a movie that the damage rules \
        find damaged is refused without --force.

        Exit status: 0 every item was exported (or, with --dry-run, could be); 1 an export failed \
        or was refused, or a file could not be read; 2 bad usage or nothing readable.
        """
    )

    @Argument(help: "Folders and files to export from.")
    var paths: [String]

    @Option(name: .customLong("as"), help: "What to write: \(ExportForm.listed(ExportForm.allCases)).")
    var form: ExportForm

    @Option(help: "The codec of a \(ExportForm.listed(ExportForm.retimed)): h264 or hevc (default: the source's).")
    var codec: VideoCodec?


    @Option(help: "A \(ExportForm.listed(ExportForm.retimed))'s quality as x264's and x265's CRF (0 to 51; lower is better and larger; 18 to 28 is usual). Default: the best the encoder gives at no more than 1.3× the source's bit rate.")
    var quality: Int?

    @Option(name: .shortAndLong, help: "Folder for the outputs (created if missing).")
    var output: String

    @Option(help: "How many times a loop shows the movie (1 to 1000).")
    var count = 3

    @Option(help: "Where a loop opens: first (its first frame) or still (the sync sample at or before the still's moment; for a GIF, the frame shown then).")
    var start: LoopStart = .first

    @Option(help: "A movie's container: mov (QuickTime) or mp4 (refused for tracks MP4 does not carry, such as PCM sound).")
    var container: MovieContainer = .mov

    @Option(help: "Sound: keep (the default for movie and loop) or drop (the only choice for \(ExportForm.listed(ExportForm.retimed + [.gif]))).")
    var audio: Audio?

    enum Audio: String, ExpressibleByArgument { case keep, drop }

    @Option(help: "A GIF's width in pixels, at most the movie's shown width (1 to 4096).")
    var width = 480

    @Option(help: "A GIF's frames a second, each the frame shown at its time (1 to 50; default: every frame at its own time).")
    var fps: Int?

    @Option(help: "A GIF's dithering: sierra-lite, floyd-steinberg or none.")
    var dither: GIFDither = .sierraLite

    @Option(help: "A GIF's palette: clip (one from the whole clip's colours) or frame (one from each frame's: higher PSNR, up to 1.1× the size, twice the time).")
    var palette: GIFPaletteScope = .clip

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(name: .shortAndLong, help: "Output format: text or json (schema in Reports/export.schema.json).")
    var format: OutputFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "Replace existing outputs; also accepts what --allow-loss and --allow-damaged accept.")
    var force = false

    @Flag(help: "Apply plans that lose what they name (the LOSES lines) without --force.")
    var allowLoss = false

    @Flag(help: "Write from damaged input (the DAMAGED INPUT lines), carrying its damage on and adding none, without --force.")
    var allowDamaged = false

    @Flag(help: "Refuse an export after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @Flag(help: "Do not show a progress bar.")
    var noProgress = false

    @OptionGroup var settings: WriterConfigurationOptions

    @OptionGroup(title: "Codec budget (\(ExportForm.listed(ExportForm.retimed + [.gif])))") var codecBudget: CodecBudgetOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func validate() throws {
        try requireOutputPath(output)
        guard (1...1_000).contains(count) else { throw ValidationError("--count must be 1 to 1000") }
        guard (1...4_096).contains(width) else { throw ValidationError("--width must be 1 to 4096") }
        if audio == .keep, form.order != nil || form == .gif {
            throw ValidationError("--audio keep: a \(form.rawValue) export drops the sound (frames re-timed or a GIF have none to keep it with); use --as loop or movie to keep it")
        }
        if let quality {
            guard CodecRequest.qualities.contains(quality) else { throw ValidationError("--quality must be \(CodecRequest.qualities.lowerBound) to \(CodecRequest.qualities.upperBound) (a CRF)") }
            guard form.order != nil else { throw ValidationError("--quality: a \(form.rawValue) export is not re-encoded as a movie (--quality applies to \(ExportForm.listed(ExportForm.retimed)))") }
        }
        if form == .gif && container == .mp4 { throw ValidationError("--container mp4: a GIF is a GIF") }
        if let fps, !(1...GIFTimeline.maxRate).contains(fps) { throw ValidationError("--fps must be 1 to \(GIFTimeline.maxRate): GIF delays are at least \(GIFTimeline.minimumDelay) cs") }
    }

    func run() throws {
        var options = ExportOptions(form: form)
        (options.count, options.start, options.force, options.codec, options.quality) = (count, start, force, codec, quality)
        (options.allowLoss, options.allowDamaged) = (allowLoss, allowDamaged)
        (options.width, options.rate, options.dither, options.palette) = (width, fps, dither, palette)
        options.keepsSound = audio != .drop
        options.container = container
        options.budget = codecBudget.budget
        options.keepCredentials = keepCredentials
        var run = ExportRun(options: options, output: output, settings: settings.run)
        (run.paths, run.dryRun, run.json) = (ConfigurationOptions.paths(paths, into: &run.settings), dryRun, format == .json || json)
        if !noProgress && isatty(2) == 1 {
            run.progress = form == .gif ? ProgressBar.framePasses : form.order != nil ? ProgressBar.frames : ProgressBar.items
            run.finishProgress = ProgressBar.finish
        }
        try exiting { try run.run() }
    }
}
