import LivePhotoFormats

/// An animated GIF's frames composited as browsers show them (the HTML Living Standard's image
/// decoding, as Chrome and Firefox do): the canvas starts transparent; before a frame is drawn
/// the one before it is disposed of (1 or 0: left; 2: its rectangle cleared to transparent,
/// whatever the background colour index says; 3: its rectangle restored to what it was before
/// it was drawn); transparent pixels leave the canvas as it was; frames are clipped to the
/// logical screen; interlaced rows are put in place. Each frame is given over `background`.
///
/// FFmpeg's GIF decoder is not used: it paints the background colour on the first frame and
/// on disposal 2 where browsers clear to transparent (libavcodec/gifdec.c). One canvas (and one
/// copy for disposal 3) is held whatever the number of frames.
public struct GIFDecoder {
    public let structure: GIFStructure
    let bytes: [UInt8]
    let path: String
    let background: (UInt8, UInt8, UInt8)
    /// RGBA; alpha 0 is transparent.
    var canvas: [UInt8]
    var saved: [UInt8]? = nil
    public private(set) var index = 0

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(bytes: [UInt8], structure: GIFStructure, path: String, background: (UInt8, UInt8, UInt8)) {
        (self.bytes, self.structure, self.path, self.background) = (bytes, structure, path, background)
        canvas = [UInt8](repeating: 0, count: structure.width * structure.height * 4)
    }

    /// The next frame as packed RGB over the background, or nil after the last.
    public mutating func next() throws -> [UInt8]? {
        guard index < structure.frames.count else { return nil }
        let frame = structure.frames[index]
        if index > 0 {
            let before = structure.frames[index - 1]
            if before.disposal == 2 { clear(before) } else if before.disposal == 3, let saved { restore(before, from: saved) }
        }
        saved = frame.disposal == 3 ? canvas : nil
        try decode(frame)
        index += 1
        return flattened()
    }

    func clipped(_ frame: GIFStructure.Frame) -> (x: Range<Int>, y: Range<Int>) {
        let x = min(frame.left, structure.width)..<min(frame.left + frame.width, structure.width)
        let y = min(frame.top, structure.height)..<min(frame.top + frame.height, structure.height)
        return (x, y)
    }

    mutating func clear(_ frame: GIFStructure.Frame) {
        let (xs, ys) = clipped(frame)
        for y in ys { for x in xs { canvas[(y * structure.width + x) * 4 + 3] = 0 } }
    }

    mutating func restore(_ frame: GIFStructure.Frame, from copy: [UInt8]) {
        let (xs, ys) = clipped(frame)
        for y in ys {
            let start = (y * structure.width + xs.lowerBound) * 4, end = (y * structure.width + xs.upperBound) * 4
            if start < end { canvas.replaceSubrange(start..<end, with: copy[start..<end]) }
        }
    }

