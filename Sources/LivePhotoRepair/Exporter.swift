import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// What `lpcheck export` makes of a Live Photo or a motion photo.
public enum ExportForm: String, Sendable, CaseIterable {
    /// The movie alone, samples copied, the Live Photo's timed metadata and keys dropped.
    case movie
    /// The movie shown `count` times, samples listed again, never re-encoded.
    case loop
    /// The frames last to first, each for its own duration: re-encoded.
    case reverse
    /// First to last, then back to the second, looping without a repeated frame: re-encoded.
    case bounce
    /// An animated GIF looping forever, its delays summing to the movie's duration.
    case gif

    /// The re-timed order of a form that re-encodes, nil for those that copy samples.
    public var order: ShownFrames.Order? { ShownFrames.Order(rawValue: rawValue) }
}

/// Where a loop opens.
public enum LoopStart: String, Sendable, CaseIterable {
    /// On the movie's first frame.
    case first
    /// On the sync sample at or before the still's moment.
    case still
}

public struct ExportOptions: Sendable {
    public var form: ExportForm
    public var count = 3
    public var start = LoopStart.first
    public var force = false
    /// The codec of a re-encoded form; nil: the source's (H.264 or HEVC).
    public var codec: String?
    /// A GIF's width (at most the movie's shown width), frames a second (nil: every frame at
    /// its own time) and dithering.
    public var width = 480
    public var rate: Int?
    public var dither = GIFDither.sierraLite
    public var palette = GIFPaletteScope.clip
    /// Whether sound is kept: a movie's and a loop's by default; a re-encoded form's and a
    /// GIF's never (refused by the command).
    public var keepsSound = true
    /// The movie's container (not a GIF's).
    public var container = MovieContainer.mov
    /// What a re-encoded form or a GIF may cost (held to the plan here, and by the codec helper).
    public var budget = CodecBudget.standard
    public init(form: ExportForm) { self.form = form }
}

/// A GIF export's plan: what the codec helper is asked for and what the GIF is read back against.
public struct GIFPlan: Sendable {
    public var timeline: GIFTimeline
    public var width: Int, height: Int
    /// The shown frame the GIF opens on.
    public var opening: Int
    public var dither: GIFDither
    public var palette: GIFPaletteScope
    public var rate: Int?
    /// How long the GIF lasts, seconds (its delays' sum).
    public var seconds: Double { Double(timeline.centiseconds) / 100 }
}

/// A re-encoded export's frames: the source's shown frames and the order they are shown in.
public struct Retimed: Sendable {
    public var frames: ShownFrames
    public var sequence: [Int]
    public var codec: String
    /// The source's track matrix, which the output keeps (a portrait movie stays upright).
    public var matrix: TrackMatrix
    /// How long the output lasts, in seconds.
    public var seconds: Double { Double(sequence.reduce(UInt64(0)) { $0 + UInt64(frames.frames[$1].duration) }) / Double(max(1, frames.timescale)) }
}

/// One item's export: where its movie is read from, what is written where, and why not.
public struct ExportPlan: Sendable {
    public var item: CheckItem
    /// The file holding the movie: the pair's movie, or the motion photo itself.
    public var source: String = ""
    /// A motion photo's embedded movie within `source`.
    public var range: Range<Int64>?
    public var destination: String = ""
    public var made: LoopMovieWriter.Made?
    /// A re-encoded form's frames: the source's shown frames and the order they are shown in.
    public var retimed: Retimed?
    public var gif: GIFPlan?
    public var notes: [String] = []
    public var problems: [String] = []
}

public struct ExportOutcome: Sendable {
    public var written: String?
    public var failure: String?
    public init() {}
}

/// Plans and writes exports through the safe writer, each output read back before it is renamed.
public enum Exporter {
    /// Whether `item` is exported: a Live Photo pair, a motion photo, or a movie on its own (a
    /// Live Photo's movie whose still is absent, or any other movie).
    public static func exports(_ item: CheckItem) -> Bool {
        switch item.kind {
        case .pair, .motionPhoto, .movieOnly: return true
        case .notLivePhoto: return item.movie != nil && item.still == nil
        default: return false
        }
    }

    /// The output's name: the still's name without its extension (and a motion photo's `.MP`),
    /// then the form and `.mov` (or `.mp4`), or `.gif`.
    public static func outputName(_ item: CheckItem, form: ExportForm, container: MovieContainer = .mov) -> String {
        let still = ((item.still?.path ?? item.movie?.path ?? "movie") as NSString).lastPathComponent
        var base = (still as NSString).deletingPathExtension
        if base.uppercased().hasSuffix(".MP") { base = String(base.dropLast(3)) }
        return form == .gif ? "\(base).gif" : "\(base).\(form.rawValue).\(container.fileExtension)"
    }

