internal import CFFmpeg
import LivePhotoFormats
import LivePhotoCodecProtocol

/// A video decoder for a track's samples: the sample entry's configuration (`avcC`, `hvcC`)
/// as FFmpeg's extradata, samples sent as they are stored (length-prefixed NAL units).
public final class VideoDecoder {
    let context: CodecContext

    /// The sample entry formats decoded, with their configuration box.
    static let formats: [FourCC: (configuration: FourCC, codec: AVCodecID)] = [
        "avc1": ("avcC", AV_CODEC_ID_H264), "avc3": ("avcC", AV_CODEC_ID_H264),
        "hvc1": ("hvcC", AV_CODEC_ID_HEVC), "hev1": ("hvcC", AV_CODEC_ID_HEVC),
    ]

    public init(_ description: SampleDescription) throws {
        guard let (box, id) = Self.formats[description.format] else {
            throw CodecError("decoder", "\(description.format) video is not decoded (H.264 and HEVC are)")
        }
        guard let configuration = description.configuration(box) else { throw CodecError("decoder", "the \(description.format) sample entry has no \(box)") }
        guard let codec = avcodec_find_decoder(id) else { throw CodecError("avcodec_find_decoder", "FFmpeg has no \(description.format) decoder") }
        context = try CodecContext(codec)
        try context.setExtradata(configuration)
        context.pointer.pointee.thread_count = 0
        try CodecError.check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2(\(description.format))")
    }

    public func send(_ bytes: [UInt8], presentationTime: Int64, decodeTime: Int64, key: Bool) throws {
        let packet = try Packet(bytes, presentationTime: presentationTime, decodeTime: decodeTime, key: key)
        try CodecError.check(avcodec_send_packet(context.pointer, packet.pointer), "decoding")
    }

    /// No more samples: the frames held back come out.
    public func finish() throws {
        let result = avcodec_send_packet(context.pointer, nil)
        if result != lp_averror_eof() { try CodecError.check(result, "decoding (flush)") }
    }

    /// The next decoded frame, nil when the decoder wants more input or has ended.
    public func receive() throws -> Frame? {
        let frame = try Frame()
        let result = avcodec_receive_frame(context.pointer, frame.pointer)
        if result == lp_averror_eagain() || result == lp_averror_eof() { return nil }
        try CodecError.check(result, "decoding")
        return frame
    }
}

/// swscale: a frame to another pixel format and range, with the colour matrices named.
final class Scaler {
    let pointer: OpaquePointer
    /// Whether this owner frees the context (a borrowed one belongs to another owner).
    let owned: Bool

    /// The output's size when it is not the input frame's.
    let outputSize: (width: Int, height: Int)?

    init(wrapping context: OpaquePointer) { (pointer, owned, outputSize) = (context, false, nil) }

