import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

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
        the movie last as a self-contained MP4 (timed-metadata and PCM audio tracks dropped, samples \
        copied), its timestamp the still moment.

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

    @OptionGroup var placement: PlacementOptions

    @Flag(help: "Replace existing outputs and apply plans that lose something (the plan names it).")
    var force = false

    @Flag(help: "Do not show a progress bar.")
    var noProgress = false

    @OptionGroup var settings: ConfigurationOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func run() throws {
        let report = try settings.readableReport(paths)
        var options = RepairOptions()
        options.time = placement.time
        options.frame = placement.frame
        options.force = force
        options.backup = false
        if !dryRun { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
        ConfigurationOptions.removeLeftovers(report, folders: [output], dryRun: dryRun, json: format == .json)
        let items = report.items.filter { $0.kind == to.source }
        let showProgress = !noProgress && isatty(2) == 1 && items.count >= 50
        var results: [(plan: ItemPlan, outcome: ItemOutcome?)] = []
        // Same-named inputs from different folders would land on one output: the first keeps
        // it, even with --force (which replaces files from before this run, not this run's own).
        var claimed: [String: String] = [:]
        for (index, item) in items.enumerated() {
            var plan = Converter.plan(item, to: to, folder: output, options: options)
            let inputs = item.files.map(\.path).joined(separator: " + ")
            for file in plan.files {
                if let owner = claimed[file.destination] {
                    plan.problems.append("\(file.destination) is written by another input of this run (\(owner)); convert this one into another folder")
                }
            }
            if plan.problems.isEmpty { for file in plan.files { claimed[file.destination] = inputs } } else { plan.files = [] }
            let outcome = dryRun ? nil : Repairer.apply(plan, options: options)
            results.append((plan, outcome))
            if format == .text { print(Self.describe(plan, outcome: outcome, force: force)) }
            if showProgress { ProgressBar.update(index + 1, items.count) }
        }
        if showProgress { ProgressBar.finish() }
        let unreadable = ConfigurationOptions.refuseUnreadable(report)
        let failed = results.filter { Self.status($0.plan, $0.outcome, force: force) == "failed" || Self.status($0.plan, $0.outcome, force: force) == "blocked" }.count
        if format == .json {
            print(Self.document(results, target: to, dryRun: dryRun, force: force).serialized())
        } else {
            let verb = dryRun ? "would convert" : "converted"
            let kind = to == .livePhoto ? "motion photo(s)" : "Live Photo pair(s)"
            print("\(items.count) \(kind) found in \(report.fileCount) files: \(results.count - failed) \(verb), \(failed) \(dryRun ? "blocked" : "failed or refused").")
            if unreadable > 0 { print("\(unreadable) file(s) not read (above): nothing converted from them.") }
            if dryRun { print("(dry run: nothing written)") }
        }
        if failed > 0 || unreadable > 0 { throw ExitCode(1) }
    }

    /// converted, would-convert, blocked (dry run: a problem or a loss without --force), failed.
    static func status(_ plan: ItemPlan, _ outcome: ItemOutcome?, force: Bool) -> String {
        guard let outcome else { return plan.problems.isEmpty && (!plan.needsForce || force) ? "would-convert" : "blocked" }
        return outcome.failure == nil ? "converted" : "failed"
    }

    static func describe(_ plan: ItemPlan, outcome: ItemOutcome?, force: Bool) -> String {
        var out = "\(plan.item.kind.rawValue) " + plan.item.files.map { $0.path.terminalSafe }.joined(separator: " + ") + "\n"
        for reason in plan.reasons { out += "  because: \(reason.terminalSafe)\n" }
        for file in plan.files {
            out += "  \(file.destination.terminalSafe): \(file.patch.outputSize) bytes, \(file.patch.newBytes) of them new\n"
            for note in file.patch.notes { out += "    - \(note.terminalSafe)\n" }
        }
        for damage in plan.damage { out += "  DAMAGED INPUT: \(damage.terminalSafe)\(force ? "" : " (needs --force)")\n" }
        for loss in plan.losses { out += "  LOSES: \(loss.terminalSafe)\(force ? "" : " (needs --force)")\n" }
        for problem in plan.problems { out += "  cannot: \(problem.terminalSafe)\n" }
        if let outcome {
            if let failure = outcome.failure { out += "  FAILED, nothing written: \(failure.terminalSafe)\n" }
            for file in outcome.written { out += "  wrote \(file.path.terminalSafe)\n" }
        }
        return String(out.dropLast())
    }

    static func document(_ results: [(plan: ItemPlan, outcome: ItemOutcome?)], target: ConversionTarget, dryRun: Bool, force: Bool) -> JSONValue {
        .object([
            ("tool", .string("lpcheck")), ("version", .string(LPCheck.configuration.version)),
            ("to", .string(target.rawValue)), ("dryRun", .bool(dryRun)),
            ("items", .array(results.map { result in
                .object([
                    ("kind", .string(result.plan.item.kind.rawValue)),
                    ("inputs", .array(result.plan.item.files.map { .string($0.path) })),
                    ("status", .string(status(result.plan, result.outcome, force: force))),
                    ("identifier", .optional(result.plan.edits.identifier ?? result.plan.files.first?.identifier)),
                    ("outputs", .array(result.plan.files.map { file in
                        .object([
                            ("path", .string(file.destination)), ("size", .int(file.patch.outputSize)), ("newBytes", .int(file.patch.newBytes)),
                            ("notes", .array(file.patch.notes.map(JSONValue.string))),
                        ])
                    })),
                    ("reasons", .array(result.plan.reasons.map(JSONValue.string))),
                    ("losses", .array(result.plan.losses.map(JSONValue.string))),
                    ("damage", .array(result.plan.damage.map(JSONValue.string))),
                    ("problems", .array(result.plan.problems.map(JSONValue.string))),
                    ("failure", .optional(result.outcome?.failure)),
                ])
            })),
        ])
    }
}
