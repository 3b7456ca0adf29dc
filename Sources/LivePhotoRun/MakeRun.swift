import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoWriting

/// One `lpcheck make`: a Live Photo pair from any still and movie, written into a folder.
public struct MakeRun {
    public var still: String
    public var movie: String
    /// `make CLIP`: one input, a movie (or an animated GIF), the still made from its frame.
    public var clipInput: String?
    /// make CLIP's still, limits, GIF settings and codec budget.
    public var clip = MakePlanner.ClipSettings()
    /// make CLIP --to motion-photo: one `NAME.MP.heic`/`.MP.jpg`, converted from the pair made
    /// (staged under temporary names, never renamed into place).
    public var to = ConversionTarget.livePhoto
    /// make CLIP: the seconds of a clip over 6 s the movie shows around the moment (0: all of it).
    public var movieSeconds = 3.0
    /// Frames made (done, total) for a progress bar, and its end; nil shows none.
    public var progress: (@Sendable (Int, Int) -> Void)?
    public var finishProgress: (() -> Void)?
    public var output: String
    /// The content identifier to write; nil for one made from the inputs' paths and sizes.
    public var identifier: String?
    public var options = RepairOptions()
    public var force = false
    /// `wallpaper`: the lock screen's keys too, and what the wallpaper's rules find that make
    /// cannot change (a JPEG still, a long movie, a moment asked for on the first frame).
    public var profile = Target.photos
    /// `keyphoto STILL MOVIE`: the pair's still, whose key photo the movie's frame replaces (its
    /// Exif and MakerNote carried over); make CLIP runs on the movie.
    public var keyPhotoOf: String?
    /// keyphoto without --output: the new pair replaces the old one where it is (backups by `options.backup`).
    public var inPlace = false
    /// The moment as a percent of the video's duration as its track states it (keyphoto
    /// --percent); a movie that gives none is left to the planner, which names it.
    public var percent: Double?
    /// Plan and print only (keyphoto --dry-run): no folder made, nothing written. The still is
    /// still made (by the codec helper, in memory): the plan states its size and bytes.
    public var dryRun = false
    public var io: RunIO

    public init(still: String, movie: String, output: String, io: RunIO) {
        (self.still, self.movie, self.output, self.io) = (still, movie, output, io)
    }

    /// `make CLIP`.
    public init(clip: String, output: String, io: RunIO) {
        (self.still, self.movie, self.clipInput, self.output, self.io) = (clip, clip, clip, output, io)
    }

    /// `--format json`: the plan text is not printed; one document says what was written
    /// (Reports/make.schema.json).
    public var json = false
    /// The plans applied, for the JSON document.
    let record = Locked<[ItemPlan]>([])

    func say(_ line: String) { if !json { io.output(line + "\n") } }

    /// Applies a plan and records it for the JSON document.
    func apply(_ plan: ItemPlan, options: RepairOptions) -> ItemOutcome {
        record.withLock { $0.append(plan) }
        return PlanWriter.apply(plan, options: options)
    }

    public func run() throws {
        if let clipInput, keyPhotoOf == clipInput {
            try runMotionPhotoKeyPhoto(clipInput)
        } else if let clipInput {
            try runClip(clipInput)
        } else {
            try runPair()
        }
        if json { io.output(document().serialized() + "\n") }
    }

