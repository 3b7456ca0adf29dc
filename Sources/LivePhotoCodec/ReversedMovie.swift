internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats

/// A movie's frames re-timed (a `ShownFrames.Order`: reverse, bounce, boomerang) and encoded, written as the
/// answer's parts as they are made (`CodecAnswer`): the timescale (the source's media ticks),
/// the colour codes, the track and one sample part per sample, as the GIF movie is. Memory is
/// one group of pictures (`ShownFrameDecoder`).
public enum ReversedMovie {
    /// The encoders' CRF where the source's bit rate is unknown: 16 for x264; x265 counts CRF
    /// differently, 12 keeps IMG_3853 (HEVC) above 40 dB where 16 gave 38.7 dB at the worst frame.
    public static let quality = 16
    static func quality(_ codec: MovieEncoder.Codec) -> Int { codec == .hevc ? 12 : quality }
    static var scaledQuality: Int { CodecRequest.scaledQuality }

    /// The cap on what is written by default, against the source's bits a second: with the
    /// half-second buffer `MovieEncoder` gives it, IMG_3853's reverse (x265) took 1.39× the
    /// source's bytes a second at 38.9 dB mean luma PSNR (36.5 dB at its worst frame); 1.2× gave
    /// 38.4 dB, the source's own rate without a cap (ABR) 38.0 dB.
    static let rateFactor = 1.3

    /// The video track's average bits a second (its samples' bytes over its media duration)
    /// and frames a second, nil when the track does not say.
    static func rate(_ track: Track) -> (bitsPerSecond: Int, framesPerSecond: Double, bufferBits: Int)? {
        let table = track.sampleTable
        let bytes = table.constantSampleSize > 0 ? UInt64(table.constantSampleSize) * UInt64(table.sampleCount) : table.sampleSizes.reduce(UInt64(0)) { $0 + UInt64($1) }
        guard track.mediaTimescale > 0, track.mediaDuration > 0, bytes > 0, table.sampleCount > 0 else { return nil }
        let seconds = Double(track.mediaDuration) / Double(track.mediaTimescale)
        let (bits, frames) = (Double(bytes) * 8 / seconds, Double(table.sampleCount) / seconds)
        guard bits.isFinite, (1000..<1e10).contains(bits), frames.isFinite, (0.1...1000).contains(frames) else { return nil }
        // Half a second of the rate, and room for two of the source's largest pictures (a movie
        // of a few long frames, a GIF's, averages few bits a second and needs them at once).
        let largest = Double(table.constantSampleSize > 0 ? table.constantSampleSize : table.sampleSizes.max() ?? 0) * 8 * rateFactor
        return (Int(bits * rateFactor), frames, Int(min(1e9, max(bits * rateFactor / 2, 2 * largest))))
    }

    /// `quality`: a CRF; nil: the source's bit rate (x264's or x265's average), so what is written
    /// takes about the source's bytes a second. `width`: pictures wider than it are scaled to it
    /// (height in proportion, even), at `scaledQuality` unless a CRF is asked.
    public static func write(path: String, window: Range<Int64>?, order: ShownFrames.Order, codec: MovieEncoder.Codec, quality asked: Int? = nil, width scaledWidth: Int? = nil,
                             maxPixels: Int, maxFrames: Int,
                             budget: CodecBudget = .standard, progress: (Int, Int) -> Void = { _, _ in }, output: ([UInt8]) -> Void) throws {
        let frames = try ShownFrameDecoder(path: path, window: window, maxPixels: maxPixels, maxFrames: maxFrames, budget: budget)
        // Frames asked for in the order they are shown hold only the decoder's reordering, not
        // their group (a preview of a 1080p HEVC movie with 250-frame groups held 870 MB).
        frames.dropsEarlier = order == .forward
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
        var scaler: Smaller?
        for (position, index) in sequence.enumerated() {
            let frame = shown.frames[index]
            var picture = try frames.picture(index)
            if let scaledWidth, scaler != nil || picture.width > scaledWidth {
                if scaler == nil || scaler?.fits(picture) != true { scaler = try Smaller(picture, width: scaledWidth, height: scaler?.height) }
                if let scaler { picture = try scaler.scale(picture) }
            }
            if encoder == nil {
                let scaled = scaler != nil
                let made = try MovieEncoder(codec: codec, width: picture.width, height: picture.height, timescale: Int32(clamping: shown.timescale),
                                            quality: asked ?? (scaled ? scaledQuality : quality(codec)), rate: asked == nil && !scaled ? rate(frames.track) : nil, like: picture)
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

/// Decoded pictures scaled down to one size (a `frames` job's `--width`), as 8-bit 4:2:0 in
/// their own range and matrix, their colour tags kept: what `MovieEncoder` takes as it is.
final class Smaller {
    let scaler: Scaler
    let source: (width: Int, height: Int, format: Int32)
    let width: Int, height: Int

    /// `height`: the size already chosen for the movie (a later picture of another layout
    /// keeps it); nil: `width` and the picture's height in proportion, even, at least 2.
    init(_ picture: Frame, width: Int, height: Int?) throws {
        let proportional = (Double(picture.height) * Double(width) / Double(max(1, picture.width)) / 2).rounded() * 2
        self.width = width
        self.height = height ?? Int(max(2, min(proportional, Double(picture.height + picture.height % 2))))
        source = (picture.width, picture.height, picture.pointer.pointee.format)
        scaler = try Scaler(from: picture, to: AV_PIX_FMT_YUV420P, fullRange: false, matrix: Scaler.swsMatrix(picture.pointer.pointee.colorspace), keepingRange: true,
                            size: (width, self.height), flags: SWS_AREA | SWS_ACCURATE_RND)
    }

    func fits(_ picture: Frame) -> Bool { (picture.width, picture.height, picture.pointer.pointee.format) == source }

    func scale(_ picture: Frame) throws -> Frame {
        let scaled = try scaler.convert(picture, to: AV_PIX_FMT_YUV420P)
        let (from, to) = (picture.pointer, scaled.pointer)
        (to.pointee.color_range, to.pointee.color_primaries, to.pointee.color_trc, to.pointee.colorspace) =
            (from.pointee.color_range, from.pointee.color_primaries, from.pointee.color_trc, from.pointee.colorspace)
        return scaled
    }
}
