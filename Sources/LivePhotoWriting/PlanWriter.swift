import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// Turns an item's edits into file plans through LivePhotoFormats' writers, applies them with safe
/// replacement, and verifies what was written.
public enum PlanWriter {
    /// Plans the files of one item for `edits`. `make` calls this directly with the edits it wants;
    /// `repair` through `RepairPlanner`, which decides the edits per identifier group.
    public static func plan(_ item: CheckItem, edits: ItemEdits, acting findings: [Finding]? = nil, destinations: [String: String] = [:]) -> ItemPlan {
        var plan = ItemPlan(item: item, edits: edits)
        let kinds = edits.kinds
        for finding in findings ?? item.findings {
            if let kind = RuleRegistry.fixKind(finding.rule), kinds.contains(kind) { plan.fixes.append(finding) } else { plan.leaves.append(finding) }
        }
        if let moment = edits.moment { plan.reasons.append("still moment: \(moment.description)") }
        do {
            if let still = item.still, let identifier = edits.identifier, still.contentIdentifier != identifier || destinations[still.path] != nil {
                let file = MediaFile.inspect(path: still.path, options: .check)
                guard let model = file.still, file.error == nil else { throw RepairProblem("\(still.path): \(file.error?.description ?? "not a still")") }
                let source = try FileSource(path: still.path)
                let identity = try SafeFileWriter.Identity.of(still.path)
                let patch = try StillRewriter.settingContentIdentifier(model, source: source, identifier: identifier)
                plan.files.append(FilePlan(path: still.path, destination: destinations[still.path] ?? still.path, patch: patch, identity: identity, identifier: identifier))
            } else if let still = item.still, let destination = destinations[still.path] {
                plan.files.append(FilePlan(path: still.path, destination: destination, patch: try copyPatch(still.path), identity: nil, identifier: edits.identifier))
            }
            if let movie = item.movie {
                var movieEdits = MovieEdits()
                // The identifier is written where Photos reads it: moov/meta with an mdta handler.
                let misplaced = movie.movie.map { $0.contentIdentifierLocation != nil && ($0.contentIdentifierLocation != .movieMeta || $0.metadataHandler != "mdta") } ?? false
                if let identifier = edits.identifier, movie.contentIdentifier != identifier || misplaced || destinations[movie.path] != nil {
                    movieEdits.contentIdentifier = identifier
                }
                let placement = edits.moment.map { StillImagePlacement(seconds: $0.seconds, value: $0.value) }
                movieEdits.stillImageTime = placement
                movieEdits.quickTimeBrand = edits.brand && !(movie.movie?.brand == "qt  ")
                movieEdits.captureDate = edits.captureDate
                movieEdits.wallpaperKeys = edits.wallpaperKeys
                movieEdits.window = edits.window
                movieEdits.stillIsFrame = edits.stillIsFrame
                if !movieEdits.isEmpty {
                    let file = MediaFile.inspect(path: movie.path, options: .check)
                    guard let model = file.movie, file.error == nil else { throw RepairProblem("\(movie.path): \(file.error?.description ?? "not a movie")") }
                    let source = try FileSource(path: movie.path)
                    let identity = try SafeFileWriter.Identity.of(movie.path)
                    let patch = try MovieRewriter.rewrite(model, source: source, edits: movieEdits)
                    plan.losses += patch.losses
                    plan.files.append(FilePlan(path: movie.path, destination: destinations[movie.path] ?? movie.path, patch: patch, identity: identity,
                                               identifier: movieEdits.contentIdentifier ?? movie.contentIdentifier, stillImageTime: placement,
                                               quickTimeBrand: movieEdits.quickTimeBrand))
                } else if let destination = destinations[movie.path] {
                    plan.files.append(FilePlan(path: movie.path, destination: destination, patch: try copyPatch(movie.path), identity: nil, identifier: edits.identifier))
                }
            }
            for index in plan.files.indices { plan.files[index].recordLedger([LedgerInput(path: plan.files[index].path)]) }
            // Replacing a file that has other names splits them: the other names keep the old bytes.
            for file in plan.files where file.destination == file.path {
                if let links = file.identity?.links, links > 1 {
                    plan.losses.append("\(file.path) has \(Plural.count(Int(links) - 1, "other name")) (hard links); they would keep the old content")
                }
            }
        } catch {
            plan.problems.append("\(error)")
            plan.files = []
            plan.leaves += plan.fixes
            plan.fixes = []
        }
        plan.noteInputDamage()
        return plan
    }

