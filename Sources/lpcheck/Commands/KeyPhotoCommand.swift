import ArgumentParser
import Foundation
import LivePhotoFormats
import LivePhotoRun
import LivePhotoWriting

struct KeyPhoto: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyphoto",
        abstract: "Give a Live Photo or a motion photo a new key photo: the movie's frame at a moment becomes the still, and the still-image-time (or presentation timestamp) moves with it.",
        discussion: """
        keyphoto STILL MOVIE -o OUTPUT writes OUTPUT/<movie name>.HEIC (or .JPG, the old still's \
        format; --still chooses) and OUTPUT/<movie name>.MOV. Without --output the new pair \
        replaces the old one in place, and only with --force: the new still is written over \
        STILL (in its format, keeping its owner, group and mode) and MOVIE is rewritten where it \
        is; both old files are kept in .lpcheck-backup/ beside them unless --no-backup. The still is the movie's frame at --time, \
        --frame or --percent of the video's duration: an HEVC sync sample's coded picture as it \
        is with --lossless-still where the moment is one, else decoded and encoded by the codec \
        helper (the plan says which). It carries the old still's Exif and MakerNote (the content \
        identifier with them), its Orientation and pixel dimensions made the new picture's and \
        its thumbnail unlinked; what the old file holds beyond them (the sensor's full-size \
        picture, a gain map, depth, XMP, ICC) stays with it, and the plan's ledger lists it. The \
        movie's samples are copied; its still-image-time track marks the new moment, and the \
        camera's still-image transform (which related its still to the frame) is not carried.

        keyphoto MOTION_PHOTO does the same for a motion photo alone (a Pixel's or Samsung's JPEG \
        or HEIC): OUTPUT/<its name> (or, with --force, the file in place) holds the movie's frame \
        at the moment in the motion photo's own format, the movie's bytes copied as they are but \
        a Google metadata track's primary-frame time (set to the new timestamp, as Google's \
        checker asks), the presentation timestamp that frame's, the old still's Exif and \
        MakerNote carried (Orientation and size made the new picture's), the XMP the Motion \
        Photo 1.0 fields alone; it is read back as a motion photo (movie last, timestamp, \
        Google's rules) before it is renamed.

        STILL and MOVIE must be one Live Photo (the same content identifier, the movie with its \
        still-image-time). With --output the inputs are never written; an existing output waits \
        for --force. \
        A Live Photo's written still is read back and compared with the movie's frame at the \
        marked moment before anything is renamed.

        Exit status: 0 written; 1 the writing or its read-back failed; 2 bad usage (in place \
        without --force among it), inputs that are not one readable Live Photo, or an output \
        that exists.
        """
    )

    @Argument(help: "The Live Photo's still, or a motion photo.")
    var still: String

    @Argument(help: "The Live Photo's movie (none for a motion photo).")
    var movie: String?

    @Option(help: "The new moment: seconds into the movie.")
    var time: Double?

    @Option(help: "The new moment: this video frame (0-based).")
    var frame: Int?

    @Option(help: "The new moment: this percent of the video's duration (0 to 100).")
    var percent: Double?

    @Option(name: .shortAndLong, help: "Folder for the new pair (created if missing); without it the pair is replaced in place (with --force).")
    var output: String?

    @Flag(help: "In place: keep no backup of the old still and movie.")
    var noBackup = false

    @Option(name: .customLong("still"), help: "The new still's format: heic or jpeg (default: the old still's).")
    var stillFormat: MakePlanner.StillFormat?

    @Flag(help: "With a HEIC still, move the moment to the nearest HEVC sync sample and take its coded picture as it is.")
    var losslessStill = false

    @Option(name: .shortAndLong, help: "Output format: text or json (schema in Reports/make.schema.json, command keyphoto).")
    var format: OutputFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "Print the plan only; write nothing (the still is made in memory: the plan states it).")
    var dryRun = false

    @Flag(help: "Replace existing outputs; without --output, replace the pair in place; also accepts what --allow-loss and --allow-damaged accept.")
    var force = false

    @Flag(help: "Apply plans that lose what they name (the LOSES lines) without --force.")
    var allowLoss = false

    @Flag(help: "Write from damaged input (the DAMAGED INPUT lines), carrying its damage on and adding none, without --force.")
    var allowDamaged = false

    @Flag(help: "Refuse a write after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @OptionGroup(title: "Codec budget") var codecBudget: CodecBudgetOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func validate() throws {
        if let output { try requireOutputPath(output) }
        if output == nil && !force && !dryRun {
            let what = movie == nil ? "the motion photo" : "STILL and MOVIE"
            throw ValidationError("without --output, keyphoto replaces \(what) in place: add --force (the old \(movie == nil ? "file" : "files") kept in .lpcheck-backup/ unless --no-backup), or write elsewhere with -o DIR")
        }
        if output == nil, let stillFormat, stillFormat != (MediaFile.inspect(path: still, options: .check).format == .jpeg ? .jpeg : .heic) {
            throw ValidationError("in place, the new still keeps the old one's format and name: --still \(stillFormat.rawValue) needs -o DIR")
        }
        if movie == nil && stillFormat != nil { throw ValidationError("a motion photo's new still keeps its format: --still is for a Live Photo (STILL MOVIE)") }
        if output != nil && noBackup { throw ValidationError("--no-backup is for keyphoto in place (without --output): with -o nothing is replaced") }
        guard [time != nil, frame != nil, percent != nil].filter({ $0 }).count == 1 else { throw ValidationError("give one of --time, --frame and --percent") }
        if let time, !(time >= 0) { throw ValidationError("--time must be a number of seconds, 0 or more") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more") }
        if let percent, !(0...100).contains(percent) { throw ValidationError("--percent must be 0 to 100") }
    }

    func run() throws {
        var run = MakeRun(clip: movie ?? still, output: output ?? (still as NSString).deletingLastPathComponent, io: .standard)
        run.keyPhotoOf = still
        run.inPlace = output == nil
        run.options.backup = !noBackup
        let old = MediaFile.inspect(path: still, options: .check)
        run.clip.stillFormat = stillFormat ?? (old.format == .jpeg ? .jpeg : .heic)
        run.clip.losslessStill = losslessStill
        run.clip.budget = codecBudget.budget
        (run.json, run.force, run.options.time, run.options.frame) = (format == .json || json, force, time, frame)
        (run.options.allowLoss, run.options.allowDamaged) = (allowLoss, allowDamaged)
        run.options.keepCredentials = keepCredentials
        (run.percent, run.dryRun) = (percent, dryRun)
        try exiting { try run.run() }
    }
}