    /// `keepingRange`: the output keeps the frame's range (only layout and depth change).
    /// `size`: the output's width and height (nil: the frame's), scaled with `flags`.
    init(from frame: Frame, to format: AVPixelFormat, fullRange: Bool, matrix: Int32, keepingRange: Bool = false,
         size: (width: Int, height: Int)? = nil, flags: Int32 = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT) throws {
        let (width, height) = size ?? (frame.width, frame.height)
        guard let context = sws_getContext(Int32(frame.width), Int32(frame.height), AVPixelFormat(rawValue: frame.pointer.pointee.format),
                                           Int32(width), Int32(height), format, flags, nil, nil, nil) else {
            throw CodecError("sws_getContext", "no conversion from \(frame.formatName) at \(frame.width)×\(frame.height) to \(width)×\(height)")
        }
        (pointer, owned, outputSize) = (context, true, size)
        let sourceRange: Int32 = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG || Self.fullRangeFormats.contains(frame.pointer.pointee.format) ? 1 : 0
        let sourceMatrix = Self.swsMatrix(frame.pointer.pointee.colorspace)
        sws_setColorspaceDetails(context, sws_getCoefficients(sourceMatrix), sourceRange, sws_getCoefficients(matrix), keepingRange ? sourceRange : fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
    }

    deinit { if owned { sws_freeContext(pointer) } }

    static let fullRangeFormats: Set<Int32> = [AV_PIX_FMT_YUVJ420P.rawValue, AV_PIX_FMT_YUVJ422P.rawValue, AV_PIX_FMT_YUVJ444P.rawValue]

    /// swscale's matrix constant for a frame's colour space (unspecified: BT.601, as swscale assumes).
    static func swsMatrix(_ space: AVColorSpace) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return SWS_CS_ITU601
        }
    }

    func convert(_ frame: Frame, to format: AVPixelFormat) throws -> Frame {
        let output = try Frame()
        output.pointer.pointee.format = format.rawValue
        (output.pointer.pointee.width, output.pointer.pointee.height) = outputSize.map { (Int32($0.width), Int32($0.height)) } ?? (frame.pointer.pointee.width, frame.pointer.pointee.height)
        try CodecError.check(av_frame_get_buffer(output.pointer, 0), "av_frame_get_buffer")
        let result = withUnsafePointer(to: &frame.pointer.pointee.data) { sourceData in
            withUnsafePointer(to: &frame.pointer.pointee.linesize) { sourceLines in
                withUnsafePointer(to: &output.pointer.pointee.data) { outputData in
                    withUnsafePointer(to: &output.pointer.pointee.linesize) { outputLines in
                        sws_scale(pointer,
                                  UnsafeRawPointer(sourceData).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), UnsafeRawPointer(sourceLines).assumingMemoryBound(to: Int32.self),
                                  0, frame.pointer.pointee.height,
                                  UnsafeRawPointer(outputData).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self), UnsafeRawPointer(outputLines).assumingMemoryBound(to: Int32.self))
                    }
                }
            }
        }
        try CodecError.check(result, "sws_scale")
        return output
    }
}

/// Encodes one picture.
public enum StillEncoder {
    /// A baseline JFIF JPEG (BT.601 full-range 4:2:0, as JPEG readers assume), quantiser scale
    /// `quality` (2 best, 31 worst) with FFmpeg's MJPEG encoder.
    public static func jpeg(_ frame: Frame, quality: Int = 2) throws -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw CodecError("avcodec_find_encoder", "FFmpeg has no MJPEG encoder") }
        let scaled = try Scaler(from: frame, to: AV_PIX_FMT_YUVJ420P, fullRange: true, matrix: SWS_CS_ITU601).convert(frame, to: AV_PIX_FMT_YUVJ420P)
        let context = try CodecContext(codec)
        let c = context.pointer
        (c.pointee.width, c.pointee.height, c.pointee.pix_fmt) = (Int32(frame.width), Int32(frame.height), AV_PIX_FMT_YUVJ420P)
        c.pointee.time_base = AVRational(num: 1, den: 25)
        c.pointee.color_range = AVCOL_RANGE_JPEG
        c.pointee.flags |= AV_CODEC_FLAG_QSCALE
        c.pointee.global_quality = Int32(quality) * lp_qp2lambda()
        try CodecError.check(avcodec_open2(c, codec, nil), "avcodec_open2(mjpeg)")
        scaled.pointer.pointee.quality = c.pointee.global_quality
        scaled.pointer.pointee.pts = 0
        try CodecError.check(avcodec_send_frame(c, scaled.pointer), "encoding JPEG")
        try CodecError.check(avcodec_send_frame(c, nil), "encoding JPEG (flush)")
        let packet = try Packet()
        try CodecError.check(avcodec_receive_packet(c, packet.pointer), "encoding JPEG")
        return packet.bytes
    }
}

extension StillEncoder {
    /// An HEVC still: the parameter sets and the one picture's NAL units (SEI left out), the
    /// colour description as the decoder gave it, 8- or 10-bit as the frame is.
    public struct HEVCPicture {
        public var videoParameterSets: [[UInt8]] = []
        public var sequenceParameterSets: [[UInt8]] = []
        public var pictureParameterSets: [[UInt8]] = []
        public var units: [[UInt8]] = []
        /// ITU-T H.273 codes and the range, as written into the VUI.
        public var primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool
    }

