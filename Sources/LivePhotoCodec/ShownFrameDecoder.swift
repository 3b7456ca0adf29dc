import LivePhotoCodecProtocol
import LivePhotoFormats

/// A movie's shown frames (`ShownFrames`) decoded in whatever order they are asked for, one group
/// of pictures at a time: the frames a sync sample starts are decoded together when a frame of
/// theirs is first asked for, and dropped when another group's is; a group asked for again (a
/// bounce's way back, a GIF's second pass) is decoded again. Memory is one group of pictures,
/// whatever the movie's length. Limits are checked before anything is decoded.
public final class ShownFrameDecoder {
    /// The input is at fault (limits, structure): the helper's exit 2.
    public struct BadInput: Error, CustomStringConvertible {
        public var description: String
    }

    public let path: String
    public let shown: ShownFrames
    public let track: Track
    let source: ByteSource
    let samples: [Sample]
    let sync: Set<UInt32>?
    /// Each sample's group: the index of the sync sample at or before it.
    let groupStart: [Int]
    let maxPixels: Int
    /// What decoding may cost: every picture decoded counts against `budget.totalPixels`
    /// (`decodedPixels`), and the pictures held at once against `budget.memoryBytes`, as they
    /// come (a sample entry may claim a smaller size than its pictures have).
    let budget: CodecBudget
    public private(set) var decodedPixels: Int64 = 0

    /// `window`: the bytes of `path` that are the movie (a motion photo's).
    public init(path: String, window: Range<Int64>?, maxPixels: Int, maxFrames: Int, budget: CodecBudget = .standard) throws {
        self.path = path
        self.maxPixels = maxPixels
        self.budget = budget
        let file = try FileSource(path: path)
        source = window.map { WindowSource(file, range: $0) } ?? file
        let movie: Movie
        do {
            movie = try Movie.read(from: source, options: .full)
        } catch {
            throw BadInput(description: "\(path): \(error)")
        }
        guard let track = movie.primaryVideoTrack, track.mediaTimescale > 0 else { throw BadInput(description: "\(path): no video track") }
        self.track = track
        for entry in track.sampleDescriptions {
            if let width = entry.width, let height = entry.height, Int(width) * Int(height) > maxPixels {
                throw BadInput(description: "\(path): its \(entry.format) sample entry claims \(width)×\(height) frames, more than \(maxPixels) pixels")
            }
        }
        samples = try track.sampleTable.resolve(path: track.path)
        shown = ShownFrames(movie, track: track)
        guard !shown.frames.isEmpty else { throw BadInput(description: "\(path): the video track shows no frame") }
        // The times (stts) may list more samples than the size and chunk tables hold (a cut movie).
        let held = samples.count
        if let beyond = shown.frames.first(where: { $0.sample >= held }) {
            throw BadInput(description: "\(path): the video track's times list sample \(beyond.sample + 1), but its size and chunk tables hold \(held) samples")
        }
        guard shown.frames.count <= maxFrames else { throw BadInput(description: "\(path): \(shown.frames.count) frames, more than the \(maxFrames) an export decodes") }
        for sample in samples where sample.offset.addingReportingOverflow(UInt64(sample.size)).partialValue > UInt64(source.size) || sample.size > FrameReader.maxSampleBytes {
            throw BadInput(description: "\(path): sample \(sample.index + 1) of the video track (\(sample.size) bytes at offset \(sample.offset)) lies outside the movie")
        }
        // Without stss, the samples that decode alone by their NAL units (a P picture never starts a group).
        let sync: Set<UInt32>? = FrameReader.syncSamples(track, samples: samples, source: source)
        self.sync = sync
        var groupStart = [Int](repeating: 0, count: samples.count)
        for index in samples.indices { groupStart[index] = sync?.contains(UInt32(clamping: index + 1)) ?? true ? index : index > 0 ? groupStart[index - 1] : 0 }
        self.groupStart = groupStart
        var longest = (start: 0, count: 0)
        for start in Set(groupStart) {
            let count = groupEnd(start) - start
            if count > longest.count { longest = (start, count) }
        }
        guard longest.count <= FrameReader.maxGroupOfPictures else {
            throw BadInput(description: "\(path): a group of \(longest.count) pictures from sample \(longest.start + 1), more than the \(FrameReader.maxGroupOfPictures) held at once")
        }
        // The longest group's pictures, decoded and held, at the size its sample entry claims;
        // the address space for pictures of that size (the decoder's own are held to maxPixels).
        if let entry = track.sampleDescriptions.first, let width = entry.width, let height = entry.height {
            HelperProcess.limit(budget, width: Int(width), height: Int(height))
            do {
                try budget.memory(width: Int(width), height: Int(height), frames: longest.count, tenthsOfBytePerPixel: entry.decodedTenthsOfBytePerPixel,
                                  "\(path): the group of pictures from sample \(longest.start + 1)")
            } catch {
                throw BadInput(description: error.description)
            }
        }
    }

