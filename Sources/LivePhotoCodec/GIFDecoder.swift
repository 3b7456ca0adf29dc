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
        let pixels = try lzw(frame)
        draw(frame, pixels)
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

    mutating func draw(_ frame: GIFStructure.Frame, _ pixels: [UInt8]) {
        let palette = frame.localPalette ?? structure.globalPalette ?? (0, 0)
        // Row r of the data is picture row rows[r] (interlaced: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
        var rows: [Int] = []
        rows.reserveCapacity(frame.height)
        if frame.interlaced {
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { rows += stride(from: start, to: frame.height, by: step) }
        } else {
            rows = Array(0..<frame.height)
        }
        for (dataRow, row) in rows.enumerated() {
            let y = frame.top + row
            guard y < structure.height else { continue }
            for column in 0..<frame.width {
                let x = frame.left + column
                let at = dataRow * frame.width + column
                guard x < structure.width, at < pixels.count else { continue }
                let colour = Int(pixels[at])
                guard colour != frame.transparentIndex, colour < palette.count else { continue }
                let source = palette.offset + colour * 3, target = (y * structure.width + x) * 4
                canvas[target] = bytes[source]
                canvas[target + 1] = bytes[source + 1]
                canvas[target + 2] = bytes[source + 2]
                canvas[target + 3] = 255
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
    /// bit first, across the data sub-blocks). A stream that ends before its end code after
    /// giving every pixel is accepted, as browsers do; one that gives more pixels than the
    /// frame holds, or a code not yet in the table, is refused with its offset.
    func lzw(_ frame: GIFStructure.Frame) throws -> [UInt8] {
        let wanted = frame.width * frame.height
        var output: [UInt8] = []
        output.reserveCapacity(wanted)
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
                    if blockLeft == 0 {
                        guard output.count >= wanted else { throw fail("the LZW data ends after \(output.count) of \(wanted) pixels") }
                        return output
                    }
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
            if code == endCode { return output }
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
            guard output.count + length <= wanted else { throw fail("the LZW data gives more pixels than the frame's \(frame.width)×\(frame.height)") }
            for at in stride(from: length - 1, through: 0, by: -1) { output.append(stack[at]) }
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
