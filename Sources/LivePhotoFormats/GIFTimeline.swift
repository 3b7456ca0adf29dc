/// What a GIF made from a movie shows and for how long: which of the movie's shown frames each
/// GIF frame is, and its delay in centiseconds. Delays are the differences of the frames' start
/// times rounded to centiseconds, so the rounding error is carried forward and the delays sum to
/// the movie's duration within half a centisecond. A frame that would last under 2 cs (browsers
/// show such a delay as 10 cs) is dropped and the frame before it shown on, so the total holds.
/// The codec helper encodes this timeline and `export` reads the GIF back against it.
public struct GIFTimeline: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// An index into `ShownFrames.frames`.
        public var frame: Int
        /// Centiseconds.
        public var delay: Int
        public init(frame: Int, delay: Int) { (self.frame, self.delay) = (frame, delay) }
    }

    public var entries: [Entry]
    /// The movie's shown duration, media ticks, and its timescale.
    public var ticks: UInt64
    public var timescale: UInt32

    /// The shortest delay browsers show as written.
    public static let minimumDelay = 2
    /// The highest rate asked for (`--fps`): one frame a minimum delay.
    public static let maxRate = 50
    /// The longest movie and finest timescale a GIF is made from (the loop writer's bounds).
    public static let maxTicks = LoopMovieWriter.maxTicks
    public static let maxTimescale = UInt32(LoopMovieWriter.maxTimescale)

    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// `opening`: the index of the frame the GIF opens on (the frames before it come after the
    /// last). `rate`: frames a second, each showing the movie's frame at its time; nil keeps
    /// every frame at its own time.
    /// At most `maxFrames` GIF frames are planned.
    public init(_ shown: ShownFrames, opening: Int = 0, rate: Int? = nil, maxFrames: Int = GIFStructure.maxFrames) throws {
        timescale = shown.timescale
        let frames = shown.frames
        guard timescale > 0, !frames.isEmpty else { throw Refusal(description: "the video track shows no frame") }
        guard frames.indices.contains(opening) else { throw Refusal(description: "frame \(opening + 1) opens the GIF, but the track shows \(frames.count)") }
        if let rate, !(1...Self.maxRate).contains(rate) { throw Refusal(description: "a rate of \(rate) frames a second: GIF delays of at least \(Self.minimumDelay) cs allow 1 to \(Self.maxRate)") }
        // Frames in the order shown, each with its start from the opening, in ticks.
        var starts: [(frame: Int, start: UInt64)] = []
        starts.reserveCapacity(frames.count)
        var time: UInt64 = 0
        for step in 0..<frames.count {
            let index = (opening + step) % frames.count
            starts.append((index, time))
            time += UInt64(frames[index].duration)
        }
        ticks = time
        guard ticks > 0 else { throw Refusal(description: "the video track's frames last no time") }
        guard ticks <= Self.maxTicks, timescale <= Self.maxTimescale else {
            throw Refusal(description: "the video track lasts \(ticks) ticks of 1/\(timescale) s, more than a GIF is made of (\(Self.maxTicks) ticks, \(Self.maxTimescale) a second)")
        }
        let scale = UInt64(shown.timescale)
        let planned = rate.map { (time * UInt64($0) + scale - 1) / scale } ?? UInt64(frames.count)
        guard planned <= UInt64(maxFrames) else {
            throw Refusal(description: "\(planned) GIF frames, more than the \(maxFrames) a GIF is made of")
        }
        // A tick count to the nearest centisecond (half up); the bounds above keep the products in range.
        func centiseconds(_ ticks: UInt64) -> Int { Int((ticks * 200 + scale) / (2 * scale)) }
        var shows: [(frame: Int, start: Int)] = []
        if let rate {
            // GIF frame k shows the movie at k/rate s: the frame whose time holds that moment
            // (start × rate ≤ k × timescale, compared exactly).
            let perSecond = UInt64(rate)
            var position = 0
            var k: UInt64 = 0
            while k * scale < ticks * perSecond {
                while position + 1 < starts.count, starts[position + 1].start * perSecond <= k * scale { position += 1 }
                if shows.last?.frame != starts[position].frame {
                    shows.append((starts[position].frame, Int((k * 200 + perSecond) / (2 * perSecond))))
                }
                k += 1
            }
        } else {
            shows = starts.map { ($0.frame, centiseconds($0.start)) }
        }
        let end = centiseconds(ticks)
        let timed = shows.indices.map { Entry(frame: shows[$0].frame, delay: ($0 + 1 < shows.count ? shows[$0 + 1].start : end) - shows[$0].start) }
        entries = Self.merged(timed)
    }

    /// An entry shorter than the minimum runs on over the entries after it (they are not
    /// shown) until it is long enough; a short last entry is folded into the one before it.
    /// The total is kept.
    static func merged(_ entries: [Entry]) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            if let last = out.last, last.delay < minimumDelay {
                out[out.count - 1].delay += entry.delay
            } else {
                out.append(entry)
            }
        }
        if out.count > 1, let last = out.last, last.delay < minimumDelay {
            out.removeLast()
            out[out.count - 1].delay += last.delay
        }
        return out
    }

    /// The GIF's size for frames coded `codedWidth` × `codedHeight` and turned `clockwise`
    /// degrees when shown (the track matrix's quarter turns): `width` wide, or the shown width
    /// when that is less (never enlarged), the height keeping the shown aspect (rounded, at
    /// least 1), as FFmpeg's `scale=W:-1` does.
    public static func frameSize(codedWidth: Int, codedHeight: Int, clockwise: Int, width: Int) -> (width: Int, height: Int) {
        let turned = clockwise % 180 != 0
        let (shownWidth, shownHeight) = turned ? (codedHeight, codedWidth) : (codedWidth, codedHeight)
        guard shownWidth > 0, shownHeight > 0, width > 0 else { return (0, 0) }
        let out = min(width, shownWidth)
        return (out, max(1, (out * shownHeight * 2 + shownWidth) / (2 * shownWidth)))
    }

    /// The delays' sum, centiseconds.
    public var centiseconds: Int { entries.reduce(0) { $0 + $1.delay } }
    /// The movie's shown duration, seconds.
    public var seconds: Double { Double(ticks) / Double(timescale) }
}

/// How a frame's colours are spread over the palette's.
public enum GIFDither: String, Sendable, CaseIterable {
    /// Each pixel the nearest colour: flat areas band, files are smallest.
    case none
    /// Floyd–Steinberg error diffusion (7, 3, 5, 1 sixteenths), rows scanned back and forth.
    case floydSteinberg = "floyd-steinberg"
    /// Sierra-2-4A (Sierra Lite: 2, 1, 1 quarters), FFmpeg paletteuse's default.
    case sierraLite = "sierra-lite"
}

/// Where an exported GIF's palette comes from.
public enum GIFPaletteScope: String, Sendable, CaseIterable {
    /// One palette from the whole clip's colours, the file's global one.
    case clip
    /// A palette from each frame's own colours, a local one per frame.
    case frame
}
