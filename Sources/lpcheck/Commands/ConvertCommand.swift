import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoRun
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

extension ConversionTarget: ExpressibleByArgument {}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert Android motion photos to Live Photos and Live Photos to motion photos, without re-encoding.",
        discussion: """
        Files and folders are found and paired as check does. --to live-photo converts every motion \
        photo (Motion Photo 1.0 JPEG or HEIC, MicroVideo JPEG, Samsung trailer) into NAME.JPG or \
        NAME.HEIC plus NAME.MOV: the still's own bytes with the identifier in an Apple MakerNote and \
        the motion-photo XMP removed; the movie's samples copied into a QuickTime movie with the \
        identifier and a still-image-time track at the presentation timestamp's frame (no \
        timestamp: the frame just before the middle, as the spec says). --to motion-photo converts \
        every Live Photo pair into NAME.MP.jpg (JPEG still) or NAME.MP.heic (HEIC still, the movie \
        in an mpvd box): the still's bytes, XMP with the Motion Photo 1.0 fields and directory, and \
        the movie last as a self-contained MP4 (video samples copied, timed-metadata tracks dropped), \
        its timestamp the still moment. An iPhone movie's PCM sound, which Motion Photo 1.0 does not \
        carry, is re-encoded to AAC by the codec helper (the plan says so); --audio drop leaves it out.

        The plan is printed first. Inputs are never written; each output is written to a temporary \
        file, fsynced, read back and checked, then renamed. An existing output is refused without \
        --force; so is a plan that loses something (a vendor MakerNote, Samsung trailer records), \
        which the plan names.

        Exit status: 0 every convertible item was converted (or, with --dry-run, could be); 1 a \
        conversion failed or was refused, or a file could not be read (each named on standard \
        error with the reader's reason and byte offset); 2 bad usage or nothing readable.
        """
    )

    @Argument(help: "Folders and files to convert.")
    var paths: [String]

    @Option(help: "What to make: live-photo (from motion photos) or motion-photo (from Live Photo pairs).")
    var to: ConversionTarget

    @Option(name: .shortAndLong, help: "Folder for the outputs (created if missing).")
    var output: String

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(name: .shortAndLong, help: "Output format: text or json (schema in Reports/convert.schema.json).")
    var format: OutputFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @OptionGroup var placement: PlacementOptions

    @Option(help: "--to motion-photo: a PCM sound encoded to AAC by the codec helper (keep, the default) or left out (drop).")
    var audio: Export.Audio = .keep

    @Flag(help: "Replace existing outputs; also accepts what --allow-loss and --allow-damaged accept.")
    var force = false

    @Flag(help: "Apply plans that lose what they name (the LOSES lines) without --force.")
    var allowLoss = false

    @Flag(help: "Write from damaged input (the DAMAGED INPUT lines), carrying its damage on and adding none, without --force.")
    var allowDamaged = false

    @Flag(help: "Refuse a write after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @Flag(help: "Do not show a progress bar.")
    var noProgress = false

    @OptionGroup var settings: WriterConfigurationOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func validate() throws { try requireOutputPath(output) }

    func run() throws {
        var run = ConvertRun(target: to, output: output, settings: settings.run)
        (run.paths, run.dryRun, run.json) = (ConfigurationOptions.paths(paths, into: &run.settings), dryRun, format == .json || json)
        (run.options.time, run.options.frame, run.options.force, run.options.backup) = (placement.time, placement.frame, force, false)
        (run.options.allowLoss, run.options.allowDamaged) = (allowLoss, allowDamaged)
        run.options.keepCredentials = keepCredentials
        run.options.dropSound = audio == .drop
        if !noProgress && isatty(2) == 1 { (run.progress, run.finishProgress) = (ProgressBar.update, ProgressBar.finish) }
        try exiting { try run.run() }
    }
}
