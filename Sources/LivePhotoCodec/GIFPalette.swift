import LivePhotoFormats

/// Packed 8-bit RGB, rows top to bottom, no padding.
public struct RGBImage: Sendable {
    public var width: Int, height: Int
    public var pixels: [UInt8]
    public init(width: Int, height: Int, pixels: [UInt8]) { (self.width, self.height, self.pixels) = (width, height, pixels) }
}

/// The colours of a whole clip, counted in cells of 6 bits a channel (262,144 cells); each cell
/// keeps its count and the sums of its colours, so that a palette is made of exact means.
struct ColourHistogram {
    static let cells = 1 << 18
    var counts = [UInt64](repeating: 0, count: cells)
    var sums = [UInt64](repeating: 0, count: cells * 3)

    static func cell(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int { Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2) }

    mutating func add(_ image: RGBImage) {
        counts.withUnsafeMutableBufferPointer { counts in
            sums.withUnsafeMutableBufferPointer { sums in
                image.pixels.withUnsafeBufferPointer { pixels in
                    var at = 0
                    while at + 2 < pixels.count {
                        let (r, g, b) = (pixels[at], pixels[at + 1], pixels[at + 2])
                        let cell = Self.cell(r, g, b)
                        counts[cell] &+= 1
                        sums[cell * 3] &+= UInt64(r)
                        sums[cell * 3 + 1] &+= UInt64(g)
                        sums[cell * 3 + 2] &+= UInt64(b)
                        at += 3
                    }
                }
            }
        }
    }
}

/// A palette for a clip: boxes of the histogram's cells cut where the two halves' squared error
/// is least (median cut's refinement) until there are `size`, then moved to the means of the
/// cells nearest each (k-means, two rounds: six gained at most 0.08 dB more on the camera clips
/// measured, for 0.2 s).
struct GIFPalette {
    /// The colours, at most 256.
    var colours: [(r: UInt8, g: UInt8, b: UInt8)]

    struct Cell { var r: Double, g: Double, b: Double, count: Double }

    init(_ histogram: ColourHistogram, size: Int, rounds: Int = 2) {
        var cells: [Cell] = []
        for index in 0..<ColourHistogram.cells where histogram.counts[index] > 0 {
            let count = Double(histogram.counts[index])
            cells.append(Cell(r: Double(histogram.sums[index * 3]) / count, g: Double(histogram.sums[index * 3 + 1]) / count,
                              b: Double(histogram.sums[index * 3 + 2]) / count, count: count))
        }
        guard !cells.isEmpty else { colours = [(0, 0, 0)]; return }
        var means = Self.medianCut(&cells, size: size)
        for _ in 0..<rounds {
            var nearest = NearestColour(means.map { (UInt8(clamping: Int($0.r.rounded())), UInt8(clamping: Int($0.g.rounded())), UInt8(clamping: Int($0.b.rounded()))) })
            var sums = [Cell](repeating: Cell(r: 0, g: 0, b: 0, count: 0), count: means.count)
            for cell in cells {
                let index = Int(nearest.index(Int(cell.r.rounded()), Int(cell.g.rounded()), Int(cell.b.rounded())))
                sums[index].r += cell.r * cell.count
                sums[index].g += cell.g * cell.count
                sums[index].b += cell.b * cell.count
                sums[index].count += cell.count
            }
            var moved = false
            for index in means.indices where sums[index].count > 0 {
                let mean = Cell(r: sums[index].r / sums[index].count, g: sums[index].g / sums[index].count, b: sums[index].b / sums[index].count, count: sums[index].count)
                if abs(mean.r - means[index].r) + abs(mean.g - means[index].g) + abs(mean.b - means[index].b) > 0.25 { moved = true }
                means[index] = mean
            }
            if !moved { break }
        }
        colours = means.map { (UInt8(clamping: Int($0.r.rounded())), UInt8(clamping: Int($0.g.rounded())), UInt8(clamping: Int($0.b.rounded()))) }
    }