    func isSync(_ index: Int) -> Bool { sync?.contains(UInt32(clamping: index + 1)) ?? true }
    func groupEnd(_ start: Int) -> Int { (start + 1..<samples.count).first(where: isSync) ?? samples.count }

    /// Whether pictures shown before the last one asked for are dropped: for callers that ask
    /// in presentation order (a GIF's passes, a forward re-encode), memory is then the decoder's
    /// own reordering, not the group, and one decoder runs on through the groups that follow
    /// while they share its sample description (an open group's leading pictures, HEVC's RASL
    /// after a CRA, need the group before: a decoder opened at their sync sample drops them).
    /// A frame asked for after it was dropped decodes its group again.
    public var dropsEarlier = false

    /// The group being decoded: its decoder, the next of its samples to send, and the pictures
    /// received and not yet dropped, by presentation time.
    struct Group {
        var start: Int, end: Int
        var decoder: VideoDecoder
        var next: Int
        var flushed = false
        var pictures: [Int64: Frame] = [:]
        var dropped: Int64?
    }
    var group: Group?

    /// The picture of shown frame `index` (an index into `shown.frames`).
    public func picture(_ index: Int) throws -> Frame {
        let frame = shown.frames[index]
        let start = groupStart[frame.sample]
        let covered = group.map { $0.start <= frame.sample && frame.sample < $0.end } ?? false
        if !covered || group?.dropped.map({ frame.presentation <= $0 }) == true {
            group = nil
            group = try open(start)
        }
        guard var current = group else { throw CodecError("decoding", "\(path): no group for sample \(frame.sample + 1)") }
        group = nil
        while current.pictures[frame.presentation] == nil, !current.flushed { try step(&current) }
        guard let picture = current.pictures[frame.presentation] else {
            throw CodecError("decoding", "\(path): the decoder gave no picture for sample \(frame.sample + 1) (its group decoded from sample \(start + 1))")
        }
        if dropsEarlier {
            for time in current.pictures.keys where time < frame.presentation { current.pictures[time] = nil }
            current.dropped = max(current.dropped ?? Int64.min, frame.presentation - 1)
        }
        group = current
        guard picture.width * picture.height <= maxPixels else { throw BadInput(description: "\(path): the decoder gives \(picture.width)×\(picture.height) frames, more than \(maxPixels) pixels") }
        return picture
    }

    /// A decoder for the group of pictures the sync sample `start` opens.
    func open(_ start: Int) throws -> Group {
        let description = Int(samples[start].descriptionIndex) - 1
        guard track.sampleDescriptions.indices.contains(description) else { throw CodecError("reading", "\(path): sample \(start + 1) names no sample description") }
        var end = groupEnd(start)
        while dropsEarlier, end < samples.count, samples[end].descriptionIndex == samples[start].descriptionIndex { end = groupEnd(end) }
        return Group(start: start, end: end, decoder: try VideoDecoder(track.sampleDescriptions[description]), next: start)
    }

    /// One more sample of the group sent to its decoder (or, past the last, the decoder
    /// flushed), and the pictures it gives kept.
    func step(_ group: inout Group) throws {
        if group.next < group.end {
            let sample = samples[group.next]
            let bytes: [UInt8]
            do {
                bytes = try source.read(at: Int64(clamping: sample.offset), count: Int(sample.size))
            } catch {
                throw CodecError("reading", "\(path): sample \(sample.index + 1) (\(sample.size) bytes at offset \(sample.offset)): \(error)")
            }
            try group.decoder.send(bytes, presentationTime: sample.presentationTime, decodeTime: Int64(clamping: sample.decodeTime), key: isSync(sample.index))
            group.next += 1
        } else {
            try group.decoder.finish()
            group.flushed = true
        }
        while let picture = try group.decoder.receive() {
            decodedPixels = decodedPixels.addingReportingOverflow(CodecBudget.product(picture.width, picture.height, 1)).partialValue
            guard decodedPixels >= 0, decodedPixels <= budget.totalPixels else {
                throw BadInput(description: "\(path): \(decodedPixels < 0 ? "more" : "\(decodedPixels)") pixels decoded so far, more than the \(budget.totalPixels) allowed (--max-total-pixels)")
            }
            if let dropped = group.dropped, picture.presentationTime <= dropped { continue }
            group.pictures[picture.presentationTime] = picture
            do {
                try budget.memory(width: picture.width, height: picture.height, frames: group.pictures.count, tenthsOfBytePerPixel: picture.tenthsOfBytePerPixel,
                                  "\(path): the group of pictures from sample \(group.start + 1), as decoded")
            } catch {
                throw BadInput(description: error.description)
            }
        }
    }
}
