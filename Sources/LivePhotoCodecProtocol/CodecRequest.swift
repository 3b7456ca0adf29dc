import LivePhotoFormats

/// The video codecs the helper encodes.
public enum VideoCodec: String, Sendable, CaseIterable {
    case h264, hevc

    /// Its name in messages.
    public var name: String { self == .h264 ? "H.264" : "HEVC" }

    /// The codec of a video sample entry's format (`hvc1`/`hev1`: HEVC; else H.264), the one
    /// map from sample entries to codecs.
    public init(sampleEntry format: FourCC?) {
        self = format == "hvc1" || format == "hev1" ? .hevc : .h264
    }
}

/// The still pictures the helper encodes: a JPEG, or an HEVC picture lpcheck wraps in a HEIF.
public enum StillKind: String, Sendable, CaseIterable {
    case jpeg, hevc
}

/// One job for the codec helper, the only grammar between the two programs: lpcheck makes a
/// request and hands the helper its `arguments`; the helper parses them back with
/// `init(arguments:)`. Every job takes the budget's options (`CodecBudget.arguments`) and the
/// picture limits; `Tests` hold every case to the round trip.
public struct CodecRequest: Sendable, Equatable {
    public enum Job: Sendable, Equatable {
        /// FFmpeg's versions; with a budget, the address-space limit the helper then runs under.
        case probe
        /// The video track's sample `sample` (0-based, decoding order), decoded and encoded.
        case still(movie: String, sample: Int, kind: StillKind)
        /// A GIF's frames composited over `background` (0xRRGGBB), each GIF pixel a `scale`
        /// block, encoded with their shown delays; then the still of frame `stillFrame` (0-based).
        case gifMovie(gif: String, stillFrame: Int, still: StillKind, codec: VideoCodec, background: UInt32, scale: Int)
        /// A movie's shown frames (within `window` of the file: a motion photo's movie) in
        /// `order`, each encoded for its own duration: at `quality` (a CRF, 0–51) when given,
        /// else at the source's bit rate; scaled to `width` pixels wide when the stored pictures
        /// are wider (aspect kept, even sides: `check --previews`).
        case frames(movie: String, order: ShownFrames.Order, codec: VideoCodec, window: Range<Int64>?, quality: Int? = nil, width: Int? = nil)
        /// A movie as an animated GIF.
        case movieGIF(movie: String, gif: GIFRequest, window: Range<Int64>?)
        /// A still (JPEG, or a HEIF of one coded picture) compared with the frames shown at and
        /// beside its movie's still-image-time: make's read-back.
        case compare(still: String, movie: String)
        /// A still's picture (a HEIF's thumbnail item where it has one, else its primary; a
        /// JPEG's, a PNG's) scaled to `side` pixels on its longer side at most, as a JPEG: an
        /// HTML report's card (`check --thumbnails`).
        case thumbnail(still: String, side: Int)
        /// A PCM sound track (`track`, its ID) of a movie (within `window` of the file: a .livp's
        /// member) encoded to AAC-LC: what a motion photo's movie carries.
        case sound(movie: String, track: UInt32, window: Range<Int64>?)
    }

    /// What a movie becomes as a GIF: `width` wide at most, every shown frame or `rate` a
    /// second, from shown frame `opening`, dithered and paletted so.
    public struct GIFRequest: Sendable, Equatable {
        public var width: Int
        public var rate: Int?
        public var opening = 0
        public var dither = GIFDither.sierraLite
        public var palette = GIFPaletteScope.clip
        public init(width: Int) { self.width = width }
    }

    public var job: Job
    /// Width × height of a picture at most (the helper's default: `CodecLimits.maxPixels`).
    public var maxPixels: Int?
    /// Frames at most (the helper's default: the job's own); not written for a job that counts none.
    public var maxFrames: Int?
    /// What the job may spend; nil: the helper's standard budget (and, for `probe`, no limit shown).
    public var budget: CodecBudget?

    public init(_ job: Job, maxPixels: Int? = nil, maxFrames: Int? = nil, budget: CodecBudget? = nil) {
        (self.job, self.maxPixels, self.maxFrames, self.budget) = (job, maxPixels, maxFrames, budget)
    }

    /// Whether the job counts frames (a still and a probe do not: they take no `--max-frames`).
    public var countsFrames: Bool {
        switch job {
        case .probe, .still, .compare, .thumbnail, .sound: return false
        case .gifMovie, .frames, .movieGIF: return true
        }
    }

    /// Whether the job decodes pictures (a sound does not: it takes no `--max-pixels`).
    public var countsPixels: Bool {
        if case .sound = job { return false }
        return true
    }

