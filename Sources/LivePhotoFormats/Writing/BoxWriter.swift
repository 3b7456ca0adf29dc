

/// Big-endian and box encoding primitives.
public enum BoxWriter {
    public static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    public static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(value & 0xFFFF_FFFF)) }
    public static func i32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }
    public static func uint(_ value: UInt64, width: Int) -> [UInt8] { (0..<width).map { UInt8(value >> UInt64(8 * (width - 1 - $0)) & 0xFF) } }

    /// A box; 64-bit size when the payload needs it.
    public static func box(_ type: FourCC, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt64(payload.count) + 8
        if size > UInt64(UInt32.max) { return u32(1) + type.bytes + u64(size + 8) + payload }
        return u32(UInt32(size)) + type.bytes + payload
    }

    public static func fullBox(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    /// A `free` box of exactly `size` bytes (at least 8).
    public static func free(size: Int) -> [UInt8] {
        precondition(size >= 8)
        return u32(UInt32(size)) + FourCC("free").bytes + [UInt8](repeating: 0, count: size - 8)
    }
}
