import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoRepair

/// Options shared by repair and make: where the still goes in the movie.
struct PlacementOptions: ParsableArguments {
    @Option(help: "Place the still at this time in the movie (seconds).")
    var time: Double?

    @Option(help: "Place the still on this video frame (0-based).")
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
        abstract: "Fix what the autofixable rules find, without re-encoding; prints the plan first.",
        discussion: """
        Identifiers missing or mismatched are written into the still's MakerNote (JPEG: Exif APP1; \
        HEIC: Exif item and iloc) and the movie's moov/meta keys/ilst. A missing or wrong \
        still-image-time track is replaced by one as cameras write it (int8 -1, one tick after an \
        empty edit, cdsc to the video) at the current moment when valid, else --time/--frame, else \
        the middle frame. Media data is never rewritten.

        Each file is written to a temporary file beside it, fsynced, read back and re-checked, then \
        renamed over the original; the original is kept in .lpcheck-backup/ beside it unless \
        --no-backup. A file that changes meanwhile is left alone.

        Exit status: 0 everything planned was fixed (or nothing needed fixing), 1 a repair failed \
        or findings remain that repair does not fix, 2 bad usage.
        """
    )

    @Argument(help: "Folders and files to repair.")
    var paths: [String]

    @Flag(help: "Print the plan only; write nothing.")
    var dryRun = false

    @Option(help: "Which identifier wins: still, movie or new (default: still, else movie, else new).")
    var prefer: IdentifierPreference = .still

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Do not keep the originals in .lpcheck-backup/.")
    var noBackup = false

    @Option(help: "Configuration file (as for check).")
    var config: String?

    func run() throws {
        var checker = Checker(roots: paths)
        if let config {
            do { checker.configuration = try Configuration.load(path: config) } catch {
                printError("lpcheck: \(error)")
                throw ExitCode(2)
            }
        }
        let report = checker.run()
        var options = RepairOptions()
        options.prefer = prefer
        options.time = placement.time
        options.frame = placement.frame
        options.backup = !noBackup
        let plans = Repairer.plan(report, options: options)
        if plans.isEmpty {
            print("Nothing to repair in \(report.fileCount) files.")
            return
        }
        var failed = false
        for plan in plans {
            print(describe(plan))
            if dryRun { continue }
            let outcome = Repairer.apply(plan, options: options)
            if let failure = outcome.failure {
                print("  FAILED, nothing written: \(failure.terminalSafe)")
                failed = true
            }
            for written in outcome.written {
                print("  wrote \(written.path.terminalSafe): \(written.newBytes) new bytes\(written.backup.map { ", original kept as \($0.terminalSafe)" } ?? "")")
            }
            if !plan.leaves.isEmpty { failed = failed || plan.leaves.contains { $0.severity == .error } }
        }
        if dryRun { print("(dry run: nothing written)") }
        if failed { throw ExitCode(1) }
    }

    func describe(_ plan: ItemPlan) -> String {
        var out = "\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ") + "\n"
        for finding in plan.fixes { out += "  fixes \(finding.rule): \(finding.message.terminalSafe)\n" }
        for file in plan.files {
            out += "  \(file.destination.terminalSafe): \(file.patch.newBytes) new bytes, \(file.patch.outputSize) in all\n"
            for note in file.patch.notes { out += "    - \(note.terminalSafe)\n" }
        }
        for finding in plan.leaves { out += "  leaves \(finding.rule) (\(finding.severity.rawValue)): \(finding.message.terminalSafe)\n" }
        for problem in plan.problems { out += "  cannot: \(problem.terminalSafe)\n" }
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }
}

struct Make: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a Live Photo pair from any JPEG/HEIC still and MOV/MP4 movie, without re-encoding.",
        discussion: """
        Writes OUTPUT/<still name>.<still extension> and OUTPUT/<still name>.MOV: the same \
        identifier (new unless --identifier) in both, the QuickTime brand for the movie, and a \
        still-image-time track at --time/--frame (default: the middle frame). Media samples are \
        copied, never decoded. The inputs are not changed.
        """
    )

    @Argument(help: "The still (JPEG or HEIC).")
    var still: String

    @Argument(help: "The movie (MOV or MP4).")
    var movie: String

    @Option(name: .shortAndLong, help: "Folder for the pair (created if missing).")
    var output: String

    @Option(help: "The content identifier (a UUID; default: a new one).")
    var identifier: String?

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Replace files already in the output folder.")
    var force = false

    func validate() throws {
        if let identifier, UUID(uuidString: identifier) == nil {
            throw ValidationError("--identifier must be a UUID such as 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
        }
    }

    func run() throws {
        let stillFile = MediaFile.inspect(path: still, options: .check)
        let movieFile = MediaFile.inspect(path: movie, options: .check)
        guard stillFile.error == nil, stillFile.format.isStill else {
            printError("lpcheck: \(still.terminalSafe) is not a readable still: \(stillFile.error?.description.terminalSafe ?? stillFile.format.rawValue)")
            throw ExitCode(2)
        }
        guard movieFile.error == nil, movieFile.format.isMovie else {
            printError("lpcheck: \(movie.terminalSafe) is not a readable movie: \(movieFile.error?.description.terminalSafe ?? movieFile.format.rawValue)")
            throw ExitCode(2)
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let base = ((still as NSString).lastPathComponent as NSString).deletingPathExtension
        let stillExtension = stillFile.format == .jpeg ? "JPG" : "HEIC"
        let destinations = [still: output + "/" + base + "." + stillExtension, movie: output + "/" + base + ".MOV"]
        for destination in destinations.values where FileManager.default.fileExists(atPath: destination) && !force {
            printError("lpcheck: \(destination.terminalSafe) exists (use --force to replace it)")
            throw ExitCode(2)
        }
        var options = RepairOptions()
        options.identifier = identifier?.uppercased() ?? Repairer.newIdentifier()
        options.time = placement.time
        options.frame = placement.frame
        options.backup = false
        var item = CheckItem(kind: .pair, still: FileFacts(stillFile), movie: FileFacts(movieFile), pairedBy: .name)
        // make always writes both markers and the track, whatever is there already.
        item.findings = ["still-missing-identifier", "movie-missing-identifier", "still-image-time-missing"].map {
            Finding(rule: $0, severity: .error, message: "make", path: nil)
        }
        let plan = Repairer.plan(item, options: options, destinations: destinations)
        for file in plan.files {
            print("\(file.destination.terminalSafe): \(file.patch.newBytes) new bytes, \(file.patch.outputSize) in all")
            for note in file.patch.notes { print("  - \(note.terminalSafe)") }
        }
        let outcome = Repairer.apply(plan, options: options)
        if let failure = outcome.failure {
            printError("lpcheck: nothing written: \(failure.terminalSafe)")
            throw ExitCode(1)
        }
        print("content identifier: \(options.identifier ?? "")")
    }
}
