import ArgumentParser
import Foundation
import LivePhotoFormats
import LivePhotoRun
import LivePhotoWriting

struct KeyPhoto: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyphoto",
        abstract: "Give a Live Photo a new key photo: the movie's frame at a moment becomes the still, and the still-image-time moves with it.",
        discussion: """
        keyphoto STILL MOVIE writes OUTPUT/<movie name>.HEIC (or .JPG, the old still's format; \
        --still chooses) and OUTPUT/<movie name>.MOV. The still is the movie's frame at --time, \
        --frame or --percent of the video's duration: an HEVC sync sample's coded picture as it \
        is with --lossless-still where the moment is one, else decoded and encoded by the codec \
        helper (the plan says which). It carries the old still's Exif and MakerNote (the content \
        identifier with them), its Orientation and pixel dimensions made the new picture's and \
        its thumbnail unlinked; what the old file holds beyond them (the sensor's full-size \
        picture, a gain map, depth, XMP, ICC) stays with it, and the plan's ledger lists it. The \
        movie's samples are copied; its still-image-time track marks the new moment, and the \
        camera's still-image transform (which related its still to the frame) is not carried.

        STILL and MOVIE must be one Live Photo (the same content identifier, the movie with its \
        still-image-time). The inputs are never written; an existing output waits for --force. \
        The written still is read back and compared with the movie's frame at the marked moment \
        before anything is renamed.

        Exit status: 0 written; 1 the writing or its read-back failed; 2 bad usage, inputs that \
        are not one readable Live Photo, or an output that exists.
        """
    )

    @Argument(help: "The Live Photo's still.")
    var still: String

    @Argument(help: "The Live Photo's movie.")
    var movie: String

    @Option(help: "The new moment: seconds into the movie.")
    var time: Double?

    @Option(help: "The new moment: this video frame (0-based).")
    var frame: Int?

    @Option(help: "The new moment: this percent of the video's duration (0 to 100).")
    var percent: Double?

    @Option(name: .shortAndLong, help: "Folder for the new pair (created if missing).")
    var output: String

    @Option(name: .customLong("still"), help: "The new still's format: heic or jpeg (default: the old still's).")
    var stillFormat: MakePlanner.StillFormat?

    @Flag(help: "With a HEIC still, move the moment to the nearest HEVC sync sample and take its coded picture as it is.")
    var losslessStill = false

    @Option(name: .shortAndLong, help: "Output format: text or json (schema in Reports/make.schema.json, command keyphoto).")
    var format: OutputFormat = .text

    @Flag(help: "Print the plan only; write nothing (the still is made in memory: the plan states it).")
    var dryRun = false

    @Flag(help: "Replace existing outputs.")
    var force = false

    @Flag(help: "Refuse a write after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @OptionGroup(title: "Codec budget") var codecBudget: CodecBudgetOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func validate() throws {
        try requireOutputPath(output)
        guard [time != nil, frame != nil, percent != nil].filter({ $0 }).count == 1 else { throw ValidationError("give one of --time, --frame and --percent") }
        if let time, !(time >= 0) { throw ValidationError("--time must be a number of seconds, 0 or more") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more") }
        if let percent, !(0...100).contains(percent) { throw ValidationError("--percent must be 0 to 100") }
    }

    func run() throws {
        var run = MakeRun(clip: movie, output: output, io: .standard)
        run.keyPhotoOf = still
        let old = MediaFile.inspect(path: still, options: .check)
        run.clip.stillFormat = stillFormat ?? (old.format == .jpeg ? .jpeg : .heic)
        run.clip.losslessStill = losslessStill
        run.clip.budget = codecBudget.budget
        (run.json, run.force, run.options.time, run.options.frame) = (format == .json, force, time, frame)
        run.options.keepCredentials = keepCredentials
        (run.percent, run.dryRun) = (percent, dryRun)
        try exiting { try run.run() }
    }
}
