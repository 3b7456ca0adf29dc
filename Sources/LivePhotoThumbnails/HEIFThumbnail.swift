internal import CHeifLoader
import Foundation
import LivePhotoFormats

/// Thumbnails of HEIC stills for HTML reports (`check --thumbnails`): the file's thumbnail item, or
/// its primary image scaled down, decoded by libheif (loaded at run time; lpcheck has no decoder of
/// its own), written as a small PNG. The only user of the CHeifLoader shim.
public enum HEIFThumbnail {
    /// Whether libheif can be used here; otherwise why not.
    public static func availability() -> (available: Bool, problem: String?) {
        var message: UnsafePointer<CChar>?
        let available = lpcheck_heif_available(&message) == 1
        return (available, message.map { String(cString: $0) })
    }

    /// A PNG no larger than `maxSide` on its longer side, or why there is none.
    public static func png(path: String, maxSide: Int = 160) -> Result<[UInt8], ThumbnailError> {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message: UnsafePointer<CChar>?
        let status = PathBytes.withCString(path) { lpcheck_heif_thumbnail($0, Int32(maxSide), &pixels, &width, &height, &message) }
        guard status == 0, let pixels, width > 0, height > 0 else {
            return .failure(ThumbnailError(message: message.map { String(cString: $0) } ?? "libheif failed"))
        }
        defer { free(pixels) }
        let rgb = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 3))
        return .success(PNGWriter.rgb(rgb, width: Int(width), height: Int(height)))
    }

    public struct ThumbnailError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

/// A minimal PNG writer for 8-bit RGB: one IDAT of stored (uncompressed) deflate blocks. Small
/// thumbnails only; nothing here reads a file.
enum PNGWriter {
    static func rgb(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(row * width * 3)..<((row + 1) * width * 3)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count >= raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += BoxWriter.u32(adler32(raw))
        let header = BoxWriter.u32(UInt32(width)) + BoxWriter.u32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return BoxWriter.u32(UInt32(data.count)) + body + BoxWriter.u32(crc32(body))
    }

    static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
