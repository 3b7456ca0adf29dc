import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats

/// `make CLIP` and `make GIF`, planned here and not in the run layer: the GIF's limits, the
/// frame its still is, its movie's request; the still's picture (a coded sample, or what the
/// codec helper decodes and encodes); the outputs' names; the plan's reasons.
extension MakePlanner {
    /// What one `make CLIP` is asked for, besides its input.
    public struct ClipSettings: Sendable {
        public var stillFormat = StillFormat.heic
        /// `--lossless-still`: the moment moves to the nearest sync sample, whose coded picture is the still.
        public var losslessStill = false
        public var limits = Limits()
        /// make GIF: the background transparent pixels are shown over (RRGGBB), the codec, the frame limit.
        public var background = "FFFFFF"
        public var codec = VideoCodec.h264
        public var maxFrames = GIFStructure.maxFrames
        /// make GIF: each GIF pixel shown as a block this many pixels wide; nil chooses (`gifScale`).
        public var gifScale: Int?
        /// What the codec helper may spend.
        public var budget = CodecBudget.standard
        public init() {}
    }

    /// The still's and the movie's names in `folder`, from the input's name.
    public static func outputs(_ input: String, folder: String, format: StillFormat) -> (still: String, movie: String) {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder + "/" + base + "." + format.fileExtension, folder + "/" + base + ".MOV")
    }

    /// The motion photo's name in `folder` (make CLIP --to motion-photo).
    public static func motionPhotoPath(_ input: String, folder: String, format: StillFormat) -> String {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return folder + "/" + base + (format == .jpeg ? ".MP.jpg" : ".MP.heic")
    }

    /// A GIF made into a Live Photo: the helper's request (its frames composited and encoded,
    /// the still's frame), and the reasons the plan gives.
    public struct GIFJob: Sendable {
        public var request: CodecRequest
        public var reasons: [String]
        /// What the plan says before anything else (a GIF of one frame: nothing moves).
        public var warning: String?
        /// The moment: where the still's frame starts on the GIF's timeline (and its movie's),
        /// so that the still-image-time marks the frame the still is.
        public var moment: Moment
    }

    /// The GIF job for `gif` (its bytes read whole, at most 256 MiB): the GIF's limits, the frame
    /// shown at the moment (`--time`, `--frame`, else the middle), the scale, the budget.
    public static func gifJob(_ gif: String, settings: ClipSettings, options: RepairOptions) throws -> GIFJob {
        let structure: GIFStructure
        do {
            let source = try FileSource(path: gif)
            guard source.size <= 256 << 20 else { throw Failure("\(gif): a GIF of \(source.size) bytes, more than the 256 MiB make reads") }
            structure = try GIFStructure(try source.read(at: 0, count: Int(source.size)), path: gif, maxFrames: settings.maxFrames)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure("\(gif): \(error)")
        }
        let limits = settings.limits
        guard structure.width > 0, structure.height > 0 else { throw Failure("\(gif): a logical screen of \(structure.width)×\(structure.height): the GIF has no picture to show") }
        guard structure.width * structure.height <= limits.maxPixels, structure.width <= limits.maxSide, structure.height <= limits.maxSide else {
            throw Failure("\(gif): a logical screen of \(structure.width)×\(structure.height), more than the \(limits.maxPixels) pixels (\(limits.maxSide) a side) make reads (--max-pixels)")
        }
        guard !structure.frames.isEmpty else { throw Failure("\(gif): the GIF holds no frame") }
        guard structure.complete else { throw Failure("\(gif): the GIF ends before its trailer (truncated)") }
        // The moment on the GIF's own timeline: --time, --frame, else the frame shown at the middle.
        let (starts, total) = structure.shownStarts
        let still: Int
        let asked = options.time != nil || options.frame != nil
        if let time = options.time {
            guard time >= 0, time * 100 <= Double(total) else { throw Failure("--time \(time) is outside the GIF (0–\(Double(total) / 100) s)") }
            still = starts.lastIndex { Double($0) <= time * 100 + 1e-6 } ?? 0
        } else if let frame = options.frame {
            guard starts.indices.contains(frame) else { throw Failure("--frame \(frame): the GIF has \(starts.count) frames") }
            still = frame
        } else {
            still = starts.lastIndex { $0 * 2 <= total } ?? 0
        }
        let scale = gifScale(width: structure.width, height: structure.height, asked: settings.gifScale)
        // The movie's frames are padded to even sides (4:2:0): that size is what is written.
        let (movieWidth, movieHeight) = (structure.width * scale + structure.width * scale % 2, structure.height * scale + structure.height * scale % 2)
        guard movieWidth * movieHeight <= limits.maxPixels, movieWidth <= limits.maxSide, movieHeight <= limits.maxSide else {
            throw Failure("\(gif): \(structure.width)×\(structure.height) shown ×\(scale) makes \(movieWidth)×\(movieHeight) frames (4:2:0 needs even sides), more than the \(limits.maxPixels) pixels (\(limits.maxSide) a side) make writes (--max-pixels)")
        }
        do {
            try settings.budget.pixels(width: structure.width * scale, height: structure.height * scale, frames: structure.frames.count, "\(gif): a GIF of \(structure.frames.count) frames composited")
        } catch {
            throw Failure(error.description)
        }
        guard let background = UInt32(settings.background, radix: 16), settings.background.count == 6 else { throw Failure("--background takes RRGGBB, not \(settings.background)") }
        let request = CodecRequest(.gifMovie(gif: gif, stillFrame: still, still: settings.stillFormat == .jpeg ? .jpeg : .hevc, codec: settings.codec, background: background, scale: scale),
                                   maxPixels: limits.maxPixels, maxFrames: settings.maxFrames, budget: settings.budget)
        let padded = scale > 1 ? ", each GIF pixel a \(scale)×\(scale) block, \(structure.width * scale)×\(structure.height * scale)"
            : structure.width % 2 + structure.height % 2 > 0 ? ", padded to even sides" : ""
        let moment = Moment(seconds: Double(starts[still]) / 100, origin: asked ? .requested : .middle, value: -1)
        let reasons = [
            "movie: the GIF's \(Plural.count(structure.frames.count, "frame")) composited over #\(settings.background) and encoded (\(settings.codec.name)\(padded)), \(structure.frames.count == 1 ? "shown" : "each shown") for its own delay (under 2 cs shown as 10 cs, as browsers do): \(SecondsText.format(Double(total) / 100)) s",
            "still: frame \(still + 1) of the GIF, as composited",
        ]
        // A GIF of one frame makes a Live Photo that does not move: said first, still made.
        let warning = structure.frames.count == 1
            ? "NOTHING MOVES: the GIF has one frame, so the Live Photo's movie shows the still's picture for \(SecondsText.format(Double(total) / 100)) s and nothing moves when it plays" : nil
        return GIFJob(request: request, reasons: reasons, warning: warning, moment: moment)
    }

    /// The GIF's movie, made by the helper into `file` as it comes; the still its answer ends with.
    public static func gifMovie(_ job: GIFJob, into file: SafeFileWriter.ProducedFile, progress: (@Sendable (Int, Int) -> Void)?) throws -> [UInt8] {
        guard let still = try CodecHelper.encodedMovie(job.request, into: file, progress: progress).still else {
            throw CodecHelper.Failure(status: 1, description: "the codec helper's answer lacks the still")
        }
        return still
    }

    /// The still a GIF's answer gave, as a picture for the movie made from it (`movie`: the
    /// movie written from the same answer, whose track the HEIF's properties follow).
    public static func gifStill(_ answer: [UInt8], format: StillFormat, movie: String, gif: String) throws -> StillPicture {
        switch try StillAnswer(answer, kind: format == .jpeg ? .jpeg : .hevc) {
        case .jpeg(let bytes):
            return .jpeg(bytes)
        case .hevc(let configuration, let colour, let picture):
            guard let track = MediaFile.inspect(path: movie, options: .full).movie?.primaryVideoTrack else { throw Failure("\(gif): the movie made from it does not read back") }
            return .heif(try encodedImage(configuration: configuration, colour: colour, picture: picture, track: track, path: gif))
        }
    }

    /// The still of a clip's `frame`: its coded picture when it is a sync sample whose NAL units
    /// decode alone (a HEIC), else the frame decoded and encoded by the helper. Returns why a
    /// sample marked sync was not taken as it is, if it was not.
    public static func clipStill(_ clip: String, frame: Frame, track: Track, settings: ClipSettings) throws -> (picture: StillPicture, notIntra: String?) {
        var notIntra: String? = nil
        if settings.stillFormat == .heic, isLossless(frame) {
            notIntra = (try? FileSource(path: clip)).map { self.notIntra(frame, source: $0) } ?? "the movie cannot be read again"
            if notIntra == nil { return (.heif(try codedImage(frame, track: track, path: clip)), nil) }
        }
        let kind: StillKind = settings.stillFormat == .jpeg ? .jpeg : .hevc
        let request = CodecRequest(.still(movie: clip, sample: frame.sample.index, kind: kind), maxPixels: settings.limits.maxPixels, budget: settings.budget)
        switch try CodecHelper.still(request) {
        case .jpeg(let bytes):
            return (.jpeg(bytes), notIntra)
        case .hevc(let configuration, let colour, let picture):
            do {
                return (.heif(try encodedImage(configuration: configuration, colour: colour, picture: picture, track: track, path: clip)), notIntra)
            } catch {
                throw CodecHelper.Failure(status: 1, description: "\(error)")
            }
        }
    }

    /// Why the clip's plan is what it is: the window of a long clip, what a JPEG loses, the
    /// sample the still is, a matrix no orientation says, a sync sample decoded after all.
    public static func clipReasons(frame: Frame, track: Track, window: PresentationWindow?, duration: Double, jpegFromFrame: Bool, notIntra: String?, heicOffered: Bool = true) -> [String] {
        var reasons: [String] = []
        let longest = RuleContext().maxMovieSeconds
        if let window {
            reasons.append("the clip lasts \(SecondsText.format(duration)) s: the movie shows \(SecondsText.format(window.duration)) s of it around the moment, from \(SecondsText.format(window.start)) s (Photos may trim or refuse a Live Photo movie over \(SecondsText.format(longest)) s; every sample is kept; --movie-seconds 0 shows it all)")
        }
        if jpegFromFrame { reasons += jpegLosses(frame.description, heicOffered: heicOffered) }
        reasons.append("still: sample \(frame.sample.index + 1) of the video track, shown from \(SecondsText.format(frame.seconds)) s\(frame.isSync ? " (a sync sample)" : "")")
        if track.matrix.exifOrientation == nil {
            let m = track.matrix
            let degrees = (atan2(Double(m.b), Double(m.a)) * 180 / .pi).rounded()
            let shape = Int64(m.a) * Int64(m.d) - Int64(m.b) * Int64(m.c) < 0 ? "mirrors" : m.a == m.d && m.b == -m.c ? "turns by \(Int(degrees))°" : "skews or scales"
            reasons.append("still: the video track's matrix (\(m.a), \(m.b), \(m.c), \(m.d) in 16.16) \(shape), which no Exif or HEIF orientation says (they turn by quarter turns): the still is stored as the frames are coded, unturned, while players show the movie through its matrix, so the two will not look alike")
        }
        if let notIntra {
            reasons.append("still: sample \(frame.sample.index + 1) is marked sync\(track.sampleTable.syncSamples == nil ? " (the track has no stss: by the format's rule every sample is)" : ""), but \(notIntra): its picture needs others to decode, so the still is decoded and encoded, not copied")
        }
        return reasons
    }

    /// What the wallpaper's rules still find in a written pair: what make cannot change without
    /// re-encoding (a JPEG still, a long movie) or was asked for (a moment on the first frame),
    /// one line each, or the line that none is left.
    public static func wallpaperLimits(still: String, movie: String) -> [String] {
        let item = CheckItem(kind: .pair, still: FileFacts(MediaFile.inspect(path: still, options: .check)),
                             movie: FileFacts(MediaFile.inspect(path: movie, options: .check)), pairedBy: .identifier)
        let findings = RuleRegistry.all.filter { $0.description.category == .wallpaper }.flatMap { $0.check(item, context: RuleContext()) }
        guard !findings.isEmpty else { return ["wallpaper: none of the lock screen's reported requirements is left unmet (all are low confidence)"] }
        return findings.map { finding in
            let why = finding.rule == "wallpaper-still-on-first-frame" ? "--time or --frame place the moment elsewhere" : "make does not re-encode"
            return "wallpaper, not done (\(why)): \(finding.message)"
        }
    }
}
