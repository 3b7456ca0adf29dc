import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoRun
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

/// Options shared by repair and make: where the still goes in the movie.
struct PlacementOptions: ParsableArguments {
    @Option(help: "Place the still at this time in the movie (seconds); moves a valid moment too.")
    var time: Double?

    @Option(help: "Place the still on this video frame (0-based); moves a valid moment too.")
    var frame: Int?

    func validate() throws {
        if time != nil && frame != nil { throw ValidationError("give --time or --frame, not both") }
        if let time, !(time >= 0) { throw ValidationError("--time must be a number of seconds, 0 or more") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more") }
    }
}

extension IdentifierPreference: ExpressibleByArgument {}

struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Fix what the fixable rules find, without re-encoding, never making the library worse; prints the plan first.",
        discussion: """
        Works per identifier group: the identifier stays on every pair that works and on the \
        camera original; only files in a true conflict get a new (deterministic) identifier; \
        variants and duplicates are never touched. Acts on errors and warnings (--include-info \
        for info findings too). A rewritten still-image-time track keeps the old track's keys and \
        values; a plan that would lose something (keys, the link between hard-linked names) says \
        what and waits for --force. Dates are changed only with --align-dates: the movie then \
        gets the still's capture instant (a still without a zone has none, and is left).

        Each file is written to a temporary file beside it, fsynced, read back and re-checked, then \
        renamed over the original, keeping owner, group, mode, extended attributes and times \
        (--update-times to set the times to now); the original is kept in .lpcheck-backup/ beside \
        it unless --no-backup. A file that changes meanwhile is left alone. The dry run prints \
        exactly what the real run writes.

        Exit status: 0 nothing at or above --fail-on remains and every planned repair was written \
        (or, with --dry-run, could be); 1 a repair failed or was refused, or findings at or above \
        --fail-on remain that repair does not fix, or a file could not be read (each named on \
        standard error with the reader's reason and byte offset); 2 bad usage, a bad \
        configuration, or nothing readable.
        """
    )

    @Argument(help: "Folders and files to repair.")
    var paths: [String]

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(help: "Which identifier wins when still and movie disagree: still, movie or new (default: still, else movie, else new).")
    var prefer: IdentifierPreference = .still

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Also act on info findings (such as missing-cdsc-reference).")
    var includeInfo = false

    @Flag(help: "Write the still's capture instant into its movie where the capture-time rules find they disagree (creationdate key, mvhd/tkhd/mdhd times; nothing else).")
    var alignDates = false

    @Flag(help: "Accept what --allow-loss and --allow-damaged accept (repair replaces its files in place, backed up).")
    var force = false

    @Flag(help: "Apply plans that lose what they name (the LOSES lines) without --force.")
    var allowLoss = false

    @Flag(help: "Write from damaged input (the DAMAGED INPUT lines), carrying its damage on and adding none, without --force.")
    var allowDamaged = false

    @Flag(help: "Refuse a write after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @Flag(help: "Do not keep the originals in .lpcheck-backup/.")
    var noBackup = false

    @Flag(help: "Set the repaired files' times to now instead of keeping the originals'.")
    var updateTimes = false

    @Flag(help: "Do not show a progress bar.")
    var noProgress = false

    @OptionGroup var settings: ConfigurationOptions

    func run() throws {
        var run = RepairRun(settings: settings.run)
        (run.paths, run.dryRun) = (ConfigurationOptions.paths(paths, into: &run.settings), dryRun)
        (run.options.prefer, run.options.time, run.options.frame, run.options.backup) = (prefer, placement.time, placement.frame, !noBackup)
        (run.options.includeInfo, run.options.force, run.options.keepTimes) = (includeInfo, force, !updateTimes)
        (run.options.allowLoss, run.options.allowDamaged) = (allowLoss, allowDamaged)
        run.options.keepCredentials = keepCredentials
        run.options.alignDates = alignDates
        if !noProgress && isatty(2) == 1 { (run.progress, run.finishProgress) = (ProgressBar.update, ProgressBar.finish) }
        try exiting { try run.run() }
    }
}
