import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats

extension ReadBack {
    /// Reads the written `temporary` (to become `destination`) back against what the plan
    /// states; throws what does not hold.
    func check(_ temporary: String, destination: String) throws {
        switch self {
        case .markers:
            return
        case .plainStill:
            let read = MediaFile.inspect(path: temporary, options: .check)
            guard let still = read.still, read.error == nil else { throw RepairProblem("the written \(destination) does not read back as a still: \(read.error?.description ?? "no still")") }
            if let motion = still.motionPhoto {
                throw RepairProblem("the written \(destination) is still a motion photo (\(motion.source.rawValue)\(motion.movieRange.map { ", a movie at byte \($0.lowerBound)" } ?? ""))")
            }
            if let identifier = still.contentIdentifier { throw RepairProblem("the written \(destination) still carries the identifier \(identifier)") }
        case .samples(let made, let source, let range):
            try Self.samples(temporary, destination: destination, made: made, source: source, range: range)
        case .frames(let planned, let timescale, let matrix):
            let written = try Movie.read(from: try FileSource(path: temporary), options: .check)
            guard let track = written.primaryVideoTrack else { throw RepairProblem("the written \(destination) has no video track") }
            let durations = track.sampleTable.timing().map(\.duration)
            guard durations == planned, track.mediaTimescale == timescale else {
                throw RepairProblem("the written \(destination) holds \(durations.count) frames, not the \(planned.count) planned, each for its own duration")
            }
            guard track.matrix == matrix else { throw RepairProblem("the written \(destination) is not turned as the source is") }
        case .gif(let width, let height, let planned):
            let file = try FileSource(path: temporary)
            guard file.size <= Exporter.maxGIFBytes else { throw RepairProblem("the written \(destination) is \(file.size) bytes, more than the \(Exporter.maxGIFBytes) read back") }
            let structure = try GIFStructure(try file.read(at: 0, count: Int(file.size)), path: destination, maxFrames: planned.count)
            let delays = structure.frames.map(\.delay)
            guard structure.complete, structure.loopCount == 0, structure.width == width, structure.height == height, delays == planned else {
                throw RepairProblem("the written \(destination) is not the GIF planned: \(structure.width)×\(structure.height), \(delays.count) frames of \(delays.reduce(0, +)) cs, loop count \(structure.loopCount.map(String.init) ?? "none")\(structure.complete ? "" : ", no trailer"); planned \(width)×\(height), \(planned.count) frames of \(planned.reduce(0, +)) cs, looping forever")
            }
        }
    }

    /// A movie made of the source's samples read back against the plan and the source, sample
    /// by sample.
    static func samples(_ path: String, destination: String, made: LoopMovieWriter.Made, source: String, range: Range<Int64>?) throws {
        let output = try FileSource(path: path)
        let written = try Movie.read(from: output, options: .check)
        let input: ByteSource = try range.map { WindowSource(try FileSource(path: source), range: $0) } ?? FileSource(path: source)
        let original = try Movie.read(from: input, options: .check)
        guard written.duration == made.duration else { throw RepairProblem("the written \(destination) lasts \(written.duration) ticks, not the planned \(made.duration)") }
        guard !written.tracks.contains(where: { $0.isTimedMetadata }), !written.metadata.contains(where: { LoopMovieWriter.isLivePhotoKey($0.key) }) else {
            throw RepairProblem("the written \(destination) still holds Live Photo metadata")
        }
        guard written.tracks.count == made.order.count else { throw RepairProblem("the written \(destination) has \(written.tracks.count) tracks, not \(made.order.count)") }
        for track in written.tracks {
            guard let order = made.order[track.id], let from = original.tracks.first(where: { $0.id == track.id }) else {
                throw RepairProblem("the written \(destination) has a track \(track.id) the plan does not")
            }
            let samples = try track.sampleTable.resolve(path: track.path), sources = try from.sampleTable.resolve(path: from.path)
            guard samples.count == order.count else { throw RepairProblem("track \(track.id) of the written \(destination) lists \(samples.count) samples, not \(order.count)") }
            for (sample, index) in zip(samples, order) {
                guard index < sources.count else {
                    // Silence the writer added: zero bytes, one tick.
                    guard sample.duration == 1, try output.read(at: Int64(sample.offset), count: Int(sample.size)).allSatisfy({ $0 == 0 }) else {
                        throw RepairProblem("sample \(sample.index + 1) of track \(track.id) in the written \(destination) is not the silence planned")
                    }
                    continue
                }
                let source = sources[index]
                let duration = index == sources.count - 1 ? made.trimmedLast[track.id] ?? source.duration : source.duration
                guard sample.duration == duration, sample.size == source.size,
                      sample.presentationTime - Int64(sample.decodeTime) == source.presentationTime - Int64(source.decodeTime),
                      try output.read(at: Int64(sample.offset), count: Int(sample.size)) == input.read(at: Int64(source.offset), count: Int(source.size)) else {
                    throw RepairProblem("sample \(sample.index + 1) of track \(track.id) in the written \(destination) is not source sample \(index + 1) as planned")
                }
            }
        }
    }
}

