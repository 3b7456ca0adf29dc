/// A video track's frames as they are shown: in presentation order, only those the edit list
/// presents, each lasting until the next one starts (the last for its own sample's duration, or
/// what the edit list shows of it),
/// in the track's media ticks. What a re-timed export (reverse, bounce) plays back and holds
/// its output to.
public struct ShownFrames: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        /// The sample (0-based, decoding order) and its presentation time, media ticks.
        public var sample: Int
        public var presentation: Int64
        /// How long it is shown, media ticks.
        public var duration: UInt32
    }

    public var frames: [Frame]
    public var timescale: UInt32

    /// Frames one after another from time 0, sample by sample, each for its duration.
    public init(durations: [UInt32], timescale: UInt32) {
        self.timescale = timescale
        var time: Int64 = 0
        frames = durations.enumerated().map { index, duration in
            defer { time += Int64(duration) }
            return Frame(sample: index, presentation: time, duration: duration)
        }
    }

    public init(_ movie: Movie, track: Track, limit: Int = Limits.maxResolvedSamples) {
        timescale = track.mediaTimescale
        let timing = track.sampleTable.timing(limit: limit)
        var shown: [(sample: Int, presentation: Int64, duration: UInt32)] = []
        for (index, frame) in timing.enumerated() where movie.movieSeconds(forMediaTime: frame.presentation, in: track) != nil {
            shown.append((index, frame.presentation, frame.duration))
        }
        shown.sort { $0.presentation < $1.presentation }
        // The last frame lasts what the edit list shows of it (a camera's last frame often runs
        // on past the movie's end), when one plain edit says where the track ends.
        if let edits = track.editList, edits.count == 1, !edits[0].isEmpty, edits[0].rate == 1, movie.timescale > 0, let last = shown.last {
            let (product, overflow) = edits[0].segmentDuration.multipliedReportingOverflow(by: UInt64(track.mediaTimescale))
            let (end, past) = edits[0].mediaTime.addingReportingOverflow(Int64(clamping: product / UInt64(movie.timescale)))
            let (shownOfLast, under) = end.subtractingReportingOverflow(last.presentation)
            if !overflow, !past, !under, shownOfLast > 0, shownOfLast < Int64(last.duration) { shown[shown.count - 1].duration = UInt32(shownOfLast) }
        }
        frames = shown.indices.map { position in
            let next = position + 1 < shown.count ? shown[position + 1].presentation.subtractingReportingOverflow(shown[position].presentation).partialValue : Int64(shown[position].duration)
            return Frame(sample: shown[position].sample, presentation: shown[position].presentation, duration: UInt32(clamping: max(0, next)))
        }
    }

    /// What a re-timed export shows, frame by frame: `reverse` the frames last to first;
    /// `bounce` first to last, then back from the one before the last to the second, so that
    /// it loops with neither turn frame shown twice (2N − 2 frames). Each frame keeps the
    /// duration it had, so a variable frame rate is mirrored. `boomerang`: a bounce that pauses
    /// at the far turn, its last frame held (repeated) until it has been shown for at least
    /// `boomerangPause` seconds. `forward`: the frames as the movie shows them, first to last
    /// (a copy re-encoded for a reader of another codec: `check --previews`).
    public enum Order: String, Sendable, CaseIterable { case reverse, bounce, boomerang, forward }

    /// How long a boomerang holds its turn frame, at least: a quarter of a second.
    public static let boomerangPause = 0.25

    /// Indices into `frames`, in the order shown.
    /// The frame shown at `seconds` of the movie's timeline: the last to start at or before it
    /// (the first when none does).
    public func index(shownAt seconds: Double, in movie: Movie, track: Track) -> Int {
        let starts = frames.map { movie.movieSeconds(forMediaTime: $0.presentation, in: track) ?? -1 }
        return starts.lastIndex { $0 <= seconds + 1e-6 } ?? 0
    }

    public func sequence(_ order: Order) -> [Int] {
        let count = frames.count
        switch order {
        case .reverse: return Array((0..<count).reversed())
        case .forward: return Array(0..<count)
        case .bounce: return count < 3 ? Array(0..<count) : Array(0..<count) + Array((1..<(count - 1)).reversed())
        case .boomerang:
            guard let last = frames.last, last.duration > 0 else { return sequence(.bounce) }
            let held = Int((Self.boomerangPause * Double(timescale) / Double(last.duration)).rounded(.up))
            return Array(0..<count) + Array(repeating: count - 1, count: max(0, min(held, 1_000) - 1)) + Array((1..<max(1, count - 1)).reversed())
        }
    }

    /// The pictures decoded or encoded to show the frames in `order`: each decoded once
    /// reversed (a group at a time), twice when the order goes there and back, and a
    /// boomerang's held turn frame encoded again for each repeat (up to 999 of one frame). The
    /// planner holds the budget to this count before the helper starts, and the helper again.
    public func decodes(_ order: Order) -> Int {
        switch order {
        case .reverse, .forward: return frames.count
        case .bounce: return frames.count * 2
        case .boomerang: return frames.count * 2 + max(0, sequence(.boomerang).count - sequence(.bounce).count)
        }
    }
}
