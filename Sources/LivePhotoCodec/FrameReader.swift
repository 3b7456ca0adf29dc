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

    public static func frame(_ movie: Movie, track: Track, sampleIndex target: Int, source: ByteSource, path: String) throws -> Frame {
        let samples = try track.sampleTable.resolve(path: track.path)
        guard samples.indices.contains(target) else { throw CodecError("reading", "\(path): the video track has no sample \(target + 1)") }
        let description = Int(samples[target].descriptionIndex) - 1
        guard track.sampleDescriptions.indices.contains(description) else { throw CodecError("reading", "\(path): sample \(target + 1) names no sample description") }
        let decoder = try VideoDecoder(track.sampleDescriptions[description])
        let sync = track.sampleTable.syncSamples.map { Set($0) }
        func isSync(_ index: Int) -> Bool { sync?.contains(UInt32(clamping: index + 1)) ?? true }
        var start = target
        while start > 0 && !isSync(start) { start -= 1 }
        guard target - start <= maxGroupOfPictures else {
            throw CodecError("reading", "\(path): sample \(target + 1) is \(target - start) samples past its sync sample, more than the \(maxGroupOfPictures) decoded for one frame")
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