extension PlanWriter {
    /// A written output as `check` reads it, a file of its own: no damage rule may find
    /// anything (writers obey the readers' limits).
    /// `carried`: the damage rules the input already failed, accepted with --force.
    static func refuseDamage(_ path: String, destination: String, carried: Set<String> = []) throws {
        let facts = FileFacts(MediaFile.inspect(path: path, options: .check))
        var item = CheckItem(kind: .notLivePhoto, movie: facts)
        item.movie?.path = destination
        let damage = RuleRegistry.all.filter { $0.description.marksDamage && !carried.contains($0.description.identifier) }.flatMap { $0.check(item, context: RuleContext()) }
        if let first = damage.first { throw RepairProblem("the written \(destination) reads as damaged: \(first.rule): \(first.message)") }
    }
}

extension PlanWriter {
    /// A still made from its movie's frames, held to the frame shown at the written movie's
    /// still-image-time: that frame matches it best (within half a decibel: neighbours may be
    /// alike) and at `minimumDecibels` at least, or nothing is renamed.
    static func compareStill(_ staged: [(FilePlan, SafeFileWriter.Staged)], budget: CodecBudget) throws {
        guard let still = staged.first(where: { $0.0.made }), let movie = staged.first(where: { !$0.0.made }) else { return }
        // A still that is the marked frame's coded picture (`--lossless-still`) is that frame:
        // held byte for byte, no decoder needed.
        if try stillIsMarkedSample(still: still.1.temporary, movie: movie.1.temporary) { return }
        let comparison = try CodecHelper.comparison(CodecRequest(.compare(still: still.1.temporary, movie: movie.1.temporary), budget: budget))
        guard let marked = comparison.markedDecibels, let best = comparison.best else {
            throw RepairProblem("the written \(still.0.destination) could not be compared with the movie's frame at its still-image-time")
        }
        if best.frame != comparison.marked, best.decibels > marked + 0.5 {
            throw RepairProblem("the written \(still.0.destination) shows shown frame \(best.frame + 1) of the movie (\(formatted(best.decibels)) dB), not frame \(comparison.marked + 1) at its still-image-time (\(formatted(marked)) dB)")
        }
        guard marked >= minimumDecibels else {
            throw RepairProblem("the written \(still.0.destination) is \(formatted(marked)) dB from the movie's frame at its still-image-time, under \(formatted(minimumDecibels)) dB")
        }
    }

    /// Whether the still is a HEIF whose coded picture is, byte for byte, the sample of the
    /// frame shown at the movie's still-image-time.
    static func stillIsMarkedSample(still: String, movie path: String) throws -> Bool {
        guard let image = try? HEIFCodedImage.primary(in: try FileSource(path: still)) else { return false }
        let source = try FileSource(path: path)
        let movie = try Movie.read(from: source, options: .full)
        guard let track = movie.primaryVideoTrack, let moment = movie.stillImageTime?.seconds else { return false }
        let shown = ShownFrames(movie, track: track)
        guard !shown.frames.isEmpty else { return false }
        let frame = shown.frames[shown.index(shownAt: moment, in: movie, track: track)]
        let samples = try track.sampleTable.resolve(limit: frame.sample + 1, path: track.path)
        guard let sample = samples.last, sample.index == frame.sample, Int(sample.size) == image.data.count, let offset = Int64(exactly: sample.offset) else { return false }
        return try source.read(at: offset, count: Int(sample.size)) == image.data
    }

    /// What a still made from a frame reaches at least against it (make's stills: 38 dB and more).
    static let minimumDecibels = 30.0

    static func formatted(_ decibels: Double) -> String { String(format: "%.1f", decibels) }
}
