internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of one of FFmpeg's calls: which, and FFmpeg's own words for its code.
public struct CodecError: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String

    init(_ operation: String, code: Int32) {
        var text = [CChar](repeating: 0, count: 256)
        av_strerror(code, &text, text.count)
        (self.operation, self.code) = (operation, code)
        description = "\(operation): \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
        if let said = CodecLog.lastError { description += " (\(said))" }
    }

    init(_ operation: String, _ message: String) {
        (self.operation, self.code, self.description) = (operation, 0, "\(operation): \(message)")
    }

    /// Throws for a negative return.
    @discardableResult
    static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
        if result < 0 { throw CodecError(operation(), code: result) }
        return result
    }
}

/// One `AVFrame`, freed with its owner.
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws {
        guard let frame = av_frame_alloc() else { throw CodecError("av_frame_alloc", "out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    public var width: Int { Int(pointer.pointee.width) }
    /// Tenths of a byte each pixel of this picture holds (15 for 8-bit 4:2:0), as its format lays it out.
    public var tenthsOfBytePerPixel: Int {
        let bytes = av_image_get_buffer_size(AVPixelFormat(rawValue: pointer.pointee.format), pointer.pointee.width, pointer.pointee.height, 1)
        let pixels = max(1, Int(pointer.pointee.width) * Int(pointer.pointee.height))
        return bytes > 0 ? max(1, Int(bytes) * 10 / pixels) : 30
    }
    public var height: Int { Int(pointer.pointee.height) }
    public var presentationTime: Int64 { pointer.pointee.pts }
    /// The pixel format's name (`yuv420p10le`).
    public var formatName: String { av_get_pix_fmt_name(AVPixelFormat(rawValue: pointer.pointee.format)).map { String(cString: $0) } ?? "unknown" }
    /// Bits per component of the first plane.
    public var bitDepth: Int {
        av_pix_fmt_desc_get(AVPixelFormat(rawValue: pointer.pointee.format)).map { Int($0.pointee.comp.0.depth) } ?? 8
    }
}

/// One `AVPacket` holding a copy of the bytes given, freed with its owner.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init(_ bytes: [UInt8], presentationTime: Int64, decodeTime: Int64, key: Bool) throws {
        guard let packet = av_packet_alloc() else { throw CodecError("av_packet_alloc", "out of memory") }
        pointer = packet
        try CodecError.check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet(\(bytes.count))")
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { packet.pointee.data.update(from: base, count: bytes.count) }
        }
        (packet.pointee.pts, packet.pointee.dts) = (presentationTime, decodeTime)
        if key { packet.pointee.flags |= AV_PKT_FLAG_KEY }
    }

    init() throws {
        guard let packet = av_packet_alloc() else { throw CodecError("av_packet_alloc", "out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: pointer.pointee.data, count: Int(pointer.pointee.size))) }
}

/// A codec context, opened; freed with its owner.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>) throws {
        guard let context = avcodec_alloc_context3(codec) else { throw CodecError("avcodec_alloc_context3", "out of memory") }
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Sets the decoder configuration (`avcC`/`hvcC` payloads), copied into padded memory FFmpeg owns.
    func setExtradata(_ bytes: [UInt8]) throws {
        let padding = Int(lp_padding())
        guard let memory = av_mallocz(bytes.count + padding)?.assumingMemoryBound(to: UInt8.self) else { throw CodecError("av_mallocz", "out of memory") }
        bytes.withUnsafeBufferPointer { source in if let base = source.baseAddress { memory.update(from: base, count: bytes.count) } }
        pointer.pointee.extradata = memory
        pointer.pointee.extradata_size = Int32(bytes.count)
    }

    var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }
}

/// The versions of the FFmpeg libraries loaded.
public enum CodecVersions {
    public static var text: String {
        func version(_ value: UInt32) -> String { "\(value >> 16).\(value >> 8 & 0xFF).\(value & 0xFF)" }
        return "libavcodec \(version(avcodec_version())), libavformat \(version(avformat_version())), libavutil \(version(avutil_version())), libswscale \(version(swscale_version()))"
    }
}

