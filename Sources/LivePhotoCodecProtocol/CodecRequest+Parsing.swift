import LivePhotoFormats

extension CodecRequest {
    /// The request `arguments` (without the program's name) make, as `arguments` writes them;
    /// `Invalid` names what is wrong and the job's usage.
    public init(arguments: [String]) throws(Invalid) {
        guard let name = arguments.first, let usage = Self.usage[name] else {
            throw Invalid(description: "usage: lpcheck-codec " + Self.usage.keys.sorted().compactMap { Self.usage[$0] }.joined(separator: " | "))
        }
        let rest = Array(arguments.dropFirst())
        func bad(_ why: String? = nil) -> Invalid { Invalid(description: (why.map { $0 + "; " } ?? "") + "usage: " + usage) }
        let positional = ["probe": 0, "still": 3, "gif": 5, "frames": 3, "movie-gif": 2, "compare": 2, "thumbnail": 2, "sound": 2][name] ?? 0
        guard rest.count >= positional else { throw bad() }
        let known: Set<String> = switch name {
        case "probe": ["--max-pixels"]
        case "still", "compare", "thumbnail": ["--max-pixels"]
        case "sound": ["--window"]
        case "gif": ["--scale", "--max-pixels", "--max-frames"]
        case "frames": ["--window", "--quality", "--width", "--max-pixels", "--max-frames"]
        default: ["--fps", "--opening", "--dither", "--palette", "--window", "--max-pixels", "--max-frames"]
        }
        let options = try Self.options(rest, from: positional, known: known.union(Self.budgetOptions), bad: bad)
        let values = Array(rest.prefix(positional))
        func number(_ option: String, minimum: Int = 1) throws(Invalid) -> Int? {
            guard let text = options[option]?.first else { return nil }
            guard let value = Int(text), value >= minimum else { throw bad("\(option) takes a number of at least \(minimum)") }
            return value
        }
        func window() throws(Invalid) -> Range<Int64>? {
            guard let words = options["--window"] else { return nil }
            guard let start = Int64(words[0]), let length = Int64(words[1]), start >= 0, length > 0, start <= Int64.max - length else { throw bad("--window takes START LENGTH") }
            return start..<(start + length)
        }
        let job: Job
        switch name {
        case "probe":
            job = .probe
        case "still":
            guard let sample = Int(values[1]), sample >= 1, let kind = StillKind(rawValue: values[2]) else { throw bad() }
            job = .still(movie: values[0], sample: sample - 1, kind: kind)
        case "gif":
            guard let frame = Int(values[1]), frame >= 1, let still = StillKind(rawValue: values[2]), let codec = VideoCodec(rawValue: values[3]),
                  values[4].count == 6, values[4].allSatisfy(\.isHexDigit), let colour = UInt32(values[4], radix: 16) else { throw bad() }
            job = .gifMovie(gif: values[0], stillFrame: frame - 1, still: still, codec: codec, background: colour, scale: try number("--scale") ?? 1)
        case "compare":
            job = .compare(still: values[0], movie: values[1])
        case "thumbnail":
            guard let side = Int(values[1]), CodecRequest.thumbnailSides.contains(side) else {
                throw bad("SIDE takes a number of pixels from \(CodecRequest.thumbnailSides.lowerBound) to \(CodecRequest.thumbnailSides.upperBound)")
            }
            job = .thumbnail(still: values[0], side: side)
        case "sound":
            guard let track = UInt32(values[1]), track > 0 else { throw bad("TRACK takes a track ID from 1") }
            job = .sound(movie: values[0], track: track, window: try window())
        case "frames":
            guard let order = ShownFrames.Order(rawValue: values[1]), let codec = VideoCodec(rawValue: values[2]) else { throw bad() }
            var quality: Int?
            if let text = options["--quality"]?.first {
                guard let value = Int(text), CodecRequest.qualities.contains(value) else { throw bad("--quality takes a CRF from \(CodecRequest.qualities.lowerBound) to \(CodecRequest.qualities.upperBound)") }
                quality = value
            }
            var width: Int?
            if let text = options["--width"]?.first {
                guard let value = Int(text), CodecRequest.scaledWidths.contains(value), value % 2 == 0 else {
                    throw bad("--width takes an even number of pixels from \(CodecRequest.scaledWidths.lowerBound) to \(CodecRequest.scaledWidths.upperBound)")
                }
                width = value
            }
            job = .frames(movie: values[0], order: order, codec: codec, window: try window(), quality: quality, width: width)
        default:
            guard let width = Int(values[1]), width > 0 else { throw bad() }
            var gif = GIFRequest(width: width)
            if let text = options["--dither"]?.first {
                guard let dither = GIFDither(rawValue: text) else { throw bad("--dither takes \(GIFDither.allCases.map(\.rawValue).joined(separator: ", "))") }
                gif.dither = dither
            }
            if let text = options["--palette"]?.first {
                guard let palette = GIFPaletteScope(rawValue: text) else { throw bad("--palette takes clip or frame") }
                gif.palette = palette
            }
            gif.rate = try number("--fps")
            gif.opening = try number("--opening", minimum: 0) ?? 0
            job = .movieGIF(movie: values[0], gif: gif, window: try window())
        }
        self.init(job, maxPixels: try number("--max-pixels"), maxFrames: try number("--max-frames"))
        if options.keys.contains(where: Self.budgetOptions.contains) {
            var named: [String: String] = [:]
            for option in Self.budgetOptions { named[option] = options[option]?.first }
            guard let budget = CodecBudget(options: named) else { throw bad("--max-total-pixels, --max-memory and --max-output take a number from 1 to \(CodecBudget.maxValue)") }
            self.budget = budget
        }
    }

    static let budgetOptions: Set<String> = ["--max-total-pixels", "--max-memory", "--max-output"]

    /// The options after the positional values (from `first`), by name: `--window` takes
    /// START LENGTH, every other one value; a name not `known`, or given twice, is refused.
    static func options(_ rest: [String], from first: Int, known: Set<String>, bad: (String?) -> Invalid) throws(Invalid) -> [String: [String]] {
        var found: [String: [String]] = [:]
        var at = first
        while at < rest.count {
            let name = rest[at]
            guard known.contains(name) else { throw bad("unknown option \(name)") }
            guard found[name] == nil else { throw bad("\(name) is given twice") }
            let count = name == "--window" ? 2 : 1
            guard at + count < rest.count else { throw bad("\(name) takes \(count == 2 ? "START LENGTH" : "a value")") }
            found[name] = Array(rest[(at + 1)...(at + count)])
            at += 1 + count
        }
        return found
    }
}
