import ArgumentParser
import Foundation
import LivePhotoCheck
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

    func validate() throws {
        if let identifier, !IdentifierShape.isUUID(identifier) {
            throw ValidationError("--identifier must be a UUID such as 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
        }
    }

    func run() throws {
        let stillFile = MediaFile.inspect(path: still, options: .check)
        let movieFile = MediaFile.inspect(path: movie, options: .check)
        guard stillFile.error == nil, stillFile.format == .jpeg || stillFile.format == .heic || stillFile.format == .heif else {
            printError("lpcheck: \(still.terminalSafe) is not a readable JPEG or HEIC still: \(stillFile.error?.description.terminalSafe ?? stillFile.format.rawValue)")
            throw ExitCode(2)
        }
        guard movieFile.error == nil, movieFile.format.isMovie, movieFile.movie != nil else {
            printError("lpcheck: \(movie.terminalSafe) is not a readable movie: \(movieFile.error?.description.terminalSafe ?? movieFile.format.rawValue)")
            throw ExitCode(2)
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let base = ((still as NSString).lastPathComponent as NSString).deletingPathExtension
        let stillExtension = stillFile.format == .jpeg ? "JPG" : "HEIC"
        let destinations = [still: output + "/" + base + "." + stillExtension, movie: output + "/" + base + ".MOV"]
        for destination in destinations.values where PathBytes.exists(destination) && !force {
            printError("lpcheck: \(destination.terminalSafe) exists (use --force to replace it)")
            throw ExitCode(2)
        }
        var options = RepairOptions()
        options.time = placement.time
        options.frame = placement.frame
        options.backup = false
        let stillFacts = FileFacts(stillFile), movieFacts = FileFacts(movieFile)
        let chosen = identifier?.uppercased()
            ?? DeterministicIdentifier.make(["make", stillFacts.path, String(stillFacts.size), movieFacts.path, String(movieFacts.size)].joined(separator: "\n"))
        let moment: Moment
        do {
            moment = try RepairPlanner.moment(forMake: movieFacts.movie ?? MovieFacts(), options: options)
        } catch {
            printError("lpcheck: nothing written: \(error)")
            throw ExitCode(1)
        }
        var item = CheckItem(kind: .pair, still: stillFacts, movie: movieFacts, pairedBy: .name)
        item.findings = PlanWriter.fileFindings(item)
        // make always writes both markers, the track and the brand, whatever is there already.
        var plan = PlanWriter.plan(item, edits: ItemEdits(identifier: chosen, moment: moment, brand: true), acting: [], destinations: destinations)
        for reason in plan.reasons { print(reason.terminalSafe) }
        for file in plan.files {
            print("\(file.destination.terminalSafe): \(file.patch.newBytes) new bytes, \(file.patch.outputSize) in all")
            for note in file.patch.notes { print("  - \(note.terminalSafe)") }
        }
        for loss in plan.losses { print("  note: \(loss.terminalSafe) (the input keeps them)") }
        // Losses are notes here (the inputs stay as they are); damage waits for --force.
        plan.losses = []
        for damage in plan.damage { print("  DAMAGED INPUT: \(damage.terminalSafe)\(force ? "" : " (needs --force)")") }
        var makeOptions = options
        makeOptions.force = force
        let outcome = PlanWriter.apply(plan, options: makeOptions)
        if let failure = outcome.failure {
            printError("lpcheck: nothing written: \(failure.terminalSafe)")
            throw ExitCode(1)
        }
        print("content identifier: \(chosen)")
    }
}