/// FFmpeg's own log: errors only (its warnings, such as swscale's on the deprecated full-range
/// formats the MJPEG encoder takes, are not lpcheck's to show).
public enum CodecLog {
    public static func errorsOnly() { av_log_set_level(AV_LOG_ERROR) }

    /// FFmpeg's log kept, not printed (`lp_log_capture`): its last error is the codec's reason
    /// a failure names, in one line and without the addresses of its contexts.
    public static func capture() {
        av_log_set_level(AV_LOG_ERROR)
        lp_log_capture()
    }

    /// FFmpeg's last error line ("hevc: Could not find ref with POC 3"), if any.
    public static var lastError: String? {
        guard let text = lp_log_last() else { return nil }
        let line = String(cString: text)
        return line.isEmpty ? nil : line
    }
}

/// The helper's process: it dies with the process that started it, and its address space is
/// limited to what its budget allows.
public enum HelperProcess {
    /// Asks the kernel for SIGKILL when the parent dies (Linux); true where that is in place.
    @discardableResult
    public static func dieWithParent() -> Bool { lp_die_with_parent() == 0 }

    /// The address space limited to `bytes` (only ever lowered): a budget missed is the
    /// allocation that fails, not the machine's memory. The helper sets it from its options at
    /// start, and again, lower, once it knows the pictures' size (`limit(_:pixels:)`).
    public static func limitAddressSpace(_ bytes: Int64) {
        guard bytes > 0 else { return }
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
        #else
        let resource = RLIMIT_AS
        #endif
        guard getrlimit(resource, &limit) == 0 else { return }
        let wanted = rlim_t(bytes)
        // Infinity is the largest value: the limit is only lowered, the hard one never touched.
        if limit.rlim_cur > wanted { limit.rlim_cur = wanted }
        _ = setrlimit(resource, &limit)
    }

    /// The address space for pictures of `width`×`height` under `budget`.
    public static func limit(_ budget: CodecBudget, width: Int, height: Int) {
        limitAddressSpace(budget.addressSpace(forPixels: width * height))
    }

    /// The address space's limit now, in bytes (nil when there is none).
    public static var addressSpaceLimit: UInt64? {
        var limit = rlimit()
        #if os(Linux)
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 else { return nil }
        #else
        guard getrlimit(RLIMIT_AS, &limit) == 0 else { return nil }
        #endif
        return limit.rlim_cur == rlim_t.max ? nil : UInt64(limit.rlim_cur)
    }
}

extension Frame {
    /// A frame of packed RGB (sRGB: BT.709 primaries, the sRGB transfer), padded to even
    /// sides by repeating the last column and row, as 4:2:0 encoders need.
    public static func rgb(_ bytes: [UInt8], width: Int, height: Int) throws -> Frame {
        let frame = try Frame()
        let (paddedWidth, paddedHeight) = (width + width % 2, height + height % 2)
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        (frame.pointer.pointee.width, frame.pointer.pointee.height) = (Int32(paddedWidth), Int32(paddedHeight))
        try CodecError.check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        guard let plane = frame.pointer.pointee.data.0, bytes.count >= width * height * 3 else { throw CodecError("frame", "no plane") }
        let stride = Int(frame.pointer.pointee.linesize.0)
        for row in 0..<paddedHeight {
            let source = min(row, height - 1) * width * 3
            for column in 0..<paddedWidth {
                let at = source + min(column, width - 1) * 3
                for byte in 0..<3 { plane[row * stride + column * 3 + byte] = bytes[at + byte] }
            }
        }
        (frame.pointer.pointee.color_primaries, frame.pointer.pointee.color_trc, frame.pointer.pointee.colorspace) = (AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT709)
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        return frame
    }
}
