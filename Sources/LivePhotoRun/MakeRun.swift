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
        if let clipInput {
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
        return .object([
            ("tool", .string("lpcheck")), ("version", .string(Release.version)), ("command", .string("make")),
            ("inputs", .array((clipInput.map { [$0] } ?? [still, movie]).map(JSONValue.string))),
            ("to", .string(to.rawValue)),
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
        try OutputFolder.make(output, io: io)
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
            io.error("lpcheck: nothing written: \(error)")
            throw RunFailure(status: 1)
        }
        say(PlanText.describe(plan, force: force, size: PlanText.newBytesFirst, inputKeepsLosses: true))
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
        for destination in destinations.sorted() {
            do {
                try SafeFileWriter.refuseNewOutput(destination, inputs: inputs)
            } catch {
                io.error("lpcheck: nothing written: \("\(error)".terminalSafe)")
                throw RunFailure(status: 2)
            }
            if PathBytes.exists(destination) && !force {
                io.error("lpcheck: \(destination.terminalSafe) exists (use --force to replace it)")
                throw RunFailure(status: 2)
            }
        }
    }

    /// `make CLIP`: a GIF's movie made first (`runGIF`), else the clip itself planned.
    func runClip(_ clip: String) throws {
        try RunSettings.refuseObjects([clip], command: "make", io: io)
        if GIFStructure.isGIF(Self.head(clip)) { return try runGIF(clip) }
        try makeClip(clip, named: clip, made: nil, reasons: [])
    }

    /// The movie `clip` through make's edits, the still its own frame at the moment (or `made`,
    /// a GIF's). `named`: the input named in outputs and messages (a GIF, when `clip` is the
    /// movie made from it); `reasons`: what made `clip` says.
    func makeClip(_ clip: String, named: String, made: MakePlanner.StillPicture?, reasons: [String]) throws {
        // Every message names the input first (a planner's may name only a box or a moment).
        // A GIF's movie is a writer's temporary: messages name the GIF.
        func fail(_ message: String, status: Int32 = 2) -> RunFailure {
            let message = named == clip ? message : message.replacingOccurrences(of: clip, with: named)
            let text = message.hasPrefix(named) ? message : "\(named): \(message)"
            io.error("lpcheck: nothing written: \(text.terminalSafe)")
            return RunFailure(status: status)
        }
        let settings = self.clip
        let file = MediaFile.inspect(path: clip, options: .full)
        guard file.error == nil, file.format.isMovie, let movie = file.movie else {
            throw fail("\(clip) is not a readable movie: \(file.error?.description ?? file.format.rawValue)")
        }
        let track: Track, frame: MakePlanner.Frame
        var moment: Moment
        do {
            track = try MakePlanner.videoTrack(movie, path: clip, limits: settings.limits)
            moment = try RepairPlanner.moment(forMake: FileFacts(file).movie ?? MovieFacts(), options: options)
            frame = try MakePlanner.frame(movie, track: track, at: moment.seconds, nearestSync: settings.losslessStill, fileSize: file.size, path: clip)
        } catch {
            throw fail("\(error)")
        }
        if settings.losslessStill, abs(frame.seconds - moment.seconds) > 1e-9 { moment = Moment(seconds: frame.seconds, origin: .syncSample, value: moment.value) }
        let picture: MakePlanner.StillPicture, notIntra: String?
        if let made {
            (picture, notIntra) = (made, nil)
        } else {
            do {
                (picture, notIntra) = try MakePlanner.clipStill(clip, frame: frame, track: track, settings: settings)
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            } catch {
                throw fail("\(error)")
            }
        }
        try OutputFolder.make(output, io: io)
        let (stillPath, moviePath) = MakePlanner.outputs(named, folder: output, format: settings.stillFormat)
        let motionPhotoPath = MakePlanner.motionPhotoPath(named, folder: output, format: settings.stillFormat)
        try refuseOutputs(to == .motionPhoto ? [motionPhotoPath] : [stillPath, moviePath], inputs: [clip, named])
        let size: (width: Int, height: Int)
        switch picture {
        case .heif(let image): size = (Int(image.width), Int(image.height))
        case .jpeg: size = (Int(track.width.rounded()), Int(track.height.rounded()))
        }
        let chosen = identifier?.uppercased() ?? DeterministicIdentifier.make(["make", named, String(file.size), String(frame.sample.index)].joined(separator: "\n"))
        let tags = MakePlanner.tags(movie, track: track, width: size.width, height: size.height, format: settings.stillFormat)
        let duration = movie.durationSeconds ?? 0
        let window = MakePlanner.window(duration: duration, moment: moment.seconds, length: movieSeconds, longest: RuleContext().maxMovieSeconds)
        var plan = MakePlanner.plan(clip: clip, file: file, picture: picture, tags: tags, identifier: chosen, moment: moment,
                                  still: stillPath, movie: moviePath, wallpaper: profile == .wallpaper, window: window)
        let why = MakePlanner.clipReasons(frame: frame, track: track, window: window, duration: duration, jpegFromFrame: made == nil && settings.stillFormat == .jpeg, notIntra: notIntra)
        // The window's reason first, then what made the clip, then the still's.
        let windowReasons = window == nil ? 0 : 1
        plan.reasons += why.prefix(windowReasons) + reasons + why.dropFirst(windowReasons)
        say(PlanText.describe(plan, force: force, size: PlanText.newBytesFirst, inputKeepsLosses: true, shownAs: named == clip ? [:] : [clip: named]))
        plan.losses = []
        plan.proveClean = true
        var options = self.options
        (options.backup, options.force) = (false, force)
        if to == .motionPhoto { return try motionPhoto(from: plan, named: named, path: motionPhotoPath, options: options, fail: fail) }
        let outcome = apply(plan, options: options)
        if let failure = outcome.failure { throw fail(failure, status: 1) }
        say("content identifier: \(chosen)")
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
        say(PlanText.describe(conversion, force: force, size: PlanText.newBytesFirst))
        record.withLock { $0.append(plan) }
        let outcome = apply(conversion, options: options)
        if let failure = outcome.failure { throw fail(failure, 1) }
        say("motion photo: \(path.terminalSafe)")
    }

    /// A file's first bytes (empty when it cannot be read).
    static func head(_ path: String) -> [UInt8] {
        (try? FileSource(path: path)).flatMap { source in try? source.read(at: 0, count: Int(min(16, source.size))) } ?? []
    }

    /// `make GIF`: the codec helper composites the frames as browsers show them and encodes
    /// them with their own delays (a movie written to a temporary file beside the outputs, the
    /// safe writer's kind, removed at the end), and the frame shown at the moment as the still,
    /// from the same answer; the movie is then planned as a clip is, with that still.
    func runGIF(_ gif: String) throws {
        func fail(_ message: String, status: Int32 = 2) -> RunFailure {
            io.error("lpcheck: nothing written: \(message.terminalSafe)")
            return RunFailure(status: status)
        }
        let job: MakePlanner.GIFJob
        do { job = try MakePlanner.gifJob(gif, settings: clip, options: options) } catch { throw fail("\(error)") }
        try OutputFolder.make(output, io: io)
        let (stillPath, moviePath) = MakePlanner.outputs(gif, folder: output, format: clip.stillFormat)
        try refuseOutputs(to == .motionPhoto ? [MakePlanner.motionPhotoPath(gif, folder: output, format: clip.stillFormat)] : [stillPath, moviePath], inputs: [gif])
        // The movie is written into a writer's temporary beside the outputs as the helper encodes it.
        var answer: [UInt8] = []
        let staged: SafeFileWriter.Staged
        do {
            staged = try SafeFileWriter.stage(producedAs: moviePath, inputs: [gif]) { file in answer = try MakePlanner.gifMovie(job, into: file, progress: progress) }
            finishProgress?()
        } catch let failure as CodecHelper.Failure {
            finishProgress?()
            throw fail(failure.description, status: failure.status)
        } catch {
            finishProgress?()
            throw fail("\(gif): \(error)", status: 1)
        }
        defer { SafeFileWriter.discard(staged) }
        let picture: MakePlanner.StillPicture
        do { picture = try MakePlanner.gifStill(answer, format: clip.stillFormat, movie: staged.temporary, gif: gif) } catch { throw fail("\(error)", status: 1) }
        try makeClip(staged.temporary, named: gif, made: picture, reasons: job.reasons)
    }
}
