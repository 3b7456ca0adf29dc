import Foundation
import LivePhotoCodecProtocol
import LivePhotoFormats

extension StillAnswer {
    /// `frame` encoded as the still the helper answers: a JPEG, or an HEVC picture with its
    /// configuration record and colour.
    public static func encoding(_ frame: Frame, as kind: StillKind) throws -> StillAnswer {
        if kind == .jpeg { return .jpeg(try StillEncoder.jpeg(frame)) }
        let picture = try StillEncoder.hevc(frame)
        let record = try HEVCConfiguration.record(videoParameterSets: picture.videoParameterSets, sequenceParameterSets: picture.sequenceParameterSets,
                                                  pictureParameterSets: picture.pictureParameterSets)
        let colour = HEIFImageWriter.nclx(primaries: picture.primaries, transfer: picture.transfer, matrix: picture.matrix, fullRange: picture.fullRange)
        return .hevc(configuration: record, colour: colour, picture: NALUnit.lengthPrefixed(picture.units))
    }
}

extension MovieEncoder {
    /// The answer's track part for this encoder's pictures and `configuration`.
    public func answerTrack(_ configuration: (type: FourCC, format: FourCC, record: [UInt8])) -> CodecAnswer.Track {
        CodecAnswer.Track(format: configuration.format, configurationType: configuration.type, width: width, height: height, configuration: configuration.record)
    }
}

/// A GIF made into a movie's samples and a still, written as the answer's parts as they are made: the
/// decoded canvas is the only picture held.
public enum GIFMovie {
    /// The input is at fault (limits, structure, LZW data): exit 2.
    public struct BadInput: Error, CustomStringConvertible {
        public var description: String
    }

    public static let timescale: Int32 = 600
    /// The encoders' CRF for a GIF's frames: 10, where a tiny detailed GIF (36×28) keeps 35.9 dB
    /// (18, x264's usual, gave 30.2 there; 12 gave 34.8).
    public static let quality = 10

