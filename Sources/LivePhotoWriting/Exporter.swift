import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
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
    /// A bounce that holds its last frame a quarter of a second at the turn: re-encoded.
    case boomerang
    /// An animated GIF looping forever, its delays summing to the movie's duration.
    case gif

    /// The re-timed order of a form that re-encodes, nil for those that copy samples.
    public var order: ShownFrames.Order? { ShownFrames.Order(rawValue: rawValue) }

    /// The forms whose frames are re-timed and re-encoded.
    public static var retimed: [ExportForm] { allCases.filter { $0.order != nil } }

    /// Names as a sentence lists them: "a, b or c".
    public static func listed(_ forms: [ExportForm]) -> String {
        let names = forms.map(\.rawValue)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
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
    /// Accept the losses a plan names, and writing from damaged input (`RepairOptions`).
    public var allowLoss = false, allowDamaged = false
    public var count = 3
    public var start = LoopStart.first
    public var force = false
    /// The codec of a re-encoded form; nil: the source's (H.264 or HEVC).
    public var codec: VideoCodec?
    /// A re-timed movie's CRF (x264/x265); nil: capped at 1.3× the source's bit rate.
    public var quality: Int?
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
    /// Refuse an export after which the input's Content Credentials no longer bind.
    public var keepCredentials = false
    /// The frames re-encoded in this order whatever the form (`check --previews`: `forward`, to
    /// H.264, for a browser that plays no HEVC); nil: the form's own.
    public var reencode: ShownFrames.Order?
    /// A re-encoded movie's pictures scaled down to this width when wider (`check --previews`,
    /// seen in a card's box); nil: the source's size.
    public var movieWidth: Int?
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

/// Plans exports: one item plan each, written by `PlanWriter` as every writer's plans are (each
/// output read back as its plan states before it is renamed).
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

    /// The most frames a re-timed export or a GIF decodes and encodes.
    public static let maxFrames = CodecLimits.maxFrames

    /// The item's export: one new file (`FilePlan.newOutput`), read back as a file of its own.
    public static func plan(_ item: CheckItem, options: ExportOptions, folder: String) -> ItemPlan {
        var plan = ItemPlan(item: item)
        plan.verification = .outputsAlone
        let destination = (folder as NSString).appendingPathComponent(outputName(item, form: options.form, container: options.container))
        var sourcePath = ""
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
            let (source, range) = try movieSource(item)
            sourcePath = source.path
            let movie = try Movie.read(from: source.bytes, options: .check)
            var file: FilePlan
            if options.form == .gif {
                let gif = try gifPlan(item, movie: movie, options: options, size: source.bytes.size, path: sourcePath)
                var request = CodecRequest.GIFRequest(width: gif.width)
                (request.opening, request.dither, request.palette, request.rate) = (gif.opening, gif.dither, gif.palette, gif.rate)
                file = FilePlan(path: sourcePath, destination: destination, produced: ProducedContent(
                    request: CodecRequest(.movieGIF(movie: sourcePath, gif: request, window: range), maxFrames: maxFrames, budget: options.budget), form: .bytes))
                file.readBack = .gif(width: gif.width, height: gif.height, delays: gif.timeline.entries.map(\.delay))
                (file.seconds, file.frames) = (gif.seconds, gif.timeline.entries.count)
                plan.reasons = gifNotes(gif)
            } else if let order = options.reencode ?? options.form.order {
                guard let track = movie.primaryVideoTrack else { throw RepairProblem("\(sourcePath) has no video track") }
                let frames = ShownFrames(movie, track: track)
                guard frames.frames.count >= 2 else { throw RepairProblem("\(sourcePath) shows \(Plural.count(frames.frames.count, "frame")): nothing to \(order.rawValue)") }
                let codec = options.codec ?? VideoCodec(sampleEntry: track.sampleDescriptions.first?.format)
                let sequence = frames.sequence(order)
                try holdToBudget(track, decodes: frames.decodes(order), options.budget, "\(sourcePath) \(order.rawValue)")
                file = FilePlan(path: sourcePath, destination: destination, produced: ProducedContent(
                    request: CodecRequest(.frames(movie: sourcePath, order: order, codec: codec, window: range, quality: options.quality, width: options.movieWidth),
                                          maxFrames: maxFrames, budget: options.budget),
                    form: .movie(turn: track.matrix, container: options.container)))
                let durations = sequence.map { frames.frames[$0].duration }
                file.readBack = .frames(durations: durations, timescale: frames.timescale, matrix: track.matrix)
                let seconds = Double(durations.reduce(UInt64(0)) { $0 + UInt64($1) }) / Double(max(1, frames.timescale))
                (file.seconds, file.frames) = (seconds, sequence.count)
                // The helper scales what it decodes wider than movieWidth; a sample entry that
                // gives no width leaves the plan saying "at most".
                let stored = track.sampleDescriptions.first?.width.map(Int.init)
                let scaled = options.movieWidth.flatMap { width in stored.map { $0 > width } ?? true ? width : nil }
                let scaling = scaled.map { width in stored.map { ", scaled from \($0) to \(width) pixels wide" } ?? ", scaled to \(width) pixels wide at most" } ?? ""
                let rate = options.quality.map { "CRF \($0)" } ?? (scaled == nil ? "at most 1.3× the source's bit rate" : "CRF \(CodecRequest.scaledQuality) where scaled")
                plan.reasons = ["\(order.rawValue): \(options.container == .mp4 ? "an MP4 of " : "")\(sequence.count) frames of the source's \(frames.frames.count), each shown for its own duration (\(SecondsText.format(seconds)) s), re-encoded (\(codec.name), 8-bit 4:2:0\(scaling), \(rate), the source's colour tags kept): \(order == .forward ? "for a player of \(codec.name)" : "frames cannot be reversed in place")",
                                "sound dropped, timed metadata and Live Photo keys not written: the movie holds the video alone"]
            } else {
                var opening: Int?
                if options.form == .loop && options.start == .still {
                    opening = try openingSample(item, movie: movie, size: source.bytes.size, path: sourcePath)
                }
                var made = try LoopMovieWriter.loop(movie, source: source.bytes, count: options.form == .movie ? 1 : options.count, opening: opening, dropSound: !options.keepsSound,
                                                    container: options.container)
                if let range { made.patch = made.patch.shifted(by: range.lowerBound) }
                file = FilePlan(path: sourcePath, destination: destination, patch: made.patch)
                file.readBack = .samples(made, source: sourcePath, range: range)
                file.seconds = made.seconds
                plan.reasons = made.patch.notes
            }
            file.newOutput = true
            file.credentialsLost = (try? credentialsLost(file, input: sourcePath)) ?? nil
            plan.files = [file]
            if PathBytes.exists(destination) && !options.force { plan.problems.append("\(destination) exists (use --force to replace it)") }
        } catch let problem as RepairProblem {
            plan.problems.append(problem.description)
        } catch {
            // The writer's and reader's errors name a box, not the file: the file first.
            plan.problems.append("\(sourcePath.isEmpty ? "the input" : sourcePath): \(error)")
        }
        return plan
    }

    /// The item's movie: its file's path and bytes (a motion photo's: the window of its still that
    /// holds it, `range`).
    static func movieSource(_ item: CheckItem) throws -> (source: (path: String, bytes: ByteSource), range: Range<Int64>?) {
        if item.kind == .motionPhoto {
            guard let still = item.still, let movieRange = still.motionPhoto?.movieRange else { throw RepairProblem("the motion photo's movie was not found") }
            return ((still.path, WindowSource(try FileSource(path: still.path), range: movieRange)), movieRange)
        }
        guard let movie = item.movie else { throw RepairProblem("the pair has no movie") }
        return ((movie.path, try FileSource(path: movie.path)), nil)
    }

    /// The sample entry format of the item's movie's video track (`avc1`, `hvc1`), nil when it
    /// has none or cannot be read.
    public static func videoFormat(_ item: CheckItem) -> FourCC? {
        guard let (source, _) = try? movieSource(item), let movie = try? Movie.read(from: source.bytes, options: .check) else { return nil }
        return movie.primaryVideoTrack?.sampleDescriptions.first?.format
    }

    /// Whether the input's Content Credentials stop binding in the export: a copied movie's are
    /// looked for in the planned bytes (`FilePlan.credentialsLost`); what the codec helper makes
    /// carries none.
    static func credentialsLost(_ file: FilePlan, input: String) throws -> String? {
        if let patch = file.patch {
            return try FilePlan.credentialsLost([LedgerInput(path: input)], output: PatchSource(patch, original: try FileSource(path: input)), destination: file.destination)
        }
        let source = try FileSource(path: input)
        let read = MediaFile.inspect(source: source, path: input, options: .check)
        guard let active = try read.credentialsStore(source)?.active else { return nil }
        return "\(input) carries Content Credentials (active manifest \(active.label)\(active.signer.map { ", signed by \($0)" } ?? "")); \(file.destination), made anew by the codec helper, will not carry them"
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
        let shown = GIFTimeline.frameSize(codedWidth: Int(codedWidth), codedHeight: Int(codedHeight), clockwise: track.matrix.swapsSides ? 90 : 0, width: options.width)
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
                "sound dropped: a GIF holds pictures alone",
                Self.ditherNote[plan.dither] ?? ""].filter { !$0.isEmpty }
    }

    /// Which dithering wins where (BENCHMARKS.md, issue 50: two camera clips at 480 px every
    /// frame, RGB PSNR against the source's frames at the GIF frames' times).
    static let ditherNote: [GIFDither: String] = [
        .sierraLite: "sierra-lite dithering (FFmpeg's default) hides banding; by PSNR it measured 0.4–0.7 dB under FFmpeg's usual bayer recipe (palettegen stats_mode=diff) at 1.03–1.12× its size, and --dither none 1.3–3.8 dB over it at 0.95–0.98× (banding where colours grade)",
        .none: "no dithering: the highest PSNR and the smallest file measured (1.3–3.8 dB over FFmpeg's usual bayer recipe at 0.95–0.98× its size), bands where colours grade",
    ]

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

    /// The largest GIF an export reads back (whole, into memory): 1 GiB, some four to five minutes
    /// of camera video as a 480-pixel GIF (test.mov gave 4.2 MB a second, IMG_3853 3.7 MB); a
    /// larger one fails and is not renamed.
    public static let maxGIFBytes: Int64 = 1 << 30
}
