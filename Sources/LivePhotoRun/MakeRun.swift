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
    public var stillFormat = ClipMaker.StillFormat.heic
    /// `--lossless-still`: the moment moves to the nearest sync sample, whose coded picture is the still.
    public var losslessStill = false
    public var limits = ClipMaker.Limits()
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

    func say(_ line: String) { io.output(line + "\n") }

    public func run() throws {
        if let clip { return try runClip(clip) }
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
        var edits = ItemEdits(identifier: chosen, moment: moment, brand: true)
        edits.wallpaperKeys = profile == .wallpaper
        var plan = PlanWriter.plan(item, edits: edits, acting: [], destinations: destinations)
        say(PlanText.describe(plan, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }, inputKeepsLosses: true))
        // Losses are notes here (the inputs stay as they are); damage waits for --force.
        plan.losses = []
        options.force = force
        let outcome = PlanWriter.apply(plan, options: options)
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
    func runClip(_ clip: String) throws {
        try RunSettings.refuseObjects([clip], command: "make", io: io)
        func fail(_ message: String, status: Int32 = 2) -> RunFailure {
            io.error("lpcheck: nothing written: \(message.terminalSafe)")
            return RunFailure(status: status)
        }
        let file = MediaFile.inspect(path: clip, options: .full)
        guard file.error == nil, file.format.isMovie, let movie = file.movie else {
            throw fail("\(clip) is not a readable movie: \(file.error?.description ?? file.format.rawValue)")
        }
        let track: Track, frame: ClipMaker.Frame
        var moment: Moment
        do {
            track = try ClipMaker.videoTrack(movie, path: clip, limits: limits)
            moment = try RepairPlanner.moment(forMake: FileFacts(file).movie ?? MovieFacts(), options: options)
            frame = try ClipMaker.frame(movie, track: track, at: moment.seconds, nearestSync: losslessStill, fileSize: file.size, path: clip)
        } catch {
            throw fail("\(error)")
        }
        if losslessStill, abs(frame.seconds - moment.seconds) > 1e-9 { moment = Moment(seconds: frame.seconds, origin: .syncSample, value: moment.value) }
        let picture: ClipMaker.StillPicture
        if stillFormat == .heic && ClipMaker.isLossless(frame) {
            do { picture = .heif(try ClipMaker.codedImage(frame, track: track, path: clip)) } catch { throw fail("\(error)") }
        } else if stillFormat == .jpeg {
            do {
                picture = .jpeg(try CodecHelper.jpegStill(movie: clip, sampleIndex: frame.sample.index, maxPixels: limits.maxPixels))
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            }
        } else {
            do {
                let encoded = try CodecHelper.hevcStill(movie: clip, sampleIndex: frame.sample.index, maxPixels: limits.maxPixels)
                picture = .heif(try ClipMaker.encodedImage(configuration: encoded.configuration, colour: encoded.colour, picture: encoded.picture, track: track, path: clip))
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            } catch {
                throw fail("\(error)", status: 1)
            }
        }
        try OutputFolder.make(output, io: io)
        let base = ((clip as NSString).lastPathComponent as NSString).deletingPathExtension
        let stillPath = output + "/" + base + "." + stillFormat.fileExtension, moviePath = output + "/" + base + ".MOV"
        try refuseOutputs([stillPath, moviePath], inputs: [clip])
        let size: (width: Int, height: Int)
        switch picture {
        case .heif(let image): size = (Int(image.width), Int(image.height))
        case .jpeg: size = (Int(track.width.rounded()), Int(track.height.rounded()))
        }
        let chosen = identifier?.uppercased() ?? DeterministicIdentifier.make(["make", clip, String(file.size), String(frame.sample.index)].joined(separator: "\n"))
        let tags = ClipMaker.tags(movie, track: track, width: size.width, height: size.height, format: stillFormat)
        var plan = ClipMaker.plan(clip: clip, file: file, picture: picture, tags: tags, identifier: chosen, moment: moment,
                                  still: stillPath, movie: moviePath, wallpaper: profile == .wallpaper)
        plan.reasons.append("still: sample \(frame.sample.index + 1) of the video track, shown from \(SecondsText.format(frame.seconds)) s\(frame.isSync ? " (a sync sample)" : "")")
        say(PlanText.describe(plan, force: force, size: { "\($0.patch.newBytes) new bytes, \($0.patch.outputSize) in all" }, inputKeepsLosses: true))
        plan.losses = []
        plan.proveClean = true
        var options = self.options
        (options.backup, options.force) = (false, force)
        let outcome = PlanWriter.apply(plan, options: options)
        if let failure = outcome.failure { throw fail(failure, status: 1) }
        say("content identifier: \(chosen)")
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
