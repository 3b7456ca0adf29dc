import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoRun
import LivePhotoCodecProtocol
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

struct Make: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Make a Live Photo pair from a still and a movie, or from one movie or GIF, never re-encoding a movie's samples.",
        discussion: """
        make STILL MOVIE writes OUTPUT/<still name>.<still extension> and OUTPUT/<still name>.MOV: \
        the same identifier (--identifier, else one derived from the inputs, so a rerun writes the \
        same) in both, the QuickTime brand for the movie, and a still-image-time track at \
        --time/--frame (default: the middle frame). Media samples are copied, never decoded. The \
        inputs are not changed. An input with an error of the damage rules (truncated, unreadable \
        structure, sample data outside the file), or an output that the rules find an error in \
        that the inputs did not have, is refused without --force.

        make CLIP (a MOV, MP4 or M4V movie, or an animated GIF) writes OUTPUT/<clip name>.HEIC and .MOV: the movie as \
        above (an MP4 remuxed to MOV, its samples copied), the still the frame shown at the moment, \
        as displayed (the track's rotation as the still's irot and Orientation), with the movie's \
        capture time, device and place in its Exif. For an HEVC (hvc1) movie whose frame at the \
        moment is a sync sample, the HEIC's image is that sample's coded picture, byte for byte; \
        --lossless-still moves the moment to the nearest sync sample so that it is (on an H.264 \
        movie or with --still jpeg the moment stays and the still is encoded). A Live Photo's \
        movie whose still was lost keeps its content identifier and its moment. The pair is \
        read back before it is renamed into place and must bring in no finding at all. An hev1 \
        movie (parameter sets inside the samples, which Apple's players refuse) is refused.

        make GIF (an animated GIF) composites its frames as browsers show them (disposal 1, 2 and \
        3, transparency over --background, local palettes, interlace, frames smaller than or \
        offset in the screen), encodes them (H.264, or --codec hevc as hvc1), each shown for its \
        own delay: delays under 2 cs are shown as 10 cs, as browsers do. Each GIF pixel is shown \
        as a 2×2 block (--scale), so that 4:2:0 chroma keeps its colour; at --scale 1 odd sides \
        are padded to even ones, which 4:2:0 needs. The still is the GIF frame shown at the moment.

        Exit status: 0 written (or, with --dry-run, planned); 1 the writing or its read-back \
        failed; 2 bad usage, inputs that cannot be made into what is asked (unreadable, a moment \
        past the movie's end, over a limit), or an output that exists.
        """
    )

    @Argument(help: "The still (JPEG or HEIC) and the movie (MOV or MP4); or one movie or animated GIF (CLIP) to make both from.")
    var inputs: [String]

    @Option(name: .customLong("still"), help: "make CLIP: the still's format, heic (default) or jpeg.")
    var stillFormat: MakePlanner.StillFormat = .heic

    @Flag(help: "make CLIP: move the moment to the nearest sync sample and store its coded picture as the HEIC still, byte for byte (HEVC movies; elsewhere the moment stays and the still is encoded).")
    var losslessStill = false

    @Option(help: "make CLIP: refuse a clip whose frames claim more pixels than this (default \(CodecLimits.maxPixels); \(CodecLimits.maxSide) a side).")
    var maxPixels: Int?

    @Flag(help: "Do not show a progress bar (make GIF shows one on a terminal from 50 frames).")
    var noProgress = false

    @Option(help: "text (default: the plan, then what was written) or json (one document of what was written, Reports/make.schema.json).")
    var format: Convert.OutputFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Option(help: "make CLIP: live-photo (default: a still and a movie) or motion-photo (one NAME.MP.heic or NAME.MP.jpg, converted from that pair as convert --to motion-photo does).")
    var to: ConversionTarget = .livePhoto

    @Option(help: "make CLIP: a clip over 6 s (longer than Photos is known to keep) is shown for this many seconds around the moment, its samples kept (an edit list; default 3, as cameras record; 0 shows it all).")
    var movieSeconds: Double = 3

    @Option(help: "make GIF: the colour transparent pixels are shown over, RRGGBB (default FFFFFF, white).")
    var background: String = "FFFFFF"

    @Option(help: "make GIF: the movie's codec, h264 (default) or hevc (written as hvc1, as Apple requires).")
    var codec: VideoCodec = .h264

    @Option(help: "make GIF: refuse a GIF of more frames than this (default 10000).")
    var maxFrames: Int?

    @Option(help: "make GIF: show each GIF pixel as a SCALE×SCALE block (default 2, so that 4:2:0 chroma keeps every pixel's colour; more under 8 pixels a side; 1 when twice the GIF passes 4096 a side).")
    var scale: Int?

    @Option(name: .shortAndLong, help: "Folder for the pair (created if missing).")
    var output: String

    @Option(help: "The content identifier (a UUID; default: one derived from the inputs).")
    var identifier: String?

    @OptionGroup var placement: PlacementOptions

    @OptionGroup(title: "Codec budget (make CLIP)") var codecBudget: CodecBudgetOptions

    @Flag(help: "Replace files already in the output folder; also accepts what --allow-loss and --allow-damaged accept.")
    var force = false

    @Flag(help: "Apply plans that lose what they name (the LOSES lines) without --force.")
    var allowLoss = false

    @Flag(help: "Write from damaged input (the DAMAGED INPUT lines), carrying its damage on and adding none, without --force.")
    var allowDamaged = false

    @Flag(help: "Refuse a write after which an input's Content Credentials (C2PA) no longer bind; the plan names them either way.")
    var keepCredentials = false

    @Option(help: "What the pair is for: photos (default) or wallpaper, which also writes the lock screen's keys of iOS 17 cameras (live-photo.auto, live-photo.vitality-score) and says what it cannot do without re-encoding.")
    var profile: Target = .photos

    func validate() throws {
        guard (1...2).contains(inputs.count) else { throw ValidationError("make takes a still and a movie, or one movie (CLIP)") }
        try requireOutputPath(output)
        if inputs.count == 2, stillFormat != .heic || losslessStill || maxPixels != nil || maxFrames != nil || codec != .h264 || background != "FFFFFF" {
            throw ValidationError("--still, --lossless-still, --max-pixels, --max-frames, --codec and --background are for make CLIP (one input)")
        }
        guard background.count == 6, background.allSatisfy(\.isHexDigit) else { throw ValidationError("--background takes RRGGBB, six hexadecimal digits") }
        if let maxFrames, maxFrames < 1 { throw ValidationError("--max-frames must be at least 1") }
        if let scale, !(1...64).contains(scale) { throw ValidationError("--scale takes 1 to 64") }
        // A window of microseconds is a still, not a Live Photo: it would pass every rule and never move.
        guard movieSeconds.isFinite, movieSeconds == 0 || (0.5...86_400).contains(movieSeconds) else {
            throw ValidationError("--movie-seconds takes 0 (the whole clip) or 0.5 to 86400 seconds")
        }
        if inputs.count == 2, scale != nil || to != .livePhoto { throw ValidationError("--scale and --to are for make CLIP (one input)") }
        if let maxPixels, maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
        if profile == .googlePhotos { throw ValidationError("make writes Live Photos; for Google Photos, convert them: lpcheck convert DIR --to motion-photo") }
        if let identifier, !IdentifierShape.isUUID(identifier) {
            throw ValidationError("--identifier must be a UUID such as 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
        }
    }

    func run() throws {
        var run = inputs.count == 1 ? MakeRun(clip: inputs[0], output: output, io: .standard)
            : MakeRun(still: inputs[0], movie: inputs[1], output: output, io: .standard)
        (run.clip.stillFormat, run.clip.losslessStill) = (stillFormat, losslessStill)
        if let maxPixels { run.clip.limits.maxPixels = maxPixels }
        run.clip.budget = codecBudget.budget
        if let maxFrames { run.clip.maxFrames = maxFrames }
        (run.clip.gifScale, run.to, run.json, run.movieSeconds) = (scale, to, format == .json || json, movieSeconds)
        // A bar on a terminal only, not for JSON (NO_COLOR turns colour off, not the bar).
        if !noProgress && format == .text && !json && isatty(2) == 1 {
            (run.progress, run.finishProgress) = (ProgressBar.frames, ProgressBar.finish)
        }
        (run.clip.background, run.clip.codec) = (background.uppercased(), codec)
        (run.identifier, run.force, run.options.time, run.options.frame, run.profile) = (identifier, force, placement.time, placement.frame, profile)
        (run.options.allowLoss, run.options.allowDamaged) = (allowLoss, allowDamaged)
        run.options.keepCredentials = keepCredentials
        try exiting { try run.run() }
    }
}

extension MakePlanner.StillFormat: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}