    /// Which picture row each row of the frame's data is (interlaced: every 8th from 0, every
    /// 8th from 4, every 4th from 2, every 2nd from 1).
    static func rows(_ frame: GIFStructure.Frame) -> [Int] {
        guard frame.interlaced else { return Array(0..<frame.height) }
        var rows: [Int] = []
        rows.reserveCapacity(frame.height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { rows += stride(from: start, to: frame.height, by: step) }
        return rows
    }

    /// Decodes the frame's LZW data straight onto the canvas: each colour index where it shows
    /// (inside the screen, not the transparent one, in the palette), none held. A frame taller
    /// than the screen is decoded to its last row that shows, so that what it claims beyond the
    /// screen costs nothing.
    mutating func decode(_ frame: GIFStructure.Frame) throws {
        let palette = frame.localPalette ?? structure.globalPalette ?? (0, 0)
        let rows = Self.rows(frame)
        guard frame.width > 0, let lastShown = rows.lastIndex(where: { frame.top + $0 < structure.height }), frame.left < structure.width else { return }
        let (screenWidth, transparent) = (structure.width, frame.transparentIndex ?? -1)
        var dataRow = 0, column = 0
        var target = (frame.top + rows[0]) * screenWidth + frame.left
        let visibleColumns = min(frame.width, screenWidth - frame.left), screenHeight = structure.height
        // The canvas moved out while the decoder writes it (no copy), and back after.
        var pixels = canvas
        canvas = []
        defer { canvas = pixels }
        try pixels.withUnsafeMutableBufferPointer { canvas in
            try bytes.withUnsafeBufferPointer { bytes in
                try lzw(frame) { colour in
                    let index = Int(colour)
                    if column < visibleColumns && frame.top + rows[dataRow] < screenHeight && index != transparent && index < palette.count {
                        let source = palette.offset + index * 3, at = (target + column) * 4
                        canvas[at] = bytes[source]
                        canvas[at + 1] = bytes[source + 1]
                        canvas[at + 2] = bytes[source + 2]
                        canvas[at + 3] = 255
                    }
                    column += 1
                    if column == frame.width {
                        column = 0
                        dataRow += 1
                        // Past the last row that shows: the rest of a frame taller than the screen
                        // is never seen (a frame that fits is decoded to its end, so that an
                        // overrun is found).
                        if dataRow > lastShown && lastShown < rows.count - 1 { return false }
                        guard dataRow < rows.count else { return true }
                        target = (frame.top + rows[dataRow]) * screenWidth + frame.left
                    }
                    return true
                }
            }
        }
    }

    func flattened() -> [UInt8] {
        let count = structure.width * structure.height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        let (red, green, blue) = background
        canvas.withUnsafeBufferPointer { canvas in
            rgb.withUnsafeMutableBufferPointer { rgb in
                for pixel in 0..<count {
                    let opaque = canvas[pixel * 4 + 3] != 0
                    rgb[pixel * 3] = opaque ? canvas[pixel * 4] : red
                    rgb[pixel * 3 + 1] = opaque ? canvas[pixel * 4 + 1] : green
                    rgb[pixel * 3 + 2] = opaque ? canvas[pixel * 4 + 2] : blue
                }
            }
        }
        return rgb
    }

    /// The frame's colour indices from its LZW data (variable-length codes, least significant
    /// bit first, across the data sub-blocks), each handed to `emit` in order until it answers
    /// false. A stream that ends (its end code, or its last sub-block) before giving every pixel
    /// is accepted, as browsers do; one that gives more pixels than the frame holds, or a code
    /// not yet in the table, is refused with its offset.
    func lzw(_ frame: GIFStructure.Frame, emit: (UInt8) -> Bool) throws {
        let wanted = frame.width * frame.height
        var given = 0
        let clearCode = 1 << frame.codeSize, endCode = clearCode + 1
        var prefix = [Int16](repeating: -1, count: 4096), suffix = [UInt8](repeating: 0, count: 4096), first = [UInt8](repeating: 0, count: 4096)
        for code in 0..<clearCode { (suffix[code], first[code]) = (UInt8(truncatingIfNeeded: code), UInt8(truncatingIfNeeded: code)) }
        var codeSize = frame.codeSize + 1, nextCode = clearCode + 2, previous = -1
        var stack = [UInt8](repeating: 0, count: 4097)
        // The bit reader across sub-blocks.
        var position = frame.dataOffset, blockLeft = 0, bits = 0, bitCount = 0
        func fail(_ message: String) -> Failure {
            Failure(description: "\(path): frame \(index + 1) (image descriptor at byte \(frame.offset)): \(message) (LZW data near byte \(position))")
        }
        while true {
            while bitCount < codeSize {
                if blockLeft == 0 {
                    guard position < bytes.count else { throw fail("the LZW data is cut short") }
                    blockLeft = Int(bytes[position])
                    position += 1
                    if blockLeft == 0 { return }
                }
                guard position < bytes.count else { throw fail("the LZW data is cut short") }
                bits |= Int(bytes[position]) << bitCount
                bitCount += 8
                position += 1
                blockLeft -= 1
            }
            let code = bits & ((1 << codeSize) - 1)
            bits >>= codeSize
            bitCount -= codeSize
            if code == clearCode {
                (codeSize, nextCode, previous) = (frame.codeSize + 1, clearCode + 2, -1)
                continue
            }
            if code == endCode { return }
            guard code <= nextCode, previous >= 0 || code < clearCode else { throw fail("code \(code) is not in the table (next \(nextCode))") }
            // The string of `code` (or, for the code about to be made, the previous string and its first byte).
            var length = 0
            var walk = code == nextCode ? previous : code
            if code == nextCode {
                guard previous >= 0 else { throw fail("code \(code) refers to no previous string") }
                stack[0] = first[previous]
                length = 1
            }
            while walk >= 0 {
                guard length < stack.count else { throw fail("a string longer than the table") }
                stack[length] = suffix[walk]
                length += 1
                walk = walk < clearCode ? -1 : Int(prefix[walk])
            }
            guard given + length <= wanted else { throw fail("the LZW data gives more pixels than the frame's \(frame.width)×\(frame.height)") }
            for at in stride(from: length - 1, through: 0, by: -1) where !emit(stack[at]) { return }
            given += length
            if previous >= 0 && nextCode < 4096 {
                prefix[nextCode] = Int16(previous)
                suffix[nextCode] = stack[length - 1]
                first[nextCode] = first[previous]
                nextCode += 1
                if nextCode == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            previous = code
        }
    }
}