    /// What was written (Reports/make.schema.json): the last plan applied (a motion photo's
    /// conversion), with the reasons of every plan.
    func document() -> JSONValue {
        let plans = record.current
        let last = plans.last
        let inputs: [String] = keyPhotoOf.map { $0 == movie ? [$0] : [$0, movie] } ?? clipInput.map { [$0] } ?? [still, movie]
        let command = keyPhotoOf == nil ? "make" : "keyphoto"
        return .object([
            ("tool", .string("lpcheck")), ("version", .string(Release.version)), ("command", .string(command)),
            ("inputs", .array(inputs.map(JSONValue.string))),
            ("dryRun", .bool(dryRun)),
            // keyphoto of a motion photo writes a motion photo.
            ("to", .string((keyPhotoOf != nil && keyPhotoOf == clipInput ? ConversionTarget.motionPhoto : to).rawValue)),
            ("identifier", .optional(plans.first?.edits.identifier ?? last?.files.first?.identifier)),
            ("moment", plans.first?.edits.moment.map { .object([("seconds", .double($0.seconds)), ("origin", .string($0.origin.rawValue))]) } ?? .null),
            ("outputs", PlanText.outputsJSON(last?.files ?? [])),
            ("reasons", .array(plans.flatMap(\.reasons).map(JSONValue.string))),
        ])
    }

    /// `make STILL MOVIE`.
    func runPair() throws {
        try RunSettings.refuseObjects([still, movie], command: "make", io: io)
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
        let base = ((still as NSString).lastPathComponent as NSString).deletingPathExtension
        let stillExtension = stillFile.format == .jpeg ? "JPG" : "HEIC"
        let destinations = [still: output + "/" + base + "." + stillExtension, movie: output + "/" + base + ".MOV"]
        try refuseOutputs(Array(destinations.values), inputs: [still, movie])
        var options = self.options
        options.backup = false
        let chosen = identifier?.uppercased() ?? MakePlanner.identifier(still: FileFacts(stillFile), movie: FileFacts(movieFile))
        var plan: ItemPlan
        do {
            plan = try MakePlanner.pairPlan(still: stillFile, movie: movieFile, identifier: chosen, options: options, destinations: destinations, wallpaper: profile == .wallpaper)
        } catch {
            // The inputs cannot be made into the pair asked for (a frame past the movie's end, a
            // still or movie its planner cannot read): the input's problem, nothing attempted.
            io.error("lpcheck: nothing written: \(error)")
            throw RunFailure(status: 2)
        }
        // The folder is made once the plan holds: a refused make leaves nothing behind.
        try OutputFolder.make(output, io: io)
        say(PlanText.describe(plan, force: force, size: PlanText.newBytesFirst, inputKeepsLosses: true, allowLoss: options.allowLoss, allowDamaged: options.allowDamaged))
        // Losses are notes here (the inputs stay as they are); damage waits for --force.
        plan.losses = []
        options.force = force
        let outcome = apply(plan, options: options)
        if let failure = outcome.failure {
            io.error("lpcheck: nothing written: \(failure.terminalSafe)")
            throw RunFailure(status: 1)
        }
        if profile == .wallpaper, let still = destinations[still], let movie = destinations[movie] {
            for line in MakePlanner.wallpaperLimits(still: still, movie: movie) { say(line.terminalSafe) }
        }
        say("content identifier: \(chosen)")
    }

    /// Refuses outputs that are links, inputs, or (without --force) existing files.
    func refuseOutputs(_ destinations: [String], inputs: [String]) throws {
        do {
            try MakePlanner.refuseOutputs(destinations, inputs: inputs, force: force)
        } catch {
            io.error("lpcheck: \(error.description.terminalSafe)")
            throw RunFailure(status: error.status)
        }
    }

