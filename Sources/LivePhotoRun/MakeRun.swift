import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

/// One `lpcheck make`: a Live Photo pair from any still and movie, written into a folder.
public struct MakeRun {
    public var still: String
    public var movie: String
    /// `make CLIP`: one input, a movie (or an animated GIF), the still made from its frame.
    public var clip: String?
    public var stillFormat = MakePlanner.StillFormat.heic
    /// `--lossless-still`: the moment moves to the nearest sync sample, whose coded picture is the still.
    public var losslessStill = false
    public var limits = MakePlanner.Limits()
    /// make GIF: the background transparent pixels are shown over (RRGGBB), the codec, the frame limit.
    public var background = "FFFFFF"
    public var codec = MakePlanner.MovieCodec.h264
    public var maxFrames = GIFStructure.maxFrames
    /// What the codec helper may spend (`--max-total-pixels`, `--max-memory`, `--max-output`, `--codec-deadline`).
    public var budget = CodecBudget.standard
    /// make GIF: each GIF pixel shown as a block this many pixels wide; nil chooses (`MakePlanner.gifScale`).
    public var gifScale: Int?
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
        (self.still, self.movie, self.clip, self.output, self.io) = (clip, clip, clip, output, io)
    }

    /// `--format json`: the plan text is not printed; one document says what was written
    /// (Reports/make.schema.json).
    public var json = false
    /// The plans applied, for the JSON document.
    final class Record: @unchecked Sendable { var plans: [ItemPlan] = [] }
    let record = Record()

    func say(_ line: String) { if !json { io.output(line + "\n") } }

    /// Applies a plan and records it for the JSON document.
    func apply(_ plan: ItemPlan, options: RepairOptions) -> ItemOutcome {
        record.plans.append(plan)
        return PlanWriter.apply(plan, options: options)
    }

    public func run() throws {
        if let clip {
            try runClip(clip)
        } else {
            try runPair()
        }
        if json { io.output(document().serialized() + "\n") }
    }

    /// What was written (Reports/make.schema.json): the last plan applied (a motion photo's
    /// conversion), with the reasons of every plan.
    func document() -> JSONValue {
        let last = record.plans.last
        return .object([
            ("tool", .string("lpcheck")), ("version", .string(Release.version)), ("command", .string("make")),
            ("inputs", .array((clip.map { [$0] } ?? [still, movie]).map(JSONValue.string))),
            ("to", .string(to.rawValue)),
            ("identifier", .optional(record.plans.first?.edits.identifier ?? last?.files.first?.identifier)),
            ("moment", record.plans.first?.edits.moment.map { .object([("seconds", .double($0.seconds)), ("origin", .string($0.origin.rawValue))]) } ?? .null),
            ("outputs", PlanText.outputsJSON(last?.files ?? [])),
            ("reasons", .array(record.plans.flatMap(\.reasons).map(JSONValue.string))),
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
        say(PlanText.describe(plan, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }, inputKeepsLosses: true))
        // Losses are notes here (the inputs stay as they are); damage waits for --force.
        plan.losses = []
        options.force = force
        let outcome = apply(plan, options: options)
        if let failure = outcome.failure {
            io.error("lpcheck: nothing written: \(failure.terminalSafe)")
            throw RunFailure(status: 1)
        }
        if profile == .wallpaper { sayWallpaperLimits(still: destinations[still], movie: destinations[movie]) }
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

    /// `make CLIP`: the movie through make's edits, the still its own frame at the moment.
    /// `source`: the input named in outputs and messages when `clip` is a movie made from it
    /// (a GIF's), with the still `made` from it.
    func runClip(_ clip: String, source: String? = nil, made: MakePlanner.StillPicture? = nil, reasons: [String] = []) throws {
        try RunSettings.refuseObjects([clip], command: "make", io: io)
        if source == nil, GIFStructure.isGIF(Self.head(clip)) { return try runGIF(clip) }
        let named = source ?? clip
        // Every message names the input first (a planner's may name only a box or a moment).
        // A GIF's movie is a writer's temporary: messages name the GIF.
        func fail(_ message: String, status: Int32 = 2) -> RunFailure {
            let message = named == clip ? message : message.replacingOccurrences(of: clip, with: named)
            let text = message.hasPrefix(named) ? message : "\(named): \(message)"
            io.error("lpcheck: nothing written: \(text.terminalSafe)")
            return RunFailure(status: status)
        }
        let file = MediaFile.inspect(path: clip, options: .full)
        guard file.error == nil, file.format.isMovie, let movie = file.movie else {
            throw fail("\(clip) is not a readable movie: \(file.error?.description ?? file.format.rawValue)")
        }
        let track: Track, frame: MakePlanner.Frame
        var moment: Moment
        do {
            track = try MakePlanner.videoTrack(movie, path: clip, limits: limits)
            moment = try RepairPlanner.moment(forMake: FileFacts(file).movie ?? MovieFacts(), options: options)
            frame = try MakePlanner.frame(movie, track: track, at: moment.seconds, nearestSync: losslessStill, fileSize: file.size, path: clip)
        } catch {
            throw fail("\(error)")
        }
        if losslessStill, abs(frame.seconds - moment.seconds) > 1e-9 { moment = Moment(seconds: frame.seconds, origin: .syncSample, value: moment.value) }
        let picture: MakePlanner.StillPicture
        // A sample marked sync is taken as it is only when its own NAL units say it decodes alone.
        var notIntra: String? = nil
        if made == nil, stillFormat == .heic, MakePlanner.isLossless(frame) {
            notIntra = (try? FileSource(path: clip)).map { MakePlanner.notIntra(frame, source: $0) } ?? "the movie cannot be read again"
        }
        if let made {
            picture = made
        } else if stillFormat == .heic && MakePlanner.isLossless(frame), notIntra == nil {
            do { picture = .heif(try MakePlanner.codedImage(frame, track: track, path: clip)) } catch { throw fail("\(error)") }
        } else if stillFormat == .jpeg {
            do {
                picture = .jpeg(try CodecHelper.jpegStill(movie: clip, sampleIndex: frame.sample.index, maxPixels: limits.maxPixels, budget: budget))
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            }
        } else {
            do {
                let encoded = try CodecHelper.hevcStill(movie: clip, sampleIndex: frame.sample.index, maxPixels: limits.maxPixels, budget: budget)
                picture = .heif(try MakePlanner.encodedImage(configuration: encoded.configuration, colour: encoded.colour, picture: encoded.picture, track: track, path: clip))
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            } catch {
                throw fail("\(error)", status: 1)
            }
        }
        try OutputFolder.make(output, io: io)
        let (stillPath, moviePath) = outputs(named)
        try refuseOutputs(to == .motionPhoto ? [motionPhotoPath(named)] : [stillPath, moviePath], inputs: [clip, named])
        let size: (width: Int, height: Int)
        switch picture {
        case .heif(let image): size = (Int(image.width), Int(image.height))
        case .jpeg: size = (Int(track.width.rounded()), Int(track.height.rounded()))
        }
        let chosen = identifier?.uppercased() ?? DeterministicIdentifier.make(["make", named, String(file.size), String(frame.sample.index)].joined(separator: "\n"))
        let tags = MakePlanner.tags(movie, track: track, width: size.width, height: size.height, format: stillFormat)
        let duration = movie.durationSeconds ?? 0
        let window = MakePlanner.window(duration: duration, moment: moment.seconds, length: movieSeconds, longest: RuleContext().maxMovieSeconds)
        var plan = MakePlanner.plan(clip: clip, file: file, picture: picture, tags: tags, identifier: chosen, moment: moment,
                                  still: stillPath, movie: moviePath, wallpaper: profile == .wallpaper, window: window)
        if let window {
            plan.reasons.append("the clip lasts \(SecondsText.format(duration)) s: the movie shows \(SecondsText.format(window.duration)) s of it around the moment, from \(SecondsText.format(window.start)) s (Photos may trim or refuse a Live Photo movie over \(SecondsText.format(RuleContext().maxMovieSeconds)) s; every sample is kept; --movie-seconds 0 shows it all)")
        }
        plan.reasons += reasons
        if made == nil, stillFormat == .jpeg { plan.reasons += MakePlanner.jpegLosses(frame.description) }
        plan.reasons.append("still: sample \(frame.sample.index + 1) of the video track, shown from \(SecondsText.format(frame.seconds)) s\(frame.isSync ? " (a sync sample)" : "")")
        if track.matrix.rotation == nil {
            let m = track.matrix
            let degrees = (atan2(Double(m.b), Double(m.a)) * 180 / .pi).rounded()
            let shape = Int64(m.a) * Int64(m.d) - Int64(m.b) * Int64(m.c) < 0 ? "mirrors" : m.a == m.d && m.b == -m.c ? "turns by \(Int(degrees))°" : "skews or scales"
            plan.reasons.append("still: the video track's matrix (\(m.a), \(m.b), \(m.c), \(m.d) in 16.16) \(shape), which no Exif or HEIF orientation says (they turn by quarter turns): the still is stored as the frames are coded, unturned, while players show the movie through its matrix, so the two will not look alike")
        }
        if let notIntra {
            plan.reasons.append("still: sample \(frame.sample.index + 1) is marked sync\(track.sampleTable.syncSamples == nil ? " (the track has no stss: by the format's rule every sample is)" : ""), but \(notIntra): its picture needs others to decode, so the still is decoded and encoded, not copied")
        }
        say(PlanText.describe(plan, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }, inputKeepsLosses: true,
                              shownAs: named == clip ? [:] : [clip: named]))
        plan.losses = []
        plan.proveClean = true
        var options = self.options
        (options.backup, options.force) = (false, force)
        if to == .motionPhoto { return try motionPhoto(from: plan, named: named, options: options, fail: fail) }
        let outcome = apply(plan, options: options)
        if let failure = outcome.failure { throw fail(failure, status: 1) }
        say("content identifier: \(chosen)")
    }

    /// The motion photo's name in the output folder.
    func motionPhotoPath(_ input: String) -> String {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return output + "/" + base + (stillFormat == .jpeg ? ".MP.jpg" : ".MP.heic")
    }

    /// make CLIP --to motion-photo: the pair is staged and verified under temporary names, then
    /// converted as `convert --to motion-photo` converts a pair (its motion-photo rules read the
    /// output back); the staged pair is removed whatever happens.
    func motionPhoto(from plan: ItemPlan, named: String, options: RepairOptions, fail: (String, Int32) -> RunFailure) throws {
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
        say(PlanText.describe(conversion, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }))
        record.plans.append(plan)
        let outcome = apply(conversion, options: options)
        if let failure = outcome.failure { throw fail(failure, 1) }
        say("motion photo: \(motionPhotoPath(named).terminalSafe)")
    }

    /// The still's and the movie's names in the output folder, from the input's name.
    func outputs(_ input: String) -> (still: String, movie: String) {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return (output + "/" + base + "." + stillFormat.fileExtension, output + "/" + base + ".MOV")
    }

    /// A file's first bytes (empty when it cannot be read).
    static func head(_ path: String) -> [UInt8] {
        (try? FileSource(path: path)).flatMap { source in try? source.read(at: 0, count: Int(min(16, source.size))) } ?? []
    }

    /// `make GIF`: the codec helper composites the frames as browsers show them and encodes
    /// them with their own delays (a movie written to a temporary file beside the outputs, the
    /// safe writer's kind, removed at the end), and the frame shown at the moment as the still;
    /// the movie then goes through make CLIP's path.
    func runGIF(_ gif: String) throws {
        func fail(_ message: String, status: Int32 = 2) -> RunFailure {
            io.error("lpcheck: nothing written: \(message.terminalSafe)")
            return RunFailure(status: status)
        }
        let structure: GIFStructure
        do {
            let source = try FileSource(path: gif)
            guard source.size <= 256 << 20 else { throw fail("\(gif): a GIF of \(source.size) bytes, more than the 256 MiB make reads") }
            structure = try GIFStructure(try source.read(at: 0, count: Int(source.size)), path: gif, maxFrames: maxFrames)
        } catch let failure as RunFailure {
            throw failure
        } catch {
            throw fail("\(gif): \(error)")
        }
        guard structure.width > 0, structure.height > 0 else { throw fail("\(gif): a logical screen of \(structure.width)×\(structure.height): the GIF has no picture to show") }
        guard structure.width * structure.height <= limits.maxPixels, structure.width <= limits.maxSide, structure.height <= limits.maxSide else {
            throw fail("\(gif): a logical screen of \(structure.width)×\(structure.height), more than the \(limits.maxPixels) pixels (\(limits.maxSide) a side) make reads (--max-pixels)")
        }
        guard !structure.frames.isEmpty else { throw fail("\(gif): the GIF holds no frame") }
        guard structure.complete else { throw fail("\(gif): the GIF ends before its trailer (truncated)") }
        // The moment on the GIF's own timeline: --time, --frame, else the frame shown at the middle.
        let (starts, total) = structure.shownStarts
        let still: Int
        if let time = options.time {
            guard time >= 0, time * 100 <= Double(total) else { throw fail("--time \(time) is outside the GIF (0–\(Double(total) / 100) s)") }
            still = starts.lastIndex { Double($0) <= time * 100 + 1e-6 } ?? 0
        } else if let frame = options.frame {
            guard starts.indices.contains(frame) else { throw fail("--frame \(frame): the GIF has \(starts.count) frames") }
            still = frame
        } else {
            still = starts.lastIndex { $0 * 2 <= total } ?? 0
        }
        let scale = MakePlanner.gifScale(width: structure.width, height: structure.height, asked: gifScale)
        // The movie's frames are padded to even sides (4:2:0): that size is what is written.
        let (movieWidth, movieHeight) = (structure.width * scale + structure.width * scale % 2, structure.height * scale + structure.height * scale % 2)
        guard movieWidth * movieHeight <= limits.maxPixels, movieWidth <= limits.maxSide, movieHeight <= limits.maxSide else {
            throw fail("\(gif): \(structure.width)×\(structure.height) shown ×\(scale) makes \(movieWidth)×\(movieHeight) frames (4:2:0 needs even sides), more than the \(limits.maxPixels) pixels (\(limits.maxSide) a side) make writes (--max-pixels)")
        }
        do {
            try budget.pixels(width: structure.width * scale, height: structure.height * scale, frames: structure.frames.count, "\(gif): a GIF of \(structure.frames.count) frames composited")
        } catch {
            throw fail(error.description)
        }
        try OutputFolder.make(output, io: io)
        let (stillPath, moviePath) = outputs(gif)
        try refuseOutputs(to == .motionPhoto ? [motionPhotoPath(gif)] : [stillPath, moviePath], inputs: [gif])
        // The movie is written into a writer's temporary beside the outputs as the helper encodes it.
        var stillAnswer: [UInt8] = []
        let staged: SafeFileWriter.Staged
        do {
            staged = try SafeFileWriter.stage(producedAs: moviePath, inputs: [gif]) { file in
                stillAnswer = try CodecHelper.gifMovie(["gif", gif, String(still + 1), stillFormat == .jpeg ? "jpeg" : "hevc", codec.rawValue, background, "--scale", String(scale),
                                                        "--max-pixels", String(limits.maxPixels), "--max-frames", String(maxFrames)], budget: budget, into: file, progress: progress)
            }
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
        if stillFormat == .jpeg {
            picture = .jpeg(stillAnswer)
        } else {
            do {
                let parts = try CodecHelper.boxes(stillAnswer)
                guard let configuration = parts["hvcC"], let colour = parts["colr"], let data = parts["data"] else { throw fail("\(gif): the codec helper's still lacks hvcC, colr or data", status: 1) }
                let movie = MediaFile.inspect(path: staged.temporary, options: .full)
                guard let track = movie.movie?.primaryVideoTrack else { throw fail("\(gif): the movie made from it does not read back", status: 1) }
                picture = .heif(try MakePlanner.encodedImage(configuration: configuration, colour: colour, picture: data, track: track, path: gif))
            } catch let failure as RunFailure {
                throw failure
            } catch {
                throw fail("\(error)", status: 1)
            }
        }
        let padded = scale > 1 ? ", each GIF pixel a \(scale)×\(scale) block, \(structure.width * scale)×\(structure.height * scale)"
            : structure.width % 2 + structure.height % 2 > 0 ? ", padded to even sides" : ""
        try runClip(staged.temporary, source: gif, made: picture, reasons: [
            "movie: the GIF's \(structure.frames.count) frames composited over #\(background) and encoded (\(codec == .h264 ? "H.264" : "HEVC")\(padded)), each shown for its own delay (under 2 cs shown as 10 cs, as browsers do): \(SecondsText.format(Double(total) / 100)) s",
            "still: frame \(still + 1) of the GIF, as composited",
        ])
    }

    /// What the wallpaper's rules still find in the written pair: what make cannot change
    /// without re-encoding (a JPEG still, a long movie) or was asked for (a moment on the
    /// first frame).
    func sayWallpaperLimits(still: String?, movie: String?) {
        guard let still, let movie else { return }
        let item = CheckItem(kind: .pair, still: FileFacts(MediaFile.inspect(path: still, options: .check)),
                             movie: FileFacts(MediaFile.inspect(path: movie, options: .check)), pairedBy: .identifier)
        let findings = RuleRegistry.all.filter { $0.description.category == .wallpaper }.flatMap { $0.check(item, context: RuleContext()) }
        for finding in findings {
            let why = finding.rule == "wallpaper-still-on-first-frame" ? "--time or --frame place the moment elsewhere" : "make does not re-encode"
            say("wallpaper, not done (\(why)): \(finding.message.terminalSafe)")
        }
        if findings.isEmpty { say("wallpaper: none of the lock screen's reported requirements is left unmet (all are low confidence)") }
    }
}
