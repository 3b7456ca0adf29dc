import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoRun
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

struct Make: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Make a Live Photo pair from any JPEG/HEIC still and MOV/MP4 movie, without re-encoding.",
        discussion: """
        Writes OUTPUT/<still name>.<still extension> and OUTPUT/<still name>.MOV: the same \
        identifier (--identifier, else one derived from the inputs, so a rerun writes the same) in \
        both, the QuickTime brand for the movie, and a still-image-time track at --time/--frame \
        (default: the middle frame). Media samples are copied, never decoded. The inputs are not changed. \
        An input with an error of the damage rules (truncated, unreadable structure, sample data \
        outside the file), or an output that the rules find an error in that the inputs did not \
        have, is refused without --force.
        """
    )

    @Argument(help: "The still (JPEG or HEIC).")
    var still: String

    @Argument(help: "The movie (MOV or MP4).")
    var movie: String

    @Option(name: .shortAndLong, help: "Folder for the pair (created if missing).")
    var output: String

    @Option(help: "The content identifier (a UUID; default: one derived from the inputs).")
    var identifier: String?

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Replace files already in the output folder, and write from an input with damage (the plan names it).")
    var force = false

    @Option(help: "What the pair is for: photos (default) or wallpaper, which also writes the lock screen's keys of iOS 17 cameras (live-photo.auto, live-photo.vitality-score) and says what it cannot do without re-encoding.")
    var profile: Target = .photos

    func validate() throws {
        if profile == .googlePhotos { throw ValidationError("make writes Live Photos; for Google Photos, convert them: lpcheck convert DIR --to motion-photo") }
        if let identifier, !IdentifierShape.isUUID(identifier) {
            throw ValidationError("--identifier must be a UUID such as 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
        }
    }

    func run() throws {
        var run = MakeRun(still: still, movie: movie, output: output, io: .standard)
        (run.identifier, run.force, run.options.time, run.options.frame, run.profile) = (identifier, force, placement.time, placement.frame, profile)
        try exiting { try run.run() }
    }
}