    /// `make CLIP` (a movie or a GIF), planned by `MakePlanner.clipPlan`, then applied, or for
    /// `--to motion-photo` staged and converted.
    func runClip(_ clip: String) throws {
        try RunSettings.refuseObjects([clip] + (keyPhotoOf.map { [$0] } ?? []), command: keyPhotoOf == nil ? "make" : "keyphoto", io: io)
        var request = MakePlanner.ClipRequest(input: clip, folder: output, settings: self.clip)
        var options = self.options
        // The video's frames as shown, to the end of the last.
        if let percent, let last = MediaFile.inspect(path: clip, options: .check).movie?.videoFrames().last {
            options.time = (last.start + last.duration) * percent / 100
        }
        (request.options, request.identifier, request.movieSeconds, request.force) = (options, identifier, movieSeconds, force)
        var applying = self.options
        (request.wallpaper, request.toMotionPhoto, request.keyPhotoOf, request.inPlace) = (profile == .wallpaper, to == .motionPhoto, keyPhotoOf, inPlace)
        // A GIF's movie is encoded before the plan can be said whole: what will be encoded is
        // said first (the encoding takes a while).
        if !json, GIFStructure.isGIF(MakePlanner.head(clip)), let job = try? MakePlanner.gifJob(clip, settings: self.clip, options: options) {
            let said = [job.warning, job.reasons.first.map { String($0.dropFirst("movie: ".count)) }].compactMap { $0 }.joined(separator: "; ")
            say("making \(clip.terminalSafe)'s movie (re-encoded): \(said.terminalSafe)")
            io.flush()
        }
        let made: MakePlanner.ClipPlan
        do {
            made = try MakePlanner.clipPlan(request, prepareFolder: { if !dryRun && !inPlace { try OutputFolder.make(output, io: io) } }, progress: progress, finished: finishProgress)
        } catch let failure as MakePlanner.ClipFailure {
            io.error("lpcheck: \(failure.description.terminalSafe)")
            throw RunFailure(status: failure.status)
        }
        defer { made.intermediate.map(SafeFileWriter.discard) }
        func fail(_ message: String, status: Int32) -> RunFailure {
            io.error("lpcheck: \(made.failure(message, status: status).description.terminalSafe)")
            return RunFailure(status: status)
        }
        var plan = made.plan
        say(PlanText.describe(plan, force: force, size: PlanText.newBytesFirst, inputKeepsLosses: true, shownAs: made.named == made.read ? [:] : [made.read: made.named], allowLoss: options.allowLoss, allowDamaged: options.allowDamaged))
        plan.losses = []
        plan.proveClean = true
        (applying.backup, applying.force) = (inPlace && options.backup, force)
        if dryRun {
            record.withLock { $0.append(plan) }
            say("(dry run: nothing written)")
            return
        }
        if to == .motionPhoto { return try motionPhoto(from: plan, named: made.named, path: made.motionPhotoPath, options: applying, fail: fail) }
        let outcome = apply(plan, options: applying)
        if let failure = outcome.failure { throw fail(failure, status: 1) }
        say("content identifier: \(made.identifier)")
    }

    /// make CLIP --to motion-photo: the pair is staged and verified under temporary names, then
    /// converted as `convert --to motion-photo` converts a pair (its motion-photo rules read the
    /// output back); the staged pair is removed whatever happens.
    func motionPhoto(from plan: ItemPlan, named: String, path: String, options: RepairOptions, fail: (String, Int32) -> RunFailure) throws {
        let staged: [(FilePlan, SafeFileWriter.Staged)]
        do { staged = try PlanWriter.stage(plan, options: options) } catch { throw fail("\(error)", 1) }
        defer { for (_, file) in staged { SafeFileWriter.discard(file) } }
        guard let still = staged.first(where: { $0.0.made })?.1.temporary, let movie = staged.first(where: { !$0.0.made })?.1.temporary else {
            throw fail("make planned no still and movie to convert", 1)
        }
        let item = CheckItem(kind: .pair, still: FileFacts(MediaFile.inspect(path: still, options: .check)),
                             movie: FileFacts(MediaFile.inspect(path: movie, options: .check)), pairedBy: .identifier)
        let base = ((named as NSString).lastPathComponent as NSString).deletingPathExtension
        let conversion = Converter.plan(item, to: .motionPhoto, folder: output, options: options, name: base)
        say(PlanText.describe(conversion, force: force, size: PlanText.newBytesFirst, allowLoss: options.allowLoss, allowDamaged: options.allowDamaged))
        record.withLock { $0.append(plan) }
        let outcome = apply(conversion, options: options)
        if let failure = outcome.failure { throw fail(failure, 1) }
        say("motion photo: \(path.terminalSafe)")
    }
}