    public static func plan(_ item: CheckItem, options: ExportOptions, folder: String) -> ExportPlan {
        var plan = ExportPlan(item: item)
        plan.destination = (folder as NSString).appendingPathComponent(outputName(item, form: options.form, container: options.container))
        do {
            // A .livp's member is a window of the archive, not a file of that name (one beside
            // the archive would be read instead): refused by name.
            if let archived = item.files.first(where: { $0.archive != nil }), let archive = archived.archive {
                throw RepairProblem("\(archived.path) is a member of the archive \(archive): export reads no archive; unpack it first (lpcheck convert \(archive) --to live-photo -o DIR), then export the files")
            }
            let damage = item.findings.filter { $0.severity == .error && RuleRegistry.rule($0.rule)?.description.marksDamage == true }
            if let first = damage.first, !options.force {
                throw RepairProblem("\(first.path ?? "the input") is damaged (\(first.rule): \(first.message)); export writes nothing from it without --force")
            }
            let source: ByteSource
            if item.kind == .motionPhoto {
                guard let still = item.still, let range = still.motionPhoto?.movieRange else { throw RepairProblem("the motion photo's movie was not found") }
                (plan.source, plan.range) = (still.path, range)
                source = WindowSource(try FileSource(path: still.path), range: range)
            } else {
                guard let movie = item.movie else { throw RepairProblem("the pair has no movie") }
                plan.source = movie.path
                source = try FileSource(path: movie.path)
            }
            let movie = try Movie.read(from: source, options: .check)
            if options.form == .gif {
                plan.gif = try gifPlan(item, movie: movie, options: options, size: source.size, path: plan.source)
                plan.notes = plan.gif.map(gifNotes) ?? []
                if PathBytes.exists(plan.destination) && !options.force { plan.problems.append("\(plan.destination) exists (use --force to replace it)") }
                return plan
            }
            if let order = options.form.order {
                guard let track = movie.primaryVideoTrack else { throw RepairProblem("\(plan.source) has no video track") }
                let frames = ShownFrames(movie, track: track)
                guard frames.frames.count >= 2 else { throw RepairProblem("\(plan.source) shows \(frames.frames.count) frame(s): nothing to \(order.rawValue)") }
                let codec = options.codec ?? (track.sampleDescriptions.first?.format == "hvc1" || track.sampleDescriptions.first?.format == "hev1" ? "hevc" : "h264")
                let sequence = frames.sequence(order)
                try holdToBudget(track, decodes: order == .bounce ? frames.frames.count * 2 : frames.frames.count, options.budget, "\(plan.source) \(order.rawValue)")
                let retimed = Retimed(frames: frames, sequence: sequence, codec: codec, matrix: track.matrix)
                plan.retimed = retimed
                let seconds = retimed.seconds
                plan.notes = ["\(order.rawValue): \(options.container == .mp4 ? "an MP4 of " : "")\(sequence.count) frames of the source's \(frames.frames.count), each shown for its own duration (\(SecondsText.format(seconds)) s), re-encoded (\(codec == "hevc" ? "HEVC" : "H.264"), 8-bit 4:2:0, the source's colour tags kept): frames cannot be reversed in place",
                              "sound dropped, timed metadata and Live Photo keys not written: the movie holds the video alone"]
                if PathBytes.exists(plan.destination) && !options.force { plan.problems.append("\(plan.destination) exists (use --force to replace it)") }
                return plan
            }
            var opening: Int?
            if options.form == .loop && options.start == .still {
                opening = try openingSample(item, movie: movie, size: source.size, path: plan.source)
            }
            var made = try LoopMovieWriter.loop(movie, source: source, count: options.form == .movie ? 1 : options.count, opening: opening, dropSound: !options.keepsSound,
                                                container: options.container)
            if let range = plan.range { made.patch = made.patch.shifted(by: range.lowerBound) }
            plan.made = made
            plan.notes = made.patch.notes
            if PathBytes.exists(plan.destination) && !options.force { plan.problems.append("\(plan.destination) exists (use --force to replace it)") }
        } catch let problem as RepairProblem {
            plan.problems.append(problem.description)
        } catch {
            // The writer's and reader's errors name a box, not the file: the file first.
            plan.problems.append("\(plan.source.isEmpty ? "the input" : plan.source): \(error)")
        }
        return plan
    }

