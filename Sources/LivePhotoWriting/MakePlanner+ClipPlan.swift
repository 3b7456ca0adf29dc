import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// `make CLIP` planned whole: the clip (or a GIF's movie, produced by the helper with the still
/// in the same answer) read, its frame at the moment, the still's picture, the outputs' names
/// refused where they may not go, and the item plan. The run layer applies what this returns.
extension MakePlanner {
    /// What one `make CLIP` is asked for.
    public struct ClipRequest: Sendable {
        public var input: String
        public var folder: String
        public var settings: ClipSettings
        public var options = RepairOptions()
        /// The identifier to write; nil for one made from the input's name, size and frame.
        public var identifier: String?
        /// The seconds of a clip over the longest a Live Photo's movie may last that the movie shows.
        public var movieSeconds = 3.0
        public var wallpaper = false
        public var toMotionPhoto = false
        /// Existing outputs are replaced.
        public var force = false
        /// `keyphoto`: the still of the pair whose key photo is made anew; its Exif and MakerNote
        /// go to the new still, made true of the new picture.
        public var keyPhotoOf: String?
        /// `keyphoto` without `--output`: the new still replaces `keyPhotoOf` and the movie is
        /// rewritten where it is (the run asked for `--force`; the writer keeps backups).
        public var inPlace = false
        public init(input: String, folder: String, settings: ClipSettings) { (self.input, self.folder, self.settings) = (input, folder, settings) }
    }

    /// A make CLIP that cannot go on: the line to say (after "lpcheck: ") and the exit status.
    public struct ClipFailure: Error, CustomStringConvertible {
        public var status: Int32
        public var description: String
    }

    /// A planned make CLIP.
    public struct ClipPlan {
        public var plan: ItemPlan
        public var identifier: String
        /// The input as the user named it (the GIF, when `read` is the movie made from it).
        public var named: String
        /// The movie the plan reads.
        public var read: String
        public var motionPhotoPath: String
        /// A GIF's movie, a writer's temporary: the caller discards it when done.
        public var intermediate: SafeFileWriter.Staged?

        /// A failure's line, naming the input as the user named it, first.
        public func failure(_ message: String, status: Int32) -> ClipFailure {
            MakePlanner.failure(message, read: read, named: named, status: status)
        }
    }

    static func failure(_ message: String, read: String, named: String, status: Int32) -> ClipFailure {
        let message = named == read ? message : message.replacingOccurrences(of: read, with: named)
        return ClipFailure(status: status, description: "nothing written: " + (message.hasPrefix(named) ? message : "\(named): \(message)"))
    }

    /// Refuses outputs that are links or inputs, or (without `force`) existing files.
    public static func refuseOutputs(_ destinations: [String], inputs: [String], force: Bool) throws(ClipFailure) {
        for destination in destinations.sorted() {
            do {
                try SafeFileWriter.refuseNewOutput(destination, inputs: inputs)
            } catch {
                throw ClipFailure(status: 2, description: "nothing written: \(error)")
            }
            if PathBytes.exists(destination) && !force { throw ClipFailure(status: 2, description: "\(destination) exists (use --force to replace it)") }
        }
    }

    /// The plan of `request`. `prepareFolder` makes the output folder (once the input has passed
    /// its limits); `progress` hears a GIF's frames, `finished` when they are done.
    public static func clipPlan(_ request: ClipRequest, prepareFolder: () throws -> Void, progress: (@Sendable (Int, Int) -> Void)?, finished: (() -> Void)?) throws -> ClipPlan {
        guard GIFStructure.isGIF(head(request.input)) else { return try clipPlan(request, read: request.input, made: nil, reasons: [], prepareFolder: prepareFolder) }
        let gif = request.input, format = request.settings.stillFormat
        let job: GIFJob
        do { job = try gifJob(gif, settings: request.settings, options: request.options) } catch { throw ClipFailure(status: 2, description: "nothing written: \(error)") }
        try prepareFolder()
        let (stillPath, moviePath) = outputs(gif, folder: request.folder, format: format)
        try refuseOutputs(request.toMotionPhoto ? [motionPhotoPath(gif, folder: request.folder, format: format)] : [stillPath, moviePath], inputs: [gif], force: request.force)
        // The movie is written into a writer's temporary beside the outputs as the helper encodes it.
        var answer: [UInt8] = []
        let staged: SafeFileWriter.Staged
        do {
            defer { finished?() }
            staged = try SafeFileWriter.stage(producedAs: moviePath, inputs: [gif]) { file in answer = try gifMovie(job, into: file, progress: progress) }
        } catch let failure as CodecHelper.Failure {
            throw ClipFailure(status: failure.status, description: "nothing written: \(failure.description)")
        } catch {
            throw ClipFailure(status: 1, description: "nothing written: \(gif): \(error)")
        }
        do {
            let picture: StillPicture
            do { picture = try gifStill(answer, format: format, movie: staged.temporary, gif: gif) } catch { throw ClipFailure(status: 1, description: "nothing written: \(error)") }
            var planned = try clipPlan(request, read: staged.temporary, made: picture, reasons: job.reasons, moment: job.moment, prepareFolder: prepareFolder)
            if let warning = job.warning { planned.plan.reasons.insert(warning, at: 0) }
            planned.intermediate = staged
            // The movie made from the GIF is a writer's temporary: plans name it by the GIF.
            for index in planned.plan.files.indices {
                for input in planned.plan.files[index].ledgerInputs.indices where planned.plan.files[index].ledgerInputs[input].path == staged.temporary {
                    planned.plan.files[index].ledgerInputs[input].shownAs = "the movie made from \(gif)"
                }
            }
            return planned
        } catch {
            SafeFileWriter.discard(staged)
            throw error
        }
    }

