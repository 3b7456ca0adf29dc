import LivePhotoCodecProtocol
import LivePhotoFormats

/// Decodes the one frame a still is made from: the samples from the sync sample at or before
/// it, in decoding order, until the decoder gives the frame with its presentation time. Memory
/// is the decoder's references, not the clip: samples are read one at a time.
public enum FrameReader {
    /// Samples decoded before giving up on the frame appearing (a group of pictures longer
    /// than this is refused).
    public static let maxGroupOfPictures = 1_200
    /// The largest sample read.
    public static let maxSampleBytes = 256 << 20

    /// The samples a decoder may start at: the track's `stss`; without one (every sample is a
    /// sync sample by the format's rule), the samples whose own NAL units decode alone
    /// (`NALUnit.decodesAlone`), so that a P picture is never the first one decoded. A sample
    /// the units say nothing of (another codec) counts as sync, as the rule says.
    public static func syncSamples(_ track: Track, samples: [Sample], source: ByteSource) -> Set<UInt32> {
        if let listed = track.sampleTable.syncSamples { return Set(listed) }
        var found = Set<UInt32>()
        for sample in samples {
            let description = Int(sample.descriptionIndex) - 1
            guard track.sampleDescriptions.indices.contains(description) else { continue }
            let entry = track.sampleDescriptions[description]
            let type: FourCC = entry.configuration("hvcC") != nil ? "hvcC" : "avcC"
            guard let record = entry.configuration(type), sample.size <= maxSampleBytes,
                  let bytes = try? source.read(at: Int64(clamping: sample.offset), count: Int(sample.size)) else {
                found.insert(UInt32(clamping: sample.index + 1))
                continue
            }
            if NALUnit.decodesAlone(bytes, configurationType: type, record: record) ?? true { found.insert(UInt32(clamping: sample.index + 1)) }
        }
        return found
    }

    public static func frame(_ movie: Movie, track: Track, sampleIndex target: Int, source: ByteSource, path: String, budget: CodecBudget = .standard) throws -> Frame {
        let samples = try track.sampleTable.resolve(path: track.path)
        guard samples.indices.contains(target) else { throw CodecError("reading", "\(path): the video track has no sample \(target + 1)") }
        let description = Int(samples[target].descriptionIndex) - 1
        guard track.sampleDescriptions.indices.contains(description) else { throw CodecError("reading", "\(path): sample \(target + 1) names no sample description") }
        let decoder = try VideoDecoder(track.sampleDescriptions[description])
        // Without stss only the samples from the target back to the one that decodes alone are read.
        let sync: Set<UInt32>
        if track.sampleTable.syncSamples == nil {
            let window = Array(samples[max(0, target - maxGroupOfPictures)...target])
            sync = syncSamples(track, samples: window, source: source)
        } else {
            sync = syncSamples(track, samples: [], source: source)
        }
        func isSync(_ index: Int) -> Bool { sync.contains(UInt32(clamping: index + 1)) }
        var start = target
        while start > 0 && !isSync(start) { start -= 1 }
        guard isSync(start) || track.sampleTable.syncSamples != nil else {
            throw CodecError("reading", "\(path): no sample from \(start + 1) to \(target + 1) decodes by itself (the track has no stss, and their NAL units are no random access picture)")
        }
        guard target - start <= maxGroupOfPictures else {
            throw CodecError("reading", "\(path): sample \(target + 1) is \(target - start) samples past its sync sample, more than the \(maxGroupOfPictures) decoded for one frame")
        }
        if let entry = track.sampleDescriptions[description] as SampleDescription?, let width = entry.width, let height = entry.height {
            try budget.pixels(width: Int(width), height: Int(height), frames: target - start + 1, "\(path): the still from sample \(target + 1)")
            HelperProcess.limit(budget, width: Int(width), height: Int(height))
        }
        let wanted = samples[target].presentationTime
        var index = start
        while index < samples.count && index - start <= maxGroupOfPictures {
            let sample = samples[index]
            guard sample.size <= maxSampleBytes else { throw CodecError("reading", "\(path): sample \(index + 1) claims \(sample.size) bytes") }
            let offset = Int64(clamping: sample.offset)
            let bytes: [UInt8]
            do {
                bytes = try source.read(at: offset, count: Int(sample.size))
            } catch {
                throw CodecError("reading", "\(path): sample \(index + 1) (\(sample.size) bytes at offset \(offset)): \(error)")
            }
            try decoder.send(bytes, presentationTime: sample.presentationTime, decodeTime: Int64(clamping: sample.decodeTime), key: isSync(index))
            while let frame = try decoder.receive() {
                if frame.presentationTime == wanted { return frame }
            }
            index += 1
        }
        try decoder.finish()
        while let frame = try decoder.receive() {
            if frame.presentationTime == wanted { return frame }
        }
        throw CodecError("decoding", "\(path): the decoder gave no frame for sample \(target + 1) (presentation time \(wanted))")
    }
}