    /// Boxes of cells, the box of most squared error cut in two along its widest axis where
    /// the halves' error is least, until there are `size` boxes or none can be cut; their means.
    static func medianCut(_ cells: inout [Cell], size: Int) -> [Cell] {
        struct Box { var range: Range<Int>; var error: Double; var mean: Cell }
        func measure(_ range: Range<Int>) -> Box {
            var (n, sr, sg, sb, qr, qg, qb) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            for cell in cells[range] {
                n += cell.count
                sr += cell.r * cell.count; sg += cell.g * cell.count; sb += cell.b * cell.count
                qr += cell.r * cell.r * cell.count; qg += cell.g * cell.g * cell.count; qb += cell.b * cell.b * cell.count
            }
            let error = (qr - sr * sr / n) + (qg - sg * sg / n) + (qb - sb * sb / n)
            return Box(range: range, error: range.count > 1 ? max(0, error) : 0, mean: Cell(r: sr / n, g: sg / n, b: sb / n, count: n))
        }
        var boxes = [measure(0..<cells.count)]
        while boxes.count < size {
            guard let worst = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }), boxes[worst].error > 0 else { break }
            let range = boxes[worst].range
            // The widest axis by variance.
            var spread = [0.0, 0.0, 0.0]
            let mean = boxes[worst].mean
            for cell in cells[range] {
                spread[0] += (cell.r - mean.r) * (cell.r - mean.r) * cell.count
                spread[1] += (cell.g - mean.g) * (cell.g - mean.g) * cell.count
                spread[2] += (cell.b - mean.b) * (cell.b - mean.b) * cell.count
            }
            let axis = spread[0] >= spread[1] && spread[0] >= spread[2] ? 0 : spread[1] >= spread[2] ? 1 : 2
            func value(_ cell: Cell) -> Double { axis == 0 ? cell.r : axis == 1 ? cell.g : cell.b }
            cells[range].sort { value($0) < value($1) }
            // The cut with the least error on either side, from running sums.
            var (n, s, q) = (0.0, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
            let total = boxes[worst].mean
            let (totalS, totalQ): ([Double], [Double]) = {
                var q = [0.0, 0.0, 0.0]
                for cell in cells[range] { q[0] += cell.r * cell.r * cell.count; q[1] += cell.g * cell.g * cell.count; q[2] += cell.b * cell.b * cell.count }
                return ([total.r * total.count, total.g * total.count, total.b * total.count], q)
            }()
            var best = (at: range.lowerBound + 1, error: Double.infinity)
            for at in range.dropLast() {
                let cell = cells[at]
                n += cell.count
                s[0] += cell.r * cell.count; s[1] += cell.g * cell.count; s[2] += cell.b * cell.count
                q[0] += cell.r * cell.r * cell.count; q[1] += cell.g * cell.g * cell.count; q[2] += cell.b * cell.b * cell.count
                let m = total.count - n
                guard m > 0 else { break }
                var error = 0.0
                for c in 0..<3 { error += (q[c] - s[c] * s[c] / n) + (totalQ[c] - q[c] - (totalS[c] - s[c]) * (totalS[c] - s[c]) / m) }
                if error < best.error { best = (at + 1, error) }
            }
            boxes[worst] = measure(range.lowerBound..<best.at)
            boxes.append(measure(best.at..<range.upperBound))
        }
        return boxes.map(\.mean)
    }
}

/// The palette entry nearest a colour (squared RGB distance, as PSNR counts), exactly. Colours
/// fall in cells of 4 × 4 × 4 values; each cell's candidates are worked out the first time a
/// colour of it is asked for: the entries whose distance to the cell is at most the least
/// distance any entry has to the cell's far side (no other entry can be nearest to a colour of
/// the cell), kept in order of their distance to the cell, so that a search stops at the first
/// candidate that cannot beat the best found.
struct NearestColour {
    let r: [Int32], g: [Int32], b: [Int32]
    /// Per cell: where its candidates start in `candidates`, -1 until worked out; and how many.
    var start: [Int32]
    var count: [UInt16]
    var candidates: [UInt8] = []
    /// Each candidate's squared distance to its cell.
    var bounds: [Int32] = []
    /// Scratch for `fill`: every entry's distance to the cell.
    var scratch: [Int32]

    init(_ colours: [(r: UInt8, g: UInt8, b: UInt8)]) {
        r = colours.map { Int32($0.r) }
        g = colours.map { Int32($0.g) }
        b = colours.map { Int32($0.b) }
        start = [Int32](repeating: -1, count: 1 << 18)
        count = [UInt16](repeating: 0, count: 1 << 18)
        scratch = [Int32](repeating: 0, count: colours.count)
    }

    /// The index nearest r, g, b (each 0–255); of equals, the one nearest the cell, then the lowest.
    mutating func index(_ red: Int, _ green: Int, _ blue: Int) -> UInt8 {
        let cell = (red >> 2) << 12 | (green >> 2) << 6 | blue >> 2
        if start[cell] < 0 { fill(cell) }
        let first = Int(start[cell]), number = Int(count[cell])
        let (red, green, blue) = (Int32(red), Int32(green), Int32(blue))
        return candidates.withUnsafeBufferPointer { candidates in
            bounds.withUnsafeBufferPointer { bounds in
                r.withUnsafeBufferPointer { r in
                    g.withUnsafeBufferPointer { g in
                        b.withUnsafeBufferPointer { b in
                            var best = Int32.max, found: UInt8 = 0
                            for position in first..<(first + number) {
                                if bounds[position] >= best { break }
                                let entry = Int(candidates[position])
                                let dr = r[entry] - red, dg = g[entry] - green, db = b[entry] - blue
                                let distance = dr * dr + dg * dg + db * db
                                if distance < best { (best, found) = (distance, candidates[position]) }
                            }
                            return found
                        }
                    }
                }
            }
        }
    }

