import ArgumentParser
import Foundation
import LivePhotoRun
import LivePhotoWriting

struct Strip: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strip",
        abstract: "Make motion photos and Live Photos plain photos without re-encoding: the movie and its markers removed, every other byte kept.",
        discussion: """
        Files and folders are found and paired as check does. A motion photo (Motion Photo 1.0 or \
        MicroVideo JPEG, Samsung trailer, HEIC with an mpvd box) becomes NAME.jpg or NAME.heic \
        (a Pixel's .MP mark dropped): its bytes up to the movie, the XMP's motion-photo fields \
        (Camera/GCamera MotionPhoto, MicroVideo, the Container directory's movie item) removed, the \
        image's bytes copied as they are. A Live Photo's still keeps every byte but its pairing key \
        (MakerApple 0x0011, removed in place: the file keeps its size); --keep-movie writes its \
        movie too, as an ordinary movie (samples copied, the Live Photo keys and the \
        still-image-time track left out).

        The plan is printed first, with each output's ledger: what is kept, changed and left out. \
        Inputs are never written; each output is written to a temporary file, fsynced, read back \
        (no movie found in it by any means, no identifier) and checked, then renamed. An existing \
        output is refused without --force; so is a plan that loses more than the motion (Samsung \
        trailer records other than the movie), which the plan names.

        Exit status: 0 every motion photo and Live Photo found was stripped (or, with --dry-run, \
        could be); 1 one failed or was refused, or a file could not be read; 2 bad usage or \
        nothing readable.
        """
    )

    @Argument(help: "Folders and files to strip.")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Folder for the outputs (created if missing).")
    var output: String

    @Flag(help: "Write a Live Photo's movie too, as an ordinary movie.")
    var keepMovie = false

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(name: .shortAndLong, help: "Output format: text or json (schema in Reports/strip.schema.json).")
    var format: OutputFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

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
        var options = StripOptions()
        (options.keepMovie, options.force) = (keepMovie, force)
        (options.allowLoss, options.allowDamaged) = (allowLoss, allowDamaged)
        options.keepCredentials = keepCredentials
        var run = StripRun(options: options, output: output, settings: settings.run)
        (run.paths, run.dryRun, run.json) = (ConfigurationOptions.paths(paths, into: &run.settings), dryRun, format == .json || json)
        if !noProgress && isatty(2) == 1 { (run.progress, run.finishProgress) = (ProgressBar.update, ProgressBar.finish) }
        try exiting { try run.run() }
    }
}