    /// A GIF's frames, delays and size, as the codec helper will make them.
    static func gifPlan(_ item: CheckItem, movie: Movie, options: ExportOptions, size: Int64, path: String) throws -> GIFPlan {
        guard let track = movie.primaryVideoTrack else { throw RepairProblem("\(path) has no video track") }
        guard let entry = track.sampleDescriptions.first, let codedWidth = entry.width, let codedHeight = entry.height else {
            throw RepairProblem("\(path): its video sample entry gives no size")
        }
        let frames = ShownFrames(movie, track: track)
        var opening = 0
        if options.start == .still {
            let sample = try stillFrame(item, movie: movie, size: size, path: path).sample.index
            opening = frames.frames.firstIndex { $0.sample == sample } ?? 0
        }
        let timeline: GIFTimeline
        do {
            timeline = try GIFTimeline(frames, opening: opening, rate: options.rate)
        } catch {
            throw RepairProblem("\(path): \(error)")
        }
        let shown = GIFTimeline.frameSize(codedWidth: Int(codedWidth), codedHeight: Int(codedHeight), clockwise: track.matrix.rotation ?? 0, width: options.width)
        try holdToBudget(track, decodes: max(timeline.entries.count, frames.frames.count) * 2, options.budget, "\(path) as a GIF")
        do {
            try options.budget.output(CodecBudget.gifWorstCase(width: shown.width, height: shown.height, frames: timeline.entries.count),
                                      "\(path): a GIF of \(timeline.entries.count) frames of \(shown.width)×\(shown.height)")
        } catch {
            throw RepairProblem(error.description)
        }
        return GIFPlan(timeline: timeline, width: shown.width, height: shown.height, opening: opening, dither: options.dither, palette: options.palette, rate: options.rate)
    }

    /// A re-encoded form's cost held to `budget` before anything is decoded: `decodes` pictures
    /// at the size the sample entry claims, and its longest group of pictures held at once (the
    /// codec helper holds both again as it decodes).
    static func holdToBudget(_ track: Track, decodes: Int, _ budget: CodecBudget, _ what: String) throws {
        guard let entry = track.sampleDescriptions.first, let width = entry.width, let height = entry.height else { return }
        let sync = track.sampleTable.syncSamples
        var longest = sync == nil ? 1 : 0
        if let sync {
            let count = Int(track.sampleTable.sampleCount)
            var previous = 1
            for number in sync.map({ Int($0) }).sorted() + [count + 1] where number >= previous {
                longest = max(longest, number - previous)
                previous = number
            }
        }
        do {
            try budget.pixels(width: Int(width), height: Int(height), frames: decodes, what)
            try budget.memory(width: Int(width), height: Int(height), frames: longest, tenthsOfBytePerPixel: entry.decodedTenthsOfBytePerPixel,
                              "\(what): its longest group of pictures")
        } catch {
            throw RepairProblem(error.description)
        }
    }

    static func gifNotes(_ plan: GIFPlan) -> [String] {
        let timeline = plan.timeline
        let which = plan.rate.map { "the frame shown at each 1/\($0) s" } ?? "every frame at its own time"
        return ["gif: \(timeline.entries.count) frames (\(which)\(plan.opening > 0 ? ", opening on frame \(plan.opening + 1), the still's" : "")), \(plan.width)×\(plan.height), \(plan.palette == .clip ? "one palette of 255 colours for the clip" : "a palette of 255 colours for each frame"), \(plan.dither.rawValue) dithering; delays of \(timeline.centiseconds) cs for a movie of \(SecondsText.format(timeline.seconds)) s, none under \(GIFTimeline.minimumDelay) cs; loops forever",
                "sound dropped: a GIF holds pictures alone"]
    }