    /// The frame encoded by x265 (through libavcodec) as one intra picture, CRF `quality`,
    /// keeping its chroma subsampling as 4:2:0 and its bit depth (8, or 10 above 8). Coding
    /// units of 16 pixels at least: for one intra picture, x265's medium preset spends most of
    /// its time searching 8×8 ones; at CRF 12 without them, IMG_3853's frame at 0.7 s is 49.46 dB
    /// (CRF 14 with them: 49.41 dB) in 0.32 s for 0.70 s (ffmpeg's libx265, 2 cores), 1.38× the
    /// bytes; train.mov's 49.14 dB for 48.11 dB in 0.22 s for 0.45 s, 1.22× (BENCHMARKS.md).
    public static func hevc(_ frame: Frame, quality: Int = 12) throws -> HEVCPicture {
        guard let codec = avcodec_find_encoder_by_name("libx265") else { throw CodecError("avcodec_find_encoder_by_name", "FFmpeg has no libx265 encoder") }
        guard frame.width >= 16, frame.height >= 16 else {
            throw CodecError("encoding HEVC", "x265 encodes no picture under 16 pixels a side (this frame is \(frame.width)×\(frame.height)): --still jpeg makes a JPEG still of it")
        }
        guard frame.width % 2 == 0, frame.height % 2 == 0 else {
            throw CodecError("encoding HEVC", "a HEIC still is 4:2:0, whose sides are even, and this frame is \(frame.width)×\(frame.height) (\(frame.formatName)): --still jpeg makes a JPEG still of it at its own size")
        }
        let deep = frame.bitDepth > 8
        let target = deep ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
        let source = frame.pointer.pointee
        let fullRange = source.color_range == AVCOL_RANGE_JPEG || Scaler.fullRangeFormats.contains(source.format)
        // Same matrix and range on both sides: only the layout (and depth) changes.
        let matrix = Scaler.swsMatrix(source.colorspace)
        let scaled = try Scaler(from: frame, to: target, fullRange: fullRange, matrix: matrix, keepingRange: true).convert(frame, to: target)
        let context = try CodecContext(codec)
        let c = context.pointer
        (c.pointee.width, c.pointee.height, c.pointee.pix_fmt) = (Int32(frame.width), Int32(frame.height), target)
        c.pointee.time_base = AVRational(num: 1, den: 25)
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        c.pointee.gop_size = 1
        c.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        (c.pointee.color_primaries, c.pointee.color_trc, c.pointee.colorspace) = (source.color_primaries, source.color_trc, source.colorspace)
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "crf", String(quality), 0)
        av_dict_set(&options, "preset", "medium", 0)
        av_dict_set(&options, "x265-params", "log-level=error:info=0:repeat-headers=0:min-cu-size=16", 0)
        try CodecError.check(avcodec_open2(c, codec, &options), "avcodec_open2(libx265)")
        scaled.pointer.pointee.pts = 0
        try CodecError.check(avcodec_send_frame(c, scaled.pointer), "encoding HEVC")
        try CodecError.check(avcodec_send_frame(c, nil), "encoding HEVC (flush)")
        let packet = try Packet()
        try CodecError.check(avcodec_receive_packet(c, packet.pointer), "encoding HEVC")
        var picture = HEVCPicture(primaries: UInt8(clamping: source.color_primaries.rawValue), transfer: UInt8(clamping: source.color_trc.rawValue),
                                  matrix: UInt8(clamping: source.colorspace.rawValue), fullRange: fullRange)
        for unit in NALUnit.annexB(context.extradata) + NALUnit.annexB(packet.bytes) {
            switch HEVCConfiguration.unitType(unit) {
            case NALUnit.HEVCType.videoParameterSet: picture.videoParameterSets.append(unit)
            case NALUnit.HEVCType.sequenceParameterSet: picture.sequenceParameterSets.append(unit)
            case NALUnit.HEVCType.pictureParameterSet: picture.pictureParameterSets.append(unit)
            case NALUnit.HEVCType.accessUnitDelimiter, NALUnit.HEVCType.prefixSEI, NALUnit.HEVCType.suffixSEI: continue
            default: picture.units.append(unit)
            }
        }
        guard !picture.units.isEmpty else { throw CodecError("encoding HEVC", "x265 gave no picture") }
        return picture
    }
}

