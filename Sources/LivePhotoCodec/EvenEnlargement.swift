internal import CFFmpeg

/// A GIF's composited canvas (RGB) made into the 4:2:0 picture of its enlargement by an even
/// factor without making the enlargement: every block of the enlarged picture is one colour, so
/// its luma is the canvas's luma repeated and its chroma (one sample for 2×2 pixels) the canvas's
/// chroma repeated half as often. The colour is converted once for each canvas pixel (a quarter
/// of the enlarged ones at a factor of 2), as BT.709 at limited range, what `MovieEncoder` makes
/// of RGB (16.16 fixed point, rounded; grey stays 128 in chroma). The pictures come from a pool
/// it owns (one allocation a frame, made on one thread and freed on another, cost the kernel's
/// zeroing of fresh pages every frame). One per producing thread.
final class EvenEnlargement {
    let width: Int, height: Int, factor: Int
    private var pool: OpaquePointer?
    private static let alignment: Int32 = 32

    /// nil where the factor is odd (the chroma of a block would straddle two canvas pixels).
    init?(width: Int, height: Int, factor: Int) throws {
        guard factor >= 2, factor % 2 == 0, width > 0, height > 0 else { return nil }
        (self.width, self.height, self.factor) = (width, height, factor)
        let size = av_image_get_buffer_size(AV_PIX_FMT_YUV420P, Int32(width * factor), Int32(height * factor), Self.alignment)
        guard size > 0 else { throw CodecError("av_image_get_buffer_size", "no 4:2:0 picture of \(width * factor)×\(height * factor)") }
        pool = av_buffer_pool_init(Int(size), nil)
    }

    deinit {
        // Freed once the last picture drawn from it is.
        av_buffer_pool_uninit(&pool)
    }

    /// BT.709's luma and chroma of one RGB colour at limited range (Y 16–235, Cb and Cr 16–240).
    @inline(__always)
    static func yuv(_ red: Int, _ green: Int, _ blue: Int) -> (UInt8, UInt8, UInt8) {
        let y = (11966 * red + 40254 * green + 4064 * blue + (16 << 16) + 32768) >> 16
        let u = (-6596 * red - 22188 * green + 28784 * blue + (128 << 16) + 32768) >> 16
        let v = (28784 * red - 26145 * green - 2639 * blue + (128 << 16) + 32768) >> 16
        return (UInt8(truncatingIfNeeded: y), UInt8(truncatingIfNeeded: u), UInt8(truncatingIfNeeded: v))
    }

    /// The enlarged picture of `rgb` (the canvas's pixels, packed), 4:2:0, tagged BT.709 limited.
    func picture(_ rgb: [UInt8]) throws -> Frame {
        guard rgb.count >= width * height * 3 else { throw CodecError("enlarging", "\(rgb.count) bytes for a \(width)×\(height) canvas") }
        let output = try Frame()
        let p = output.pointer
        p.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        (p.pointee.width, p.pointee.height) = (Int32(width * factor), Int32(height * factor))
        (p.pointee.color_range, p.pointee.color_primaries, p.pointee.color_trc, p.pointee.colorspace) = (AVCOL_RANGE_MPEG, AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709)
        guard let buffer = av_buffer_pool_get(pool) else { throw CodecError("av_buffer_pool_get", "out of memory") }
        p.pointee.buf.0 = buffer
        let filled = withUnsafeMutablePointer(to: &p.pointee.data) { data in
            withUnsafeMutablePointer(to: &p.pointee.linesize) { lines in
                av_image_fill_arrays(UnsafeMutableRawPointer(data).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self),
                                     UnsafeMutableRawPointer(lines).assumingMemoryBound(to: Int32.self),
                                     buffer.pointee.data, AV_PIX_FMT_YUV420P, p.pointee.width, p.pointee.height, Self.alignment)
            }
        }
        try CodecError.check(filled, "av_image_fill_arrays")
        guard let luma = p.pointee.data.0, let blue = p.pointee.data.1, let red = p.pointee.data.2 else { throw CodecError("av_image_fill_arrays", "no plane") }
        let (lumaStride, chromaStride) = (Int(p.pointee.linesize.0), Int(p.pointee.linesize.1))
        let (lumaWidth, half) = (width * factor, factor / 2)
        rgb.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let (y, u, v) = (luma + row * factor * lumaStride, blue + row * half * chromaStride, red + row * half * chromaStride)
                var at = row * width * 3
                for column in 0..<width {
                    let (l, cb, cr) = Self.yuv(Int(source[at]), Int(source[at + 1]), Int(source[at + 2]))
                    at += 3
                    for copy in 0..<factor { y[column * factor + copy] = l }
                    for copy in 0..<half { (u[column * half + copy], v[column * half + copy]) = (cb, cr) }
                }
                for copy in 1..<factor { (y + copy * lumaStride).update(from: y, count: lumaWidth) }
                for copy in 1..<max(half, 1) {
                    (u + copy * chromaStride).update(from: u, count: width * half)
                    (v + copy * chromaStride).update(from: v, count: width * half)
                }
            }
        }
        return output
    }
}
