/// An animated GIF89a written piece by piece (W3C/CompuServe 1990): `head` (the logical screen,
/// a global palette of 256 entries, NETSCAPE2.0 looping), one `frame` at a time (a Graphic
/// Control Extension, the image descriptor, the LZW data in sub-blocks of at most 255 bytes),
/// then `trailer`. `GIFStructure` reads what it writes; the codec helper makes the indices.
public enum GIFWriter {
    public static let trailer: [UInt8] = [0x3B]

    /// The header, logical screen and global palette (`palette`: 256 RGB triples, 768 bytes),
    /// and NETSCAPE2.0's loop count (0: forever).
    public static func head(width: Int, height: Int, palette: [UInt8], loopCount: UInt16 = 0) throws -> [UInt8] {
        guard (1...0xFFFF).contains(width), (1...0xFFFF).contains(height) else {
            throw WriteError(.fieldOverflow, "a GIF of \(width)×\(height) does not fit its 16-bit fields")
        }
        guard palette.count == 768 else { throw WriteError(.inconsistentInput, "a GIF palette of \(palette.count) bytes, not 768") }
        var bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height)
        // Global colour table, 8 bits of colour resolution, 2^(7+1) entries; background 0; no aspect.
        bytes += [0xF7, 0, 0]
        bytes += palette
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(Int(loopCount)) + [0]
        return bytes
    }

    /// One frame: `indices` are the rectangle's pixels, row by row, into the global palette (or
    /// `palette`, a local one of 256 RGB triples); `delay` in centiseconds; pixels of
    /// `transparent` leave what is shown (disposal 1: the frame stays for the next one to draw over).
    public static func frame(left: Int, top: Int, width: Int, height: Int, indices: [UInt8], delay: Int, transparent: UInt8?, palette: [UInt8]? = nil) throws -> [UInt8] {
        guard (0...0xFFFF).contains(left), (0...0xFFFF).contains(top), (1...0xFFFF).contains(width), (1...0xFFFF).contains(height),
              (0...0xFFFF).contains(delay) else {
            throw WriteError(.fieldOverflow, "a GIF frame of \(width)×\(height) at \(left),\(top) lasting \(delay) cs does not fit its 16-bit fields")
        }
        guard indices.count == width * height else { throw WriteError(.inconsistentInput, "a \(width)×\(height) GIF frame of \(indices.count) pixels") }
        if let palette, palette.count != 768 { throw WriteError(.inconsistentInput, "a local GIF palette of \(palette.count) bytes, not 768") }
        var bytes: [UInt8] = [0x21, 0xF9, 4, 1 << 2 | (transparent == nil ? 0 : 1)] + le16(delay) + [transparent ?? 0, 0]
        bytes += [0x2C] + le16(left) + le16(top) + le16(width) + le16(height) + [palette == nil ? 0 : 0x87]
        if let palette { bytes += palette }
        bytes.append(8)
        let data = LZWEncoder.encode(indices)
        var at = 0
        while at < data.count {
            let length = min(255, data.count - at)
            bytes.append(UInt8(length))
            bytes += data[at..<(at + length)]
            at += length
        }
        bytes.append(0)
        return bytes
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}

/// GIF's variable-length LZW for 8-bit indices: codes of 9 to 12 bits, least significant bit
/// first, a clear code first and whenever the table's 4,096 codes are used, the end code last.
/// The table is one flat array of (prefix code, byte) → code, each entry stamped with the table's
/// generation, so a clear costs nothing.
enum LZWEncoder {
    static let clear = 256, end = 257, maxCode = 4096

    static func encode(_ indices: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(indices.count / 2 + 16)
        var bits: UInt32 = 0, held = 0
        var width = 9
        func put(_ code: Int) {
            bits |= UInt32(code) << UInt32(held)
            held += width
            while held >= 8 {
                output.append(UInt8(bits & 0xFF))
                bits >>= 8
                held -= 8
            }
        }
        guard let first = indices.first else {
            put(clear); put(end)
            if held > 0 { output.append(UInt8(bits & 0xFF)) }
            return output
        }
        // table[prefix << 8 | byte] = generation << 12 | code.
        var table = [UInt32](repeating: 0, count: maxCode << 8)
        var generation: UInt32 = 1
        var next = end + 1
        put(clear)
        var prefix = Int(first)
        table.withUnsafeMutableBufferPointer { table in
            indices.withUnsafeBufferPointer { indices in
                for position in 1..<indices.count {
                    let byte = Int(indices[position])
                    let key = prefix << 8 | byte
                    let entry = table[key]
                    if entry >> 12 == generation {
                        prefix = Int(entry & 0xFFF)
                        continue
                    }
                    put(prefix)
                    if next < maxCode {
                        table[key] = generation << 12 | UInt32(next)
                        next += 1
                        // The decoder adds each entry one code later, so widths grow one code later.
                        if next > 1 << width, width < 12 { width += 1 }
                    } else {
                        put(clear)
                        generation += 1
                        next = end + 1
                        width = 9
                    }
                    prefix = byte
                }
            }
        }
        put(prefix)
        put(end)
        if held > 0 { output.append(UInt8(bits & 0xFF)) }
        return output
    }
}