    /// The frame shown at the still's moment (the still-image-time, or the motion photo's
    /// presentation timestamp).
    static func stillFrame(_ item: CheckItem, movie: Movie, size: Int64, path: String) throws -> MakePlanner.Frame {
        let seconds: Double?
        if item.kind == .motionPhoto {
            seconds = item.still?.motionPhoto?.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1_000_000 : nil }
        } else {
            seconds = item.movie?.movie?.stillImageTime?.seconds
        }
        guard let seconds else { throw RepairProblem("\(path) gives no still moment to open on (use --start first)") }
        guard let track = movie.primaryVideoTrack else { throw RepairProblem("\(path) has no video track") }
        return try MakePlanner.frame(movie, track: track, at: seconds, nearestSync: false, fileSize: size, path: path)
    }

    /// The sync sample at or before the frame shown at the still's moment.
    static func openingSample(_ item: CheckItem, movie: Movie, size: Int64, path: String) throws -> Int? {
        let frame = try stillFrame(item, movie: movie, size: size, path: path)
        guard let track = movie.primaryVideoTrack else { throw RepairProblem("\(path) has no video track") }
        let sync = track.sampleTable.syncSamples.map { Set($0) }
        var index = frame.sample.index
        while index > 0, !(sync?.contains(UInt32(index + 1)) ?? true) { index -= 1 }
        return index
    }

    /// Writes the plan's file to a temporary file, reads it back (every sample where the plan
    /// lists it, no timed metadata or Live Photo key left, the planned duration), then renames it.
    public static func apply(_ plan: ExportPlan, force: Bool) -> ExportOutcome {
        guard let made = plan.made else { return refused(plan, "nothing to write") }
        return written(plan, force: force, stage: {
            try SafeFileWriter.refuseNewOutput(plan.destination, inputs: plan.item.files.map(\.path))
            return try SafeFileWriter.stage(made.patch, original: plan.source, destination: plan.destination, identity: nil)
        }, verify: { try verify($0, plan: plan, made: made) })
    }

    /// A re-encoded export (reverse, bounce, gif): `produce` writes the encoded file (the codec
    /// helper's, through the run layer) into the writer's temporary; it is read back (a movie:
    /// the planned number of frames, each for its planned duration; a GIF: its frames, delays,
    /// size and looping as planned) before the rename.
    public static func apply(_ plan: ExportPlan, force: Bool, producing produce: (SafeFileWriter.ProducedFile) throws -> Void) -> ExportOutcome {
        guard plan.retimed != nil || plan.gif != nil else { return refused(plan, "nothing to encode") }
        return written(plan, force: force, stage: {
            try SafeFileWriter.stage(producedAs: plan.destination, inputs: plan.item.files.map(\.path), produce: produce)
        }, verify: { temporary in
            if let gif = plan.gif { try verify(temporary, plan: plan, gif: gif) }
            guard let retimed = plan.retimed else { return }
            let written = try Movie.read(from: try FileSource(path: temporary), options: .check)
            guard let track = written.primaryVideoTrack else { throw RepairProblem("the written \(plan.destination) has no video track") }
            let durations = track.sampleTable.timing().map(\.duration)
            let planned = retimed.sequence.map { retimed.frames.frames[$0].duration }
            guard durations == planned, track.mediaTimescale == retimed.frames.timescale else {
                throw RepairProblem("the written \(plan.destination) holds \(durations.count) frames, not the \(planned.count) planned, each for its own duration")
            }
            guard track.matrix == retimed.matrix else { throw RepairProblem("the written \(plan.destination) is not turned as the source is") }
        })
    }

    /// The written GIF read back block by block: complete, looping forever, the planned size,
    /// frames and delays.
    static func verify(_ path: String, plan: ExportPlan, gif: GIFPlan) throws {
        let source = try FileSource(path: path)
        guard source.size <= maxGIFBytes else { throw RepairProblem("the written \(plan.destination) is \(source.size) bytes, more than the \(maxGIFBytes) read back") }
        let structure = try GIFStructure(try source.read(at: 0, count: Int(source.size)), path: plan.destination, maxFrames: gif.timeline.entries.count)
        let delays = structure.frames.map(\.delay), planned = gif.timeline.entries.map(\.delay)
        guard structure.complete, structure.loopCount == 0, structure.width == gif.width, structure.height == gif.height, delays == planned else {
            throw RepairProblem("the written \(plan.destination) is not the GIF planned: \(structure.width)×\(structure.height), \(delays.count) frames of \(delays.reduce(0, +)) cs, loop count \(structure.loopCount.map(String.init) ?? "none")\(structure.complete ? "" : ", no trailer"); planned \(gif.width)×\(gif.height), \(planned.count) frames of \(gif.timeline.centiseconds) cs, looping forever")
        }
    }

    /// The largest GIF an export reads back (whole, into memory): 1 GiB, some four to five minutes
    /// of camera video as a 480-pixel GIF (test.mov gave 4.2 MB a second, IMG_3853 3.7 MB); a
    /// larger one fails and is not renamed.
    public static let maxGIFBytes: Int64 = 1 << 30

    static func refused(_ plan: ExportPlan, _ reason: String) -> ExportOutcome {
        var outcome = ExportOutcome()
        outcome.failure = plan.problems.isEmpty ? reason : plan.problems.joined(separator: "; ")
        return outcome
    }

    /// The one way an export is written: refused over an existing file without `force`,
    /// staged, read back by `verify` and by the damage rules, then renamed; nothing left when
    /// any step fails.
    static func written(_ plan: ExportPlan, force: Bool, stage: () throws -> SafeFileWriter.Staged, verify: (String) throws -> Void) -> ExportOutcome {
        var outcome = ExportOutcome()
        guard plan.problems.isEmpty else { return refused(plan, "") }
        do {
            if PathBytes.exists(plan.destination) && !force { throw RepairProblem("\(plan.destination) exists (use --force to replace it)") }
            let staged = try stage()
            do {
                try verify(staged.temporary)
                try refuseDamage(staged.temporary, destination: plan.destination)
                FaultInjection.step("verified")
                outcome.written = try SafeFileWriter.commit(staged, backup: false).path
            } catch {
                SafeFileWriter.discard(staged)
                throw error
            }
        } catch {
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// The written movie as `check` reads it: no damage rule may find anything (writers obey
    /// the readers' limits).
    static func refuseDamage(_ path: String, destination: String) throws {
        let facts = FileFacts(MediaFile.inspect(path: path, options: .check))
        var item = CheckItem(kind: .notLivePhoto, movie: facts)
        item.movie?.path = destination
        let damage = RuleRegistry.all.filter { $0.description.marksDamage }.flatMap { $0.check(item, context: RuleContext()) }
        if let first = damage.first { throw RepairProblem("the written \(destination) reads as damaged: \(first.rule): \(first.message)") }
    }

    /// The written movie read back against the plan and the source, sample by sample.
    static func verify(_ path: String, plan: ExportPlan, made: LoopMovieWriter.Made) throws {
        let output = try FileSource(path: path)
        let written = try Movie.read(from: output, options: .check)
        let input: ByteSource = try plan.range.map { WindowSource(try FileSource(path: plan.source), range: $0) } ?? FileSource(path: plan.source)
        let original = try Movie.read(from: input, options: .check)
        guard written.duration == made.duration else { throw RepairProblem("the written \(plan.destination) lasts \(written.duration) ticks, not the planned \(made.duration)") }
        guard !written.tracks.contains(where: { $0.isTimedMetadata }), !written.metadata.contains(where: { LoopMovieWriter.isLivePhotoKey($0.key) }) else {
            throw RepairProblem("the written \(plan.destination) still holds Live Photo metadata")
        }
        guard written.tracks.count == made.order.count else { throw RepairProblem("the written \(plan.destination) has \(written.tracks.count) tracks, not \(made.order.count)") }
        for track in written.tracks {
            guard let order = made.order[track.id], let from = original.tracks.first(where: { $0.id == track.id }) else {
                throw RepairProblem("the written \(plan.destination) has a track \(track.id) the plan does not")
            }
            let samples = try track.sampleTable.resolve(path: track.path), sources = try from.sampleTable.resolve(path: from.path)
            guard samples.count == order.count else { throw RepairProblem("track \(track.id) of the written \(plan.destination) lists \(samples.count) samples, not \(order.count)") }
            for (sample, index) in zip(samples, order) {
                guard index < sources.count else {
                    // Silence the writer added: zero bytes, one tick.
                    guard sample.duration == 1, try output.read(at: Int64(sample.offset), count: Int(sample.size)).allSatisfy({ $0 == 0 }) else {
                        throw RepairProblem("sample \(sample.index + 1) of track \(track.id) in the written \(plan.destination) is not the silence planned")
                    }
                    continue
                }
                let source = sources[index]
                let duration = index == sources.count - 1 ? made.trimmedLast[track.id] ?? source.duration : source.duration
                guard sample.duration == duration, sample.size == source.size,
                      sample.presentationTime - Int64(sample.decodeTime) == source.presentationTime - Int64(source.decodeTime),
                      try output.read(at: Int64(sample.offset), count: Int(sample.size)) == input.read(at: Int64(source.offset), count: Int(source.size)) else {
                    throw RepairProblem("sample \(sample.index + 1) of track \(track.id) in the written \(plan.destination) is not source sample \(index + 1) as planned")
                }
            }
        }
    }
}