    /// `scale`: each GIF pixel becomes a `scale`×`scale` block (so that 4:2:0 keeps its colour).
    public static func write(path: String, stillFrame: Int, still: StillKind, codec: VideoCodec, background: (UInt8, UInt8, UInt8),
                             scale: Int, maxPixels: Int, maxFrames: Int, budget: CodecBudget = .standard, progress: (Int, Int) -> Void = { _, _ in }, output: ([UInt8]) -> Void) throws {
        let source = try FileSource(path: path)
        guard source.size <= 256 << 20 else { throw BadInput(description: "\(path): a GIF of \(source.size) bytes, more than the 256 MiB make reads") }
        let bytes = try source.read(at: 0, count: Int(source.size))
        let structure: GIFStructure
        do {
            structure = try GIFStructure(bytes, path: path, maxFrames: maxFrames)
        } catch {
            throw BadInput(description: "\(path): \(error)")
        }
        guard structure.width > 0, structure.height > 0, (1...64).contains(scale), structure.width * structure.height * scale * scale <= maxPixels else {
            throw BadInput(description: "\(path): a logical screen of \(structure.width)×\(structure.height) (×\(scale)), more than the \(maxPixels) pixels make reads (--max-pixels)")
        }
        let (width, height) = (structure.width * scale, structure.height * scale)
        guard !structure.frames.isEmpty else { throw BadInput(description: "\(path): the GIF holds no frame") }
        do {
            try budget.pixels(width: width, height: height, frames: structure.frames.count, "\(path): a GIF of \(structure.frames.count) frames composited")
            HelperProcess.limit(budget, width: width, height: height)
        } catch {
            throw BadInput(description: error.description)
        }
        guard structure.complete else { throw BadInput(description: "\(path): the GIF ends before its trailer (truncated)") }
        let encoder = try MovieEncoder(codec: codec, width: width, height: height, timescale: timescale, quality: quality)
        let configuration = try encoder.configuration()
        output(CodecAnswer.bytes(.track(encoder.answerTrack(configuration))))
        let (starts, _) = structure.shownStarts
        var written = 0
        func emit(_ samples: [MovieEncoder.Sample]) {
            for sample in samples {
                let index = written
                let duration = UInt32(structure.frames[min(index, structure.frames.count - 1)].shownDelay * Int(timescale) / 100)
                output(CodecAnswer.bytes(.sample(duration: duration, key: sample.key, data: sample.data)))
                written += 1
            }
        }
        var stillAnswer: BackgroundWork<StillAnswer>? = nil
        // Frames decoded, composited and enlarged on a thread of their own, two ahead of the
        // encoder, as the encoder takes them: at an even factor its 4:2:0 picture made from the
        // canvas's colours (`EvenEnlargement`), otherwise enlarged to BGR; the still's frame in
        // RGB too.
        let pipe = FramePipe<(index: Int, picture: EncoderInput, rgb: [UInt8]?)>(capacity: 2)
        let producer = Thread { [bytes] in
            var decoder = GIFDecoder(bytes: bytes, structure: structure, path: path, background: background)
            do {
                let even = try EvenEnlargement(width: structure.width, height: structure.height, factor: scale)
                while let canvas = try decodeNext(&decoder) {
                    let index = decoder.index - 1
                    let rgb = index == stillFrame ? scaled(canvas, width: structure.width, height: structure.height, by: scale) : nil
                    let picture: EncoderInput = try even.map { .planar(try $0.picture(canvas)) }
                        ?? .bgr(scaled(canvas, width: structure.width, height: structure.height, by: scale, bgr: true))
                    guard pipe.put((index, picture, rgb)) else { break }
                }
                pipe.end()
            } catch {
                pipe.end(failure: error)
            }
        }
        producer.start()
        defer { pipe.stop() }
        while let frame = try pipe.take() {
            // The still encoded beside the movie, in what the encoders leave of the cores.
            if let rgb = frame.rgb { stillAnswer = BackgroundWork { try StillAnswer.encoding(try Frame.rgb(rgb, width: width, height: height), as: still) } }
            let time = Int64(starts[frame.index] * Int(timescale) / 100)
            // A sync sample just before the still's frame: the frames around the moment decode
            // from it (make's read-back compares the still with three of them, not with the
            // group of pictures up to it; a player seeking to the moment starts there too).
            let sync = frame.index == stillFrame - 1
            switch frame.picture {
            case .bgr(let bgr): emit(try encoder.encode(bgr: bgr, presentationTime: time, sync: sync))
            case .planar(let picture): emit(try encoder.encode(picture: picture, presentationTime: time, sync: sync))
            }
            progress(frame.index + 1, structure.frames.count)
        }
        emit(try encoder.finish())
        guard written == structure.frames.count else { throw CodecError("encoding", "\(structure.frames.count) frames gave \(written) samples") }
        guard let stillAnswer else { throw BadInput(description: "\(path): the GIF has no frame \(stillFrame + 1)") }
        output(CodecAnswer.bytes(.still(try stillAnswer.value().bytes)))
    }

    /// Nearest-neighbour enlargement: each pixel a `factor`×`factor` block. One enlarged row is
    /// made, then repeated (`factor` rows of it). `bgr`: each pixel's bytes in blue, green, red
    /// order (what `MovieEncoder.encode(bgr:)` takes), at a factor of 1 too.
    static func scaled(_ rgb: [UInt8], width: Int, height: Int, by factor: Int, bgr: Bool = false) -> [UInt8] {
        guard factor > 1 || bgr else { return rgb }
        let rowBytes = width * factor * 3
        var out: [UInt8] = []
        out.reserveCapacity(rowBytes * height * factor)
        var row = [UInt8](repeating: 0, count: rowBytes)
        rgb.withUnsafeBufferPointer { source in
            for y in 0..<height {
                row.withUnsafeMutableBufferPointer { target in
                    var at = 0
                    for x in 0..<width {
                        let pixel = (y * width + x) * 3
                        let (first, green, last) = bgr ? (source[pixel + 2], source[pixel + 1], source[pixel]) : (source[pixel], source[pixel + 1], source[pixel + 2])
                        for _ in 0..<factor {
                            target[at] = first
                            target[at + 1] = green
                            target[at + 2] = last
                            at += 3
                        }
                    }
                }
                for _ in 0..<factor { out.append(contentsOf: row) }
            }
        }
        return out
    }

    /// A frame as the encoder takes it, handed from the producing thread to the encoding one
    /// (the producer keeps no reference to the picture it hands over).
    enum EncoderInput: @unchecked Sendable {
        case bgr([UInt8])
        case planar(Frame)
    }

    static func decodeNext(_ decoder: inout GIFDecoder) throws -> [UInt8]? {
        do {
            return try decoder.next()
        } catch let failure as GIFDecoder.Failure {
            throw BadInput(description: failure.description)
        }
    }
}