    mutating func fill(_ cell: Int) {
        let (lowRed, lowGreen, lowBlue) = (Int32(cell >> 12 & 63) << 2, Int32(cell >> 6 & 63) << 2, Int32(cell & 63) << 2)
        // Per channel: the squared distance to the cell (0 inside it) and to its far side.
        @inline(__always) func near(_ value: Int32, _ low: Int32) -> Int32 {
            let d = value < low ? low - value : value > low + 3 ? value - low - 3 : 0
            return d * d
        }
        @inline(__always) func far(_ value: Int32, _ low: Int32) -> Int32 {
            let d = max(abs(value - low), abs(value - low - 3))
            return d * d
        }
        var bound = Int32.max
        for entry in r.indices {
            scratch[entry] = near(r[entry], lowRed) + near(g[entry], lowGreen) + near(b[entry], lowBlue)
            bound = min(bound, far(r[entry], lowRed) + far(g[entry], lowGreen) + far(b[entry], lowBlue))
        }
        let first = candidates.count
        start[cell] = Int32(first)
        for entry in r.indices where scratch[entry] <= bound {
            // Insertion by distance to the cell.
            var at = candidates.count
            candidates.append(UInt8(entry))
            bounds.append(scratch[entry])
            while at > first, bounds[at - 1] > bounds[at] {
                candidates.swapAt(at - 1, at)
                bounds.swapAt(at - 1, at)
                at -= 1
            }
        }
        count[cell] = UInt16(candidates.count - first)
    }
}

extension NearestColour {
    /// `image` in palette indices, dithered; `indices` is filled (width × height).
    mutating func map(_ image: RGBImage, dither: GIFDither, palette: [(r: UInt8, g: UInt8, b: UInt8)], into indices: inout [UInt8]) {
        let (width, height) = (image.width, image.height)
        if indices.count != width * height { indices = [UInt8](repeating: 0, count: width * height) }
        if dither == .none {
            image.pixels.withUnsafeBufferPointer { pixels in
                for at in 0..<(width * height) {
                    indices[at] = index(Int(pixels[at * 3]), Int(pixels[at * 3 + 1]), Int(pixels[at * 3 + 2]))
                }
            }
            return
        }
        // Errors in sixteenths, for this row and the next, one pixel of margin each side.
        let stride = (width + 2) * 3
        var rows = [Int32](repeating: 0, count: stride * 2)
        let serpentine = dither == .floydSteinberg
        let weights: (ahead: Int32, behindBelow: Int32, below: Int32, aheadBelow: Int32) = serpentine ? (7, 3, 5, 1) : (8, 4, 4, 0)
        image.pixels.withUnsafeBufferPointer { pixels in
            rows.withUnsafeMutableBufferPointer { rows in
                for row in 0..<height {
                    let (current, next) = row % 2 == 0 ? (0, stride) : (stride, 0)
                    for i in 0..<stride { rows[next + i] = 0 }
                    let backwards = serpentine && row % 2 == 1
                    let ahead = backwards ? -3 : 3
                    for step in 0..<width {
                        let column = backwards ? width - 1 - step : step
                        let at = row * width + column
                        let slot = (column + 1) * 3
                        let red = max(0, min(255, Int(pixels[at * 3]) + Int((rows[current + slot] + 8) >> 4)))
                        let green = max(0, min(255, Int(pixels[at * 3 + 1]) + Int((rows[current + slot + 1] + 8) >> 4)))
                        let blue = max(0, min(255, Int(pixels[at * 3 + 2]) + Int((rows[current + slot + 2] + 8) >> 4)))
                        let chosen = index(red, green, blue)
                        indices[at] = chosen
                        let colour = palette[Int(chosen)]
                        let errors = (Int32(red - Int(colour.r)), Int32(green - Int(colour.g)), Int32(blue - Int(colour.b)))
                        for c in 0..<3 {
                            let error = c == 0 ? errors.0 : c == 1 ? errors.1 : errors.2
                            rows[current + slot + ahead + c] += error * weights.ahead
                            rows[next + slot - ahead + c] += error * weights.behindBelow
                            rows[next + slot + c] += error * weights.below
                            rows[next + slot + ahead + c] += error * weights.aheadBelow
                        }
                    }
                }
            }
        }
    }
}
