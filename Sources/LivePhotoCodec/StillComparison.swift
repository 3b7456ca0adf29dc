internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats

/// make's read-back of a still against its movie: the still decoded (a JPEG, or a HEIF of one
/// coded picture), the movie's frames shown at its still-image-time and beside it decoded, each
/// compared with the still by the PSNR of their luma (BT.601 weights over the RGB each decodes
/// to: a JPEG's 4:2:0 chroma of a 4:4:4 movie is no other frame). Coded pictures are compared as stored: make writes
/// the still unturned, its turn in Exif Orientation or `irot`/`imir`, as the movie's matrix.
public enum StillComparison {
    public static func compare(still: String, movie path: String, maxPixels: Int, budget: CodecBudget) throws -> CodecAnswer.Comparison {
        let source = try FileSource(path: path)
        let movie: Movie
        do { movie = try Movie.read(from: source, options: .full) } catch { throw ShownFrameDecoder.BadInput(description: "\(path): \(error)") }
        guard let track = movie.primaryVideoTrack, let moment = movie.stillImageTime?.seconds else {
            throw ShownFrameDecoder.BadInput(description: "\(path): no video track, or no still-image-time to compare the still with")
        }
        let frames = try ShownFrameDecoder(path: path, window: nil, maxPixels: maxPixels, maxFrames: CodecLimits.maxFrames, budget: budget)
        let marked = frames.shown.index(shownAt: moment, in: movie, track: track)
        // The pictures decoded, at most every shown frame up to the one after the marked, held
        // to the budget before any is.
        if let entry = frames.track.sampleDescriptions.first, let width = entry.width, let height = entry.height {
            do {
                try budget.pixels(width: Int(width), height: Int(height), frames: min(frames.shown.frames.count, marked + 2), "\(path) compare")
            } catch {
                throw ShownFrameDecoder.BadInput(description: error.description)
            }
        }
        let picture = try decodeStill(still, maxPixels: maxPixels)
        let stillRGB = try rgb(picture)
        var scores: [CodecAnswer.Comparison.Score] = []
        for index in max(0, marked - 1)...min(frames.shown.frames.count - 1, marked + 1) {
            let frame = try rgb(try frames.picture(index))
            scores.append(CodecAnswer.Comparison.Score(frame: index, decibels: try psnr(stillRGB, frame, still: still)))
        }
        return CodecAnswer.Comparison(marked: marked, scores: scores)
    }

    /// A picture's RGB pixels and size.
    struct RGB { var width: Int, height: Int, pixels: [UInt8] }

    static func rgb(_ frame: Frame) throws -> RGB {
        let scaler = try Scaler(from: frame, to: AV_PIX_FMT_RGB24, fullRange: true, matrix: Scaler.swsMatrix(frame.pointer.pointee.colorspace))
        let converted = try scaler.convert(frame, to: AV_PIX_FMT_RGB24)
        guard let plane = converted.pointer.pointee.data.0 else { throw CodecError("sws_scale", "no RGB plane") }
        let stride = Int(converted.pointer.pointee.linesize.0)
        var pixels = [UInt8](repeating: 0, count: frame.width * frame.height * 3)
        pixels.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for row in 0..<frame.height { (base + row * frame.width * 3).update(from: plane + row * stride, count: frame.width * 3) }
        }
        return RGB(width: frame.width, height: frame.height, pixels: pixels)
    }

    /// Luma PSNR over the pictures' common area: an encoder pads an odd side by one pixel, no more.
    static func psnr(_ a: RGB, _ b: RGB, still: String) throws -> Double {
        guard abs(a.width - b.width) <= 1, abs(a.height - b.height) <= 1 else {
            throw ShownFrameDecoder.BadInput(description: "\(still): the still is \(a.width)×\(a.height), the movie's frames \(b.width)×\(b.height)")
        }
        let (width, height) = (min(a.width, b.width), min(a.height, b.height))
        // Luma in 1/1000ths: 299 R + 587 G + 114 B.
        func luma(_ pixels: [UInt8], _ at: Int) -> Int { 299 * Int(pixels[at]) + 587 * Int(pixels[at + 1]) + 114 * Int(pixels[at + 2]) }
        var sum = 0.0
        for row in 0..<height {
            let (left, right) = (row * a.width * 3, row * b.width * 3)
            for column in 0..<width {
                let difference = Double(luma(a.pixels, left + column * 3) - luma(b.pixels, right + column * 3)) / 1000
                sum += difference * difference
            }
        }
        let mean = sum / Double(max(1, width * height))
        return mean == 0 ? 100 : min(100, 10 * log10(255 * 255 / mean))
    }

    /// The still's picture: a JPEG by FFmpeg's MJPEG decoder, a HEIF's coded picture by its HEVC one.
    static func decodeStill(_ path: String, maxPixels: Int) throws -> Frame {
        let file = try FileSource(path: path)
        guard file.size <= 256 << 20 else { throw ShownFrameDecoder.BadInput(description: "\(path): a still of \(file.size) bytes") }
        let head = try file.read(at: 0, count: Int(min(2, file.size)))
        let frame: Frame
        if head == [0xFF, 0xD8] {
            frame = try decodePicture(AV_CODEC_ID_MJPEG, configuration: nil, data: try file.read(at: 0, count: Int(file.size)))
        } else {
            let image: HEIFCodedImage
            do { image = try HEIFCodedImage.primary(in: file) } catch { throw ShownFrameDecoder.BadInput(description: "\(path): \(error)") }
            frame = try decodePicture(AV_CODEC_ID_HEVC, configuration: image.configuration, data: image.data)
        }
        guard frame.width * frame.height <= maxPixels else { throw ShownFrameDecoder.BadInput(description: "\(path): a \(frame.width)×\(frame.height) still, more than \(maxPixels) pixels") }
        return frame
    }

    /// One coded picture decoded: `data` a packet of codec `id`, `configuration` its extradata;
    /// `lowres` (0–3, MJPEG only) halves each side that many times as it decodes.
    static func decodePicture(_ id: AVCodecID, configuration: [UInt8]?, data: [UInt8], lowres: Int = 0) throws -> Frame {
        guard let codec = avcodec_find_decoder(id) else { throw CodecError("avcodec_find_decoder", "FFmpeg has no decoder for the still") }
        let context = try CodecContext(codec)
        if let configuration { try context.setExtradata(configuration) }
        if id == AV_CODEC_ID_MJPEG { context.pointer.pointee.lowres = Int32(min(max(lowres, 0), 3)) }
        try CodecError.check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2(still)")
        let packet = try Packet(data, presentationTime: 0, decodeTime: 0, key: true)
        try CodecError.check(avcodec_send_packet(context.pointer, packet.pointer), "decoding the still")
        _ = avcodec_send_packet(context.pointer, nil)
        let frame = try Frame()
        try CodecError.check(avcodec_receive_frame(context.pointer, frame.pointer), "decoding the still")
        return frame
    }
}