/// Encodes RGB pictures into a video stream (H.264 by x264, or HEVC by x265, through
/// libavcodec) with the presentation times given: no B-frames, so samples are stored in
/// presentation order. Pictures of odd width or height are padded by repeating their last
/// column or row, as 4:2:0 needs even sizes. BT.709 matrix, limited range.
public final class MovieEncoder {
    public typealias Codec = VideoCodec

    public struct Sample {
        public var data: [UInt8]
        public var presentationTime: Int64
        public var key: Bool
    }

    let context: CodecContext
    let codec: Codec
    public let width: Int, height: Int
    let sourceWidth: Int, sourceHeight: Int
    let scaler: OpaquePointer

    /// `like`: a decoded picture whose colour (range, primaries, transfer, matrix) the movie
    /// keeps, for pictures given as they were decoded (`encode(picture:)`); nil: BT.709, limited.
    /// `rate`: an average bit rate (x264's and x265's ABR) in place of the CRF `quality`, with
    /// the frames a second it is spread over (the encoders otherwise take the timescale's ticks
    /// for frames).
    public init(codec: Codec, width: Int, height: Int, timescale: Int32, quality: Int = 18, rate: (bitsPerSecond: Int, framesPerSecond: Double, bufferBits: Int)? = nil, like picture: Frame? = nil) throws {
        let name = codec == .h264 ? "libx264" : "libx265"
        guard let encoder = avcodec_find_encoder_by_name(name) else { throw CodecError("avcodec_find_encoder_by_name", "FFmpeg has no \(name) encoder") }
        (self.codec, sourceWidth, sourceHeight) = (codec, width, height)
        (self.width, self.height) = (width + width % 2, height + height % 2)
        context = try CodecContext(encoder)
        let c = context.pointer
        (c.pointee.width, c.pointee.height, c.pointee.pix_fmt) = (Int32(self.width), Int32(self.height), AV_PIX_FMT_YUV420P)
        c.pointee.time_base = AVRational(num: 1, den: timescale)
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        c.pointee.max_b_frames = 0
        c.pointee.gop_size = 250
        // As many threads as cores, as the ffmpeg command sets (libavcodec's default is one).
        c.pointee.thread_count = 0
        (c.pointee.color_range, c.pointee.color_primaries, c.pointee.color_trc, c.pointee.colorspace) = (AVCOL_RANGE_MPEG, AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709)
        if let picture {
            let p = picture.pointer.pointee
            (c.pointee.color_range, c.pointee.color_primaries, c.pointee.color_trc, c.pointee.colorspace) = (p.color_range, p.color_primaries, p.color_trc, p.colorspace)
        }
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "crf", String(quality), 0)
        if let rate {
            // The CRF capped (VBV): no stretch of frames exceeds the rate, with the buffer given
            // (a buffer of a second let a 1.4 s clip take 1.6× the rate).
            (c.pointee.rc_max_rate, c.pointee.rc_buffer_size) = (Int64(rate.bitsPerSecond), Int32(clamping: rate.bufferBits))
            c.pointee.framerate = AVRational(num: Int32((rate.framesPerSecond * 1000).rounded()), den: 1000)
        }
        av_dict_set(&options, "preset", "medium", 0)
        if codec == .hevc { av_dict_set(&options, "x265-params", "log-level=error:info=0:bframes=0", 0) }
        try CodecError.check(avcodec_open2(c, encoder, &options), "avcodec_open2(\(name))")
        // BGR24 in: swscale converts it to 4:2:0 by its unscaled path (ff_bgr24toyv12, with the
        // matrix set below), three times faster here than RGB24's general one.
        guard let scaler = sws_getContext(Int32(self.width), Int32(self.height), AV_PIX_FMT_BGR24, Int32(self.width), Int32(self.height), AV_PIX_FMT_YUV420P,
                                          SWS_BICUBIC, nil, nil, nil) else {
            throw CodecError("sws_getContext", "no RGB to YUV conversion")
        }
        self.scaler = scaler
        sws_setColorspaceDetails(scaler, sws_getCoefficients(SWS_CS_ITU601), 1, sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16)
    }

    deinit { sws_freeContext(scaler) }

    /// The parameter sets as libavcodec gives them (Annex B).
    public var parameterSets: [[UInt8]] { NALUnit.annexB(context.extradata) }

    /// Sends one RGB picture (`sourceWidth`×`sourceHeight`, packed) shown from `presentationTime`.
    public func encode(_ rgb: [UInt8], presentationTime: Int64) throws -> [Sample] { try encode(pixels: rgb, bgr: false, presentationTime: presentationTime) }

    /// Sends one BGR picture (blue, green, red bytes a pixel): copied row by row as it is.
    public func encode(bgr: [UInt8], presentationTime: Int64, sync: Bool = false) throws -> [Sample] {
        try encode(pixels: bgr, bgr: true, presentationTime: presentationTime, sync: sync)
    }

    func encode(pixels rgb: [UInt8], bgr: Bool, presentationTime: Int64, sync: Bool = false) throws -> [Sample] {
        guard rgb.count >= sourceWidth * sourceHeight * 3 else { throw CodecError("encoding", "\(rgb.count) bytes for a \(sourceWidth)×\(sourceHeight) picture") }
        let input = try Frame()
        input.pointer.pointee.format = AV_PIX_FMT_BGR24.rawValue
        (input.pointer.pointee.width, input.pointer.pointee.height) = (Int32(width), Int32(height))
        try CodecError.check(av_frame_get_buffer(input.pointer, 0), "av_frame_get_buffer")
        let stride = Int(input.pointer.pointee.linesize.0)
        guard let plane = input.pointer.pointee.data.0 else { throw CodecError("av_frame_get_buffer", "no plane") }
        // RGB rows to BGR, the last column and row repeated into the padding.
        rgb.withUnsafeBufferPointer { source in
            for row in 0..<height {
                guard let base = source.baseAddress else { return }
                let from = base + min(row, sourceHeight - 1) * sourceWidth * 3
                let target = plane + row * stride
                var at = 0
                if bgr {
                    target.update(from: from, count: sourceWidth * 3)
                    at = sourceWidth * 3
                }
                while at < sourceWidth * 3 {
                    target[at] = from[at + 2]
                    target[at + 1] = from[at + 1]
                    target[at + 2] = from[at]
                    at += 3
                }
                if width > sourceWidth { (target + at).update(from: target + at - 3, count: 3) }
            }
        }
        let output = try Scaler(wrapping: scaler).convert(input, to: AV_PIX_FMT_YUV420P)
        output.pointer.pointee.pts = presentationTime
        output.pointer.pointee.pict_type = sync ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try CodecError.check(avcodec_send_frame(context.pointer, output.pointer), "encoding")
        return try drain()
    }

    /// Sends one decoded picture as it is (its layout and depth made 4:2:0 8-bit where they
    /// differ, its range and matrix kept), shown from `presentationTime`; `sync`: coded as a
    /// sync sample (an IDR picture, the encoders' GOPs being closed).
    public func encode(picture: Frame, presentationTime: Int64, sync: Bool = false) throws -> [Sample] {
        guard picture.width == sourceWidth, picture.height == sourceHeight else {
            throw CodecError("encoding", "a \(picture.width)×\(picture.height) picture in a \(sourceWidth)×\(sourceHeight) movie")
        }
        let input: Frame
        if picture.pointer.pointee.format == AV_PIX_FMT_YUV420P.rawValue && width == sourceWidth && height == sourceHeight {
            input = picture
        } else {
            let matrix = Scaler.swsMatrix(picture.pointer.pointee.colorspace)
            let scaler = try Scaler(from: picture, to: AV_PIX_FMT_YUV420P, fullRange: false, matrix: matrix, keepingRange: true)
            input = try scaler.convert(picture, to: AV_PIX_FMT_YUV420P)
        }
        let pts = input.pointer.pointee.pts
        input.pointer.pointee.pts = presentationTime
        defer { input.pointer.pointee.pts = pts }
        let p = input.pointer
        (p.pointee.color_range, p.pointee.color_primaries, p.pointee.color_trc, p.pointee.colorspace) =
            (context.pointer.pointee.color_range, context.pointer.pointee.color_primaries, context.pointer.pointee.color_trc, context.pointer.pointee.colorspace)
        p.pointee.pict_type = sync ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try CodecError.check(avcodec_send_frame(context.pointer, p), "encoding")
        return try drain()
    }

    /// Whether the encoded pictures are full range.
    public var fullRange: Bool { context.pointer.pointee.color_range == AVCOL_RANGE_JPEG }

    /// The colour the movie is tagged with, as QuickTime `nclc` codes (primaries, transfer, matrix).
    public var colourCodes: (primaries: UInt16, transfer: UInt16, matrix: UInt16) {
        let c = context.pointer.pointee
        return (UInt16(clamping: c.color_primaries.rawValue), UInt16(clamping: c.color_trc.rawValue), UInt16(clamping: c.colorspace.rawValue))
    }

    /// No more pictures: the samples held back.
    public func finish() throws -> [Sample] {
        try CodecError.check(avcodec_send_frame(context.pointer, nil), "encoding (flush)")
        return try drain()
    }

    func drain() throws -> [Sample] {
        var samples: [Sample] = []
        while true {
            let packet = try Packet()
            let result = avcodec_receive_packet(context.pointer, packet.pointer)
            if result == lp_averror_eagain() || result == lp_averror_eof() { return samples }
            try CodecError.check(result, "encoding")
            let units = NALUnit.annexB(packet.bytes).filter { unit in
                // Parameter sets live in the sample entry; SEI and delimiters are left out.
                switch codec {
                case .h264: return !NALUnit.AVCType.notPicture.contains(NALUnit.avcUnitType(unit) ?? 0)
                case .hevc: return !NALUnit.HEVCType.notPicture.contains(HEVCConfiguration.unitType(unit) ?? 0)
                }
            }
            samples.append(Sample(data: NALUnit.lengthPrefixed(units), presentationTime: packet.pointer.pointee.pts, key: packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0))
        }
    }

    /// The sample entry's configuration record: `avcC` (H.264) or `hvcC` (HEVC).
    public func configuration() throws -> (type: FourCC, format: FourCC, record: [UInt8]) {
        let sets = parameterSets
        switch codec {
        case .h264:
            let sps = sets.filter { NALUnit.avcUnitType($0) == NALUnit.AVCType.sequenceParameterSet }
            let pps = sets.filter { NALUnit.avcUnitType($0) == NALUnit.AVCType.pictureParameterSet }
            guard sps.first.map({ $0.count >= 4 }) == true, !pps.isEmpty else { throw CodecError("encoding", "x264 gave no SPS and PPS") }
            return ("avcC", "avc1", try DecoderConfiguration.avcRecord(sequenceParameterSets: sps, pictureParameterSets: pps))
        case .hevc:
            let record = try HEVCConfiguration.record(videoParameterSets: sets.filter { HEVCConfiguration.unitType($0) == NALUnit.HEVCType.videoParameterSet },
                                                      sequenceParameterSets: sets.filter { HEVCConfiguration.unitType($0) == NALUnit.HEVCType.sequenceParameterSet },
                                                      pictureParameterSets: sets.filter { HEVCConfiguration.unitType($0) == NALUnit.HEVCType.pictureParameterSet })
            return ("hvcC", "hvc1", record)
        }
    }
}