    /// The job's name on the command line.
    public var name: String {
        switch job {
        case .probe: return "probe"
        case .still: return "still"
        case .gifMovie: return "gif"
        case .frames: return "frames"
        case .movieGIF: return "movie-gif"
        case .compare: return "compare"
        case .thumbnail: return "thumbnail"
        case .sound: return "sound"
        }
    }

    /// The file the job reads ("the input" for `probe`).
    public var input: String {
        switch job {
        case .probe: return "the input"
        case .still(let movie, _, _), .frames(let movie, _, _, _, _, _), .movieGIF(let movie, _, _): return movie
        case .gifMovie(let gif, _, _, _, _, _): return gif
        case .compare(let still, _), .thumbnail(let still, _): return still
        case .sound(let movie, _, _): return movie
        }
    }

    /// What the helper is doing, for messages.
    public var stage: String {
        switch job {
        case .probe: return "probe"
        case .still: return "decoding and encoding the still"
        case .gifMovie: return "making the GIF's movie"
        case .frames: return "re-timing and encoding the frames"
        case .movieGIF: return "making the GIF"
        case .compare: return "comparing the still with the movie's moment"
        case .thumbnail: return "making the still's thumbnail"
        case .sound: return "encoding the sound to AAC"
        }
    }

    /// The helper's arguments: the job's name, its positional values, then its options.
    public var arguments: [String] {
        var words = [name], options: [String] = []
        switch job {
        case .probe:
            break
        case .still(let movie, let sample, let kind):
            words += [movie, String(sample + 1), kind.rawValue]
        case .gifMovie(let gif, let stillFrame, let still, let codec, let background, let scale):
            words += [gif, String(stillFrame + 1), still.rawValue, codec.rawValue, Self.hex(background), "--scale", String(scale)]
        case .frames(let movie, let order, let codec, let window, let quality, let width):
            words += [movie, order.rawValue, codec.rawValue]
            options += Self.windowArguments(window)
            if let quality { options += ["--quality", String(quality)] }
            if let width { options += ["--width", String(width)] }
        case .movieGIF(let movie, let gif, let window):
            words += [movie, String(gif.width), "--opening", String(gif.opening), "--dither", gif.dither.rawValue, "--palette", gif.palette.rawValue]
            if let rate = gif.rate { options += ["--fps", String(rate)] }
            options += Self.windowArguments(window)
        case .compare(let still, let movie):
            words += [still, movie]
        case .thumbnail(let still, let side):
            words += [still, String(side)]
        case .sound(let movie, let track, let window):
            words += [movie, String(track)]
            options += Self.windowArguments(window)
        }
        if let maxPixels, countsPixels { options += ["--max-pixels", String(maxPixels)] }
        if let maxFrames, countsFrames { options += ["--max-frames", String(maxFrames)] }
        return words + options + (budget?.arguments ?? [])
    }

    static func hex(_ colour: UInt32) -> String {
        let digits = String(colour & 0xFF_FFFF, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func windowArguments(_ window: Range<Int64>?) -> [String] {
        window.map { ["--window", String($0.lowerBound), String($0.count)] } ?? []
    }

    /// Arguments that are no request: a usage line for the job (or all of them).
    public struct Invalid: Error, Sendable, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The sides a thumbnail may have (pixels on its longer side).
    public static let thumbnailSides = 16...1024

    /// The widths a `frames` job scales to (`--width`): even, at least a macroblock's.
    public static let scaledWidths = 16...16_384
    /// The CRF of pictures a `frames` job scales down (a report's preview, seen small) unless
    /// one is asked: x264's own default, where the source's bit rate would spend a full-size
    /// movie's bytes on them.
    public static let scaledQuality = 23

    /// The CRFs x264 and x265 take (`--quality`).
    public static let qualities = 0...51

    /// The usage of each job, for `Invalid`.
    public static let usage: [String: String] = [
        "probe": "probe [--max-memory BYTES] [--max-pixels N]",
        "still": "still MOVIE SAMPLE jpeg|hevc [--max-pixels N]",
        "gif": "gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB [--scale K] [--max-pixels N] [--max-frames N]",
        "frames": "frames MOVIE \(ShownFrames.Order.allCases.map(\.rawValue).joined(separator: "|")) h264|hevc [--window START LENGTH] [--quality CRF] [--width PIXELS] [--max-pixels N] [--max-frames N]",
        "compare": "compare STILL MOVIE [--max-pixels N]",
        "thumbnail": "thumbnail STILL SIDE [--max-pixels N]",
        "sound": "sound MOVIE TRACK [--window START LENGTH]",
        "movie-gif": "movie-gif MOVIE WIDTH [--fps N] [--opening FRAME] [--dither \(GIFDither.allCases.map(\.rawValue).joined(separator: "|"))] [--palette clip|frame] [--window START LENGTH] [--max-pixels N] [--max-frames N]",
    ]
}