    static func copyPatch(_ path: String) throws -> FilePatch {
        FilePatch(pieces: [.copy(0..<(try SafeFileWriter.Identity.of(path)).size)], notes: ["copied unchanged"])
    }

    /// Writes the plan's files to temporary files, reads them back and re-checks them, then renames
    /// them all into place. A failure before the renames leaves every original untouched. A plan
    /// that loses something is refused unless `options.force`. Every writer's plans come here:
    /// repair's, convert's, make's and export's. `progress` hears the codec helper's frames.
    public static func apply(_ plan: ItemPlan, options: RepairOptions, progress: (@Sendable (Int, Int) -> Void)? = nil) -> ItemOutcome {
        var outcome = ItemOutcome(plan: plan)
        if options.keepCredentials, let lost = plan.files.compactMap(\.credentialsLost).first {
            outcome.failure = "--keep-credentials: \(lost)"
            return outcome
        }
        var staged: [(FilePlan, SafeFileWriter.Staged)] = []
        do {
            staged = try stage(plan, options: options, progress: progress)
            FaultInjection.step("verified")
            for (planned, file) in staged {
                let inPlace = file.destination == file.original
                outcome.written.append(try SafeFileWriter.commit(file, backup: options.backup && (inPlace || planned.replaces), keepTimes: options.keepTimes && inPlace))
            }
        } catch {
            for (_, file) in staged where !outcome.written.contains(where: { $0.path == file.destination }) { SafeFileWriter.discard(file) }
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// The plan's files written to temporary files beside their destinations, read back and
    /// verified, not renamed: the caller commits or discards them (make's motion photo is
    /// converted from a pair staged so). Nothing is left behind when it throws.
    public static func stage(_ plan: ItemPlan, options: RepairOptions, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [(FilePlan, SafeFileWriter.Staged)] {
        guard plan.problems.isEmpty else { throw RepairProblem(plan.problems.joined(separator: "; ")) }
        guard options.accepts(plan) else { throw RepairProblem(plan.refusal) }
        var staged: [(FilePlan, SafeFileWriter.Staged)] = []
        do {
            let inputs = plan.item.files.map(\.path)
            for file in plan.files {
                staged.append((file, try stage(file, inputs: inputs, force: options.force, progress: progress)))
                try file.readBack.check(staged[staged.count - 1].1.temporary, destination: file.destination)
            }
            switch plan.verification {
            case .item:
                try verify(staged, item: plan.item, kinds: plan.edits.kinds, force: options.force, clean: plan.proveClean)
            case .outputsAlone:
                for (file, written) in staged {
                    // With --force the input's own damage, which the plan named, is carried on;
                    // the output may add none.
                    let carried = options.force ? Set(plan.item.findings.filter { $0.path == file.path && $0.severity >= .error }.map(\.rule)) : []
                    try refuseDamage(written.temporary, destination: file.destination, carried: carried)
                }
            }
            if let budget = plan.stillShowsMoment { try compareStill(staged, budget: budget) }
        } catch {
            for (_, file) in staged { SafeFileWriter.discard(file) }
            throw error
        }
        return staged
    }

    /// One file staged: its patch, or what the codec helper produces. A new output is refused
    /// over an existing file (without `force`), an input or a link.
    static func stage(_ file: FilePlan, inputs: [String], force: Bool, progress: (@Sendable (Int, Int) -> Void)?) throws -> SafeFileWriter.Staged {
        if file.newOutput {
            if PathBytes.exists(file.destination) && !force { throw RepairProblem("\(file.destination) exists (use --force to replace it)") }
            try SafeFileWriter.refuseNewOutput(file.destination, inputs: inputs)
        }
        switch file.content {
        case .patch(let patch):
            return try SafeFileWriter.stage(patch, original: file.path, destination: file.destination, identity: file.identity, replacing: file.replaces)
        case .produced(let content):
            return try SafeFileWriter.stage(producedAs: file.destination, inputs: inputs) { output in try CodecHelper.produce(content, into: output, progress: progress) }
        }
    }

    /// Reads the temporary files back: identifiers, still-image-time and the rules of the fix
    /// kinds that were applied must hold, and (unless `force`) the whole rule set finds no error
    /// that the inputs did not have.
    static func verify(_ staged: [(FilePlan, SafeFileWriter.Staged)], item: CheckItem, kinds: Set<FixKind>, force: Bool = false, clean: Bool = false) throws {
        var still = item.still
        var movie = item.movie
        for (plan, file) in staged {
            let read = MediaFile.inspect(path: file.temporary, options: .check)
            if let error = read.error {
                // Blame the input when it is the input's damage that the output carries.
                let input = MediaFile.inspect(path: plan.path, options: .check)
                if let damage = input.error ?? input.warnings.first(where: { $0.code == .truncated }) {
                    throw RepairProblem("the input \(plan.path) is damaged (\(damage)); written from it, \(plan.destination) does not read back either (\(error))")
                }
                throw RepairProblem("the written \(plan.destination) does not read back: \(error)")
            }
            if let identifier = plan.identifier, read.contentIdentifier != identifier {
                throw RepairProblem("the written \(plan.destination) carries \(read.contentIdentifier ?? "no identifier"), not \(identifier)")
            }
            if let placement = plan.stillImageTime {
                guard let time = read.movie?.stillImageTime, time.value == Int64(placement.value), let seconds = time.seconds,
                      abs(seconds - placement.seconds) <= 1.0 / Double(max(1, time.mediaTimescale)) + 1e-9 else {
                    throw RepairProblem("the written \(plan.destination) has no still-image-time at \(placement.seconds) s")
                }
            }
            if let timestamp = plan.motionPhotoTimestampUs {
                guard let motion = read.still?.motionPhoto, motion.videoFound, let range = motion.movieRange, range.upperBound == file.size,
                      motion.presentationTimestampUs == timestamp, read.still?.embeddedMovie?.primaryVideoTrack != nil else {
                    throw RepairProblem("the written \(plan.destination) is not a motion photo whose movie is where its XMP says, last, with timestamp \(timestamp) µs")
                }
                let motionItem = CheckItem(kind: .motionPhoto, still: FileFacts(read))
                let failing = RuleRegistry.all.filter { $0.description.category == .motionPhoto }
                    .flatMap { $0.check(motionItem, context: RuleContext()) }.filter { $0.severity >= .warning }
                if let first = failing.first { throw RepairProblem("the written \(plan.destination) fails \(first.rule): \(first.message)") }
            }
            var facts = FileFacts(read)
            facts.path = plan.made ? plan.destination : plan.path
            if facts.isStill { still = facts } else { movie = facts }
        }
        var rechecked = item
        rechecked.still = still
        rechecked.movie = movie
        rechecked.kind = still != nil && movie != nil ? .pair : item.kind
        // Sharing is a fact of the whole library, not of these files: the planner settled it.
        rechecked.identifierConflict = false
        let remaining = RuleRegistry.rules(fixing: kinds).flatMap { $0.check(rechecked, context: RuleContext()) }
        if let first = remaining.first {
            throw RepairProblem("after writing, \(first.rule) still holds: \(first.message)")
        }
        if !force, let worse = newErrors(in: rechecked, against: item).first {
            throw RepairProblem("the output would be worse than its input: \(worse.rule) (error): \(worse.message)")
        }
        if clean {
            let before = Set(item.findings.map { "\($0.rule)\u{0}\($0.path ?? "")" })
            if let new = fileFindings(rechecked).first(where: { !before.contains("\($0.rule)\u{0}\($0.path ?? "")") }) {
                throw RepairProblem("the written pair has a finding its input did not: \(new.rule) (\(new.severity.rawValue)): \(new.message)")
            }
        }
    }

    /// Error findings of every rule on the written files that the inputs did not have (by rule
    /// and file). Relations to the rest of the library (absent partners, shared identifiers) are
    /// the planner's, not the files': they are not compared.
    static func newErrors(in output: CheckItem, against input: CheckItem) -> [Finding] {
        let before = Set(input.findings.filter { $0.severity >= .error }.map { "\($0.rule)\u{0}\($0.path ?? "")" })
        return fileFindings(output).filter { $0.severity >= .error && !before.contains("\($0.rule)\u{0}\($0.path ?? "")") }
    }

    /// Every rule's findings on the item's own files, at default severities, without the
    /// pairing rules (what the rest of a library holds) and the rules a check for Photos leaves
    /// out (the wallpaper's): what `make` knows of its inputs, and what an output is held to.
    public static func fileFindings(_ item: CheckItem) -> [Finding] {
        let context = RuleContext()
        return RuleRegistry.all.filter { $0.description.category != .pairing && Target.photos.reports($0.description) }.flatMap { $0.check(item, context: context) }
    }
}

public struct RepairProblem: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
