import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

/// One `lpcheck make`: a Live Photo pair from any still and movie, written into a folder.
public struct MakeRun {
    public var still: String
    public var movie: String
    public var output: String
    /// The content identifier to write; nil for one made from the inputs' paths and sizes.
    public var identifier: String?
    public var options = RepairOptions()
    public var force = false
    public var io: RunIO

    public init(still: String, movie: String, output: String, io: RunIO) {
        (self.still, self.movie, self.output, self.io) = (still, movie, output, io)
    }

    func say(_ line: String) { io.output(line + "\n") }

    public func run() throws {
        let stillFile = MediaFile.inspect(path: still, options: .check)
        let movieFile = MediaFile.inspect(path: movie, options: .check)
        guard stillFile.error == nil, stillFile.format == .jpeg || stillFile.format == .heic || stillFile.format == .heif else {
            io.error("lpcheck: \(still.terminalSafe) is not a readable JPEG or HEIC still: \(stillFile.error?.description.terminalSafe ?? stillFile.format.rawValue)")
            throw RunFailure(status: 2)
        }
        guard movieFile.error == nil, movieFile.format.isMovie, movieFile.movie != nil else {
            io.error("lpcheck: \(movie.terminalSafe) is not a readable movie: \(movieFile.error?.description.terminalSafe ?? movieFile.format.rawValue)")
            throw RunFailure(status: 2)
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let base = ((still as NSString).lastPathComponent as NSString).deletingPathExtension
        let stillExtension = stillFile.format == .jpeg ? "JPG" : "HEIC"
        let destinations = [still: output + "/" + base + "." + stillExtension, movie: output + "/" + base + ".MOV"]
        for destination in destinations.values where PathBytes.exists(destination) && !force {
            io.error("lpcheck: \(destination.terminalSafe) exists (use --force to replace it)")
            throw RunFailure(status: 2)
        }
        var options = self.options
        options.backup = false
        let stillFacts = FileFacts(stillFile), movieFacts = FileFacts(movieFile)
        let chosen = identifier?.uppercased()
            ?? DeterministicIdentifier.make(["make", stillFacts.path, String(stillFacts.size), movieFacts.path, String(movieFacts.size)].joined(separator: "\n"))
        let moment: Moment
        do {
            moment = try RepairPlanner.moment(forMake: movieFacts.movie ?? MovieFacts(), options: options)
        } catch {
            io.error("lpcheck: nothing written: \(error)")
            throw RunFailure(status: 1)
        }
        var item = CheckItem(kind: .pair, still: stillFacts, movie: movieFacts, pairedBy: .name)
        item.findings = PlanWriter.fileFindings(item)
        // make always writes both markers, the track and the brand, whatever is there already.
        var plan = PlanWriter.plan(item, edits: ItemEdits(identifier: chosen, moment: moment, brand: true), acting: [], destinations: destinations)
        say(PlanText.describe(plan, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }, inputKeepsLosses: true))
        // Losses are notes here (the inputs stay as they are); damage waits for --force.
        plan.losses = []
        options.force = force
        let outcome = PlanWriter.apply(plan, options: options)
        if let failure = outcome.failure {
            io.error("lpcheck: nothing written: \(failure.terminalSafe)")
            throw RunFailure(status: 1)
        }
        say("content identifier: \(chosen)")
    }
}
