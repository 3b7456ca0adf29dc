import LivePhotoCodecProtocol
import LivePhotoFormats

/// A movie's frames re-timed (a `ShownFrames.Order`: reverse, bounce, boomerang) and encoded, written as the
/// answer's parts as they are made (`CodecAnswer`): the timescale (the source's media ticks),
/// the colour codes, the track and one sample part per sample, as the GIF movie is. Memory is
/// one group of pictures (`ShownFrameDecoder`).
public enum ReversedMovie {
    /// The encoders' CRF: 16 for x264; x265 counts CRF differently, 12 keeps IMG_3853 (HEVC) above
    /// 40 dB where 16 gave 38.7 dB at the worst frame.
    public static let quality = 16
    static func quality(_ codec: MovieEncoder.Codec) -> Int { codec == .hevc ? 12 : quality }

    public static func write(path: String, window: Range<Int64>?, order: ShownFrames.Order, codec: MovieEncoder.Codec, maxPixels: Int, maxFrames: Int,
                             budget: CodecBudget = .standard, progress: (Int, Int) -> Void = { _, _ in }, output: ([UInt8]) -> Void) throws {
        let frames = try ShownFrameDecoder(path: path, window: window, maxPixels: maxPixels, maxFrames: maxFrames, budget: budget)
        let shown = frames.shown
        let sequence = shown.sequence(order)
        if let entry = frames.track.sampleDescriptions.first, let width = entry.width, let height = entry.height {
            do {
                try budget.pixels(width: Int(width), height: Int(height), frames: shown.decodes(order), "\(path) \(order.rawValue)")
            } catch {
                throw ShownFrameDecoder.BadInput(description: error.description)
            }
        }
        var encoder: MovieEncoder?
        var durations: [UInt32] = []
        var written = 0
        func emit(_ encoded: [MovieEncoder.Sample]) {
            for sample in encoded {
                output(CodecAnswer.bytes(.sample(duration: durations[min(written, durations.count - 1)], key: sample.key, data: sample.data)))
                written += 1
            }
        }
        var time: Int64 = 0
        for (position, index) in sequence.enumerated() {
            let frame = shown.frames[index]
            let picture = try frames.picture(index)
            if encoder == nil {
                let made = try MovieEncoder(codec: codec, width: picture.width, height: picture.height, timescale: Int32(clamping: shown.timescale), quality: quality(codec), like: picture)
                let configuration = try made.configuration()
                let colour = made.colourCodes
                output(CodecAnswer.bytes(.timescale(shown.timescale)))
                output(CodecAnswer.bytes(.colour(CodecAnswer.Colour(primaries: colour.primaries, transfer: colour.transfer, matrix: colour.matrix, fullRange: made.fullRange))))
                output(CodecAnswer.bytes(.track(made.answerTrack(configuration))))
                encoder = made
            }
            guard let encoder else { break }
            durations.append(frame.duration)
            emit(try encoder.encode(picture: picture, presentationTime: time))
            time += Int64(frame.duration)
            progress(position + 1, sequence.count)
        }
        if let encoder { emit(try encoder.finish()) }
        guard written == sequence.count else { throw CodecError("encoding", "\(sequence.count) frames gave \(written) samples") }
    }
}