    /// The movie `read` through make's edits, the still its own frame at the moment (or `made`,
    /// a GIF's, whose `reasons` come first).
    /// `moment`: where a GIF's still frame starts, which the still-image-time marks (nil: the
    /// moment asked for, the movie's own, or the middle frame).
    static func clipPlan(_ request: ClipRequest, read: String, made: StillPicture?, reasons: [String], moment given: Moment? = nil,
                         prepareFolder: () throws -> Void) throws -> ClipPlan {
        let named = request.input, settings = request.settings
        func fail(_ message: String, status: Int32 = 2) -> ClipFailure { failure(message, read: read, named: named, status: status) }
        let file = MediaFile.inspect(path: read, options: .full)
        guard file.error == nil, file.format.isMovie, let movie = file.movie else {
            throw fail("\(read) is not a readable movie: \(file.error?.description ?? file.format.rawValue)")
        }
        let track: Track, frame: Frame
        var moment: Moment
        // A Live Photo's movie whose still was lost keeps its identifier and its moment.
        let facts = FileFacts(file)
        let orphan = made == nil ? orphanedLivePhoto(facts) : nil
        // --lossless-still moves the moment to a sync sample only where that sample's coded
        // picture can be the still as it is: an HEVC (hvc1) track and a HEIC still. Elsewhere
        // the moment stays and the plan says why the still is encoded (nil: it may move).
        let entry = movie.primaryVideoTrack?.sampleDescriptions.first
        let lossless: String? = !settings.losslessStill ? "" : made != nil ? "the still comes from the GIF's frames"
            : settings.stillFormat != .heic ? "a JPEG is always encoded"
            : entry?.format != "hvc1" || entry?.configuration("hvcC") == nil ? "the track is \(entry.map { "\($0.format)" } ?? "of no format"), and only an HEVC (hvc1) sync sample's coded picture can be a HEIC's image as it is" : nil
        do {
            track = try videoTrack(movie, path: read, limits: settings.limits)
            if let given {
                moment = given
            } else {
                moment = orphan != nil ? try RepairPlanner.moment(facts.movie ?? MovieFacts(), options: request.options)
                    : try RepairPlanner.moment(forMake: facts.movie ?? MovieFacts(), options: request.options)
            }
            frame = try self.frame(movie, track: track, at: moment.seconds, nearestSync: lossless == nil, fileSize: file.size, path: read)
        } catch {
            throw fail("\(error)")
        }
        if settings.losslessStill, lossless == nil, abs(frame.seconds - moment.seconds) > 1e-9 { moment = Moment(seconds: frame.seconds, origin: .syncSample, value: moment.value) }
        let picture: StillPicture, notIntra: String?
        if let made {
            (picture, notIntra) = (made, nil)
        } else {
            do {
                (picture, notIntra) = try clipStill(read, frame: frame, track: track, settings: settings)
            } catch let failure as CodecHelper.Failure {
                throw fail(failure.description, status: failure.status)
            } catch {
                throw fail("\(error)")
            }
        }
        try prepareFolder()
        var (stillPath, moviePath) = outputs(named, folder: request.folder, format: settings.stillFormat)
        let motionPhoto = motionPhotoPath(named, folder: request.folder, format: settings.stillFormat)
        if let old = request.keyPhotoOf, request.inPlace {
            (stillPath, moviePath) = (old, read)
        } else {
            try refuseOutputs(request.toMotionPhoto ? [motionPhoto] : [stillPath, moviePath], inputs: [read, named], force: request.force)
        }
        let size: (width: Int, height: Int)
        switch picture {
        case .heif(let image): size = (Int(image.width), Int(image.height))
        case .jpeg: size = (Int(track.width.rounded()), Int(track.height.rounded()))
        }
        let chosen = request.identifier?.uppercased() ?? orphan?.identifier
            ?? DeterministicIdentifier.make(["make", named, String(file.size), String(frame.sample.index)].joined(separator: "\n"))
        let tags = self.tags(movie, track: track, width: size.width, height: size.height, format: settings.stillFormat)
        var keyPhoto: KeyPhotoStill?
        if let old = request.keyPhotoOf {
            do { keyPhoto = try KeyPhotoStill(old, movieIdentifier: orphan?.identifier, movie: read) } catch { throw fail("\(error)") }
            keyPhoto?.inPlace = request.inPlace
            keyPhoto?.backup = request.options.backup
        }
        let duration = movie.durationSeconds ?? 0
        var window = self.window(duration: duration, moment: moment.seconds, length: request.movieSeconds, longest: RuleContext().maxMovieSeconds)
        // A window that would show one frame (a GIF of a few long frames) shows no motion: the
        // clip is kept whole, and the plan names the rule its length trips.
        var still: String?
        if let shown = window, framesShown(facts.movie?.frames ?? [], in: shown) < 2 {
            window = nil
            still = "the clip lasts \(SecondsText.format(duration)) s, and \(SecondsText.format(shown.duration)) s around the moment would show one frame of it, which does not move: the movie is kept whole, and movie-too-long will say Photos may trim or refuse a Live Photo movie over \(SecondsText.format(RuleContext().maxMovieSeconds)) s"
        }
        var plan = self.plan(clip: read, file: file, picture: picture, tags: tags, identifier: chosen, moment: moment,
                             still: stillPath, movie: moviePath, wallpaper: request.wallpaper, window: window, keyPhoto: keyPhoto)
        plan.stillShowsMoment = settings.budget
        let why = clipReasons(frame: frame, track: track, window: window, duration: duration, jpegFromFrame: made == nil && settings.stillFormat == .jpeg, notIntra: notIntra)
        // The window's reason first, then what made the clip, then the still's.
        let windowReasons = window == nil ? 0 : 1
        plan.reasons += why.prefix(windowReasons) + reasons + why.dropFirst(windowReasons)
        if let still { plan.reasons.insert(still, at: 0) }
        if let lossless, !lossless.isEmpty {
            plan.reasons.append("--lossless-still: \(lossless): the moment stays where it was and the still is decoded and encoded")
        }
        if let keyPhoto, let orphan {
            plan.reasons.insert(keyPhoto.reason(identifier: orphan.identifier, from: orphan.seconds, to: moment.seconds, size: size), at: 0)
        } else if let orphan {
            let identifier = request.identifier == nil ? "its content identifier \(orphan.identifier) is kept (the new still carries it; the pair takes the movie's place: beside the movie in one library, the two would share it)"
                : "--identifier replaces its content identifier \(orphan.identifier)"
            let time = moment.origin == .kept ? "its still moment at \(SecondsText.format(orphan.seconds)) s is kept (the still is that frame)"
                : "its still moment at \(SecondsText.format(orphan.seconds)) s is replaced as asked"
            plan.reasons.insert("the movie is a Live Photo's whose still is missing: \(identifier); \(time)", at: 0)
        }
        return ClipPlan(plan: plan, identifier: chosen, named: named, read: read, motionPhotoPath: motionPhoto)
    }

    /// The frames a window shows: the one shown at its start, and each that starts inside it.
    static func framesShown(_ runs: [MovieFacts.FrameRun], in window: PresentationWindow) -> Int {
        let end = window.start + window.duration
        var starts = 0
        for run in runs where run.end > window.start && run.start < end {
            for index in 0..<run.count {
                let start = run.start + Double(index) * run.duration
                if start > window.start + 1e-9 && start < end - 1e-9 { starts += 1 }
                if starts >= 2 { return 3 }
            }
        }
        return 1 + starts
    }

    /// A Live Photo's movie on its own: the identifier its keys carry and the moment its
    /// still-image-time marks, both there; nil for any other movie.
    static func orphanedLivePhoto(_ movie: FileFacts) -> (identifier: String, seconds: Double)? {
        guard let identifier = movie.contentIdentifier, !identifier.isEmpty, let seconds = movie.movie?.stillImageTime?.seconds, seconds >= 0 else { return nil }
        return (identifier, seconds)
    }

    /// A file's first bytes (empty when it cannot be read).
    public static func head(_ path: String) -> [UInt8] {
        (try? FileSource(path: path)).flatMap { source in try? source.read(at: 0, count: Int(min(16, source.size))) } ?? []
    }
}
