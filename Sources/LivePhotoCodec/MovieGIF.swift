internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats

/// A movie as an animated GIF (`lpcheck-codec movie-gif`), written to `output` as it is made:
/// the frames `GIFTimeline` plans, each scaled (Lanczos) to the planned size and turned as the
/// track matrix shows it; one palette of 255 colours for the whole clip (`GIFPalette`, from
/// every planned frame's colours) and the 256th kept transparent; each frame dithered to it,
/// then only the rectangle that changed written, its unchanged pixels transparent. Two passes:
/// the first counts colours, the second maps them; frames are kept between the passes while
/// they fit `keptBytes`, and decoded again otherwise, so memory is one group of pictures.
public enum MovieGIF {
    /// The most scaled frames' bytes kept from the first pass for the second.
    public static let keptBytes = 128 << 20
    /// The widest GIF made.
    public static let maxWidth = 4096
    /// The palette index left transparent.
    static let transparent: UInt8 = 255

    public struct Options: Sendable {
        public var width: Int
        public var rate: Int?
        public var opening = 0
        public var dither = GIFDither.sierraLite
        public var palette = GIFPaletteScope.clip
        public var maxPixels = CodecLimits.maxPixels
        public var maxFrames = GIFStructure.maxFrames
        public var budget = CodecBudget.standard
        public init(width: Int) { self.width = width }

        /// The options a request names (its job's GIF, limits and budget).
        public init(_ gif: CodecRequest.GIFRequest, maxPixels: Int?, maxFrames: Int?, budget: CodecBudget?) {
            (width, rate, opening, dither, palette) = (gif.width, gif.rate, gif.opening, gif.dither, gif.palette)
            self.maxPixels = maxPixels ?? self.maxPixels
            self.maxFrames = maxFrames ?? self.maxFrames
            self.budget = budget ?? self.budget
        }
    }

    /// The pictures decoded for `timeline` of `shown`: every shown frame twice (a pass for the
    /// colours, one to map them: a group's pictures are decoded in order, those between two
    /// planned frames too). The planner holds the budget to the same count.
    public static func decodes(_ timeline: GIFTimeline, shown: ShownFrames) -> Int { max(timeline.entries.count, shown.frames.count) * 2 }

    public static func write(path: String, window: Range<Int64>?, options: Options,
                             progress: (Int, Int) -> Void = { _, _ in }, output: ([UInt8]) throws -> Void) throws {
        let frames = try ShownFrameDecoder(path: path, window: window, maxPixels: options.maxPixels, maxFrames: options.maxFrames, budget: options.budget)
        frames.dropsEarlier = true
        let timeline: GIFTimeline
        do {
            timeline = try GIFTimeline(frames.shown, opening: options.opening, rate: options.rate, maxFrames: options.maxFrames)
        } catch {
            throw ShownFrameDecoder.BadInput(description: "\(path): \(error)")
        }
        guard let entry = frames.track.sampleDescriptions.first, let codedWidth = entry.width, let codedHeight = entry.height else {
            throw ShownFrameDecoder.BadInput(description: "\(path): the video sample entry gives no size")
        }
        guard (1...maxWidth).contains(options.width) else { throw ShownFrameDecoder.BadInput(description: "a GIF \(options.width) pixels wide: 1 to \(maxWidth)") }
        // Shown as the track matrix shows it: one of the eight orientations (1 for any other matrix).
        let orientation = frames.track.matrix.exifOrientation ?? 1
        let size = GIFTimeline.frameSize(codedWidth: Int(codedWidth), codedHeight: Int(codedHeight), clockwise: frames.track.matrix.swapsSides ? 90 : 0, width: options.width)
        guard size.width > 0, size.height <= 0xFFFF, size.width * size.height <= options.maxPixels else {
            throw ShownFrameDecoder.BadInput(description: "\(path): a GIF of \(size.width)×\(size.height) from \(codedWidth)×\(codedHeight) frames")
        }
        do {
            try options.budget.pixels(width: Int(codedWidth), height: Int(codedHeight), frames: decodes(timeline, shown: frames.shown), "\(path) as a GIF")
            try options.budget.output(CodecBudget.gifWorstCase(width: size.width, height: size.height, frames: timeline.entries.count),
                                      "\(path): a GIF of \(timeline.entries.count) frames of \(size.width)×\(size.height)")
        } catch {
            throw ShownFrameDecoder.BadInput(description: error.description)
        }
        let source = FrameSource(frames: frames, size: size, orientation: orientation)
        if options.palette == .frame {
            return try framePalettes(timeline, source: source, size: size, dither: options.dither, progress: progress, output: output)
        }
        let total = timeline.entries.count * 2
        // First pass: the clip's colours.
        var histogram = ColourHistogram()
        var kept: [Int: RGBImage] = [:]
        let keep = timeline.entries.count * size.width * size.height * 3 <= keptBytes
        for (position, planned) in timeline.entries.enumerated() {
            let image = try source.image(planned.frame)
            histogram.add(image)
            if keep { kept[planned.frame] = image }
            progress(position + 1, total)
        }
        let palette = GIFPalette(histogram, size: 255).colours
        var table = palette.flatMap { [$0.r, $0.g, $0.b] }
        table += [UInt8](repeating: 0, count: 768 - table.count)
        try output(try GIFWriter.head(width: size.width, height: size.height, palette: table))
        // Second pass: each frame mapped, and what changed written.
        var nearest = NearestColour(palette)
        var shown: [UInt8] = []
        var indices: [UInt8] = []
        for (position, planned) in timeline.entries.enumerated() {
            let image = try kept.removeValue(forKey: planned.frame) ?? source.image(planned.frame)
            nearest.map(image, dither: options.dither, palette: palette, into: &indices)
            if shown.isEmpty {
                shown = indices
                try output(try GIFWriter.frame(left: 0, top: 0, width: size.width, height: size.height, indices: indices, delay: planned.delay, transparent: nil))
            } else {
                try output(try changed(indices, over: &shown, width: size.width, height: size.height, delay: planned.delay))
            }
            progress(timeline.entries.count + position + 1, total)
        }
        try output(GIFWriter.trailer)
    }

    /// One pass, a palette per frame from its own colours (a local colour table; the first
    /// frame's is the global one): each frame mapped, the rectangle whose shown colours change
    /// written, its unchanged pixels transparent.
    static func framePalettes(_ timeline: GIFTimeline, source: FrameSource, size: (width: Int, height: Int), dither: GIFDither,
                              progress: (Int, Int) -> Void, output: ([UInt8]) throws -> Void) throws {
        var shown: [UInt8] = []
        var indices: [UInt8] = []
        for (position, planned) in timeline.entries.enumerated() {
            let image = try source.image(planned.frame)
            var histogram = ColourHistogram()
            histogram.add(image)
            let palette = GIFPalette(histogram, size: 255).colours
            var table = palette.flatMap { [$0.r, $0.g, $0.b] }
            table += [UInt8](repeating: 0, count: 768 - table.count)
            var nearest = NearestColour(palette)
            nearest.map(image, dither: dither, palette: palette, into: &indices)
            // The colours this frame shows, pixel by pixel.
            var colours = [UInt8](repeating: 0, count: indices.count * 3)
            for (at, index) in indices.enumerated() {
                colours[at * 3] = table[Int(index) * 3]; colours[at * 3 + 1] = table[Int(index) * 3 + 1]; colours[at * 3 + 2] = table[Int(index) * 3 + 2]
            }
            if shown.isEmpty {
                try output(try GIFWriter.head(width: size.width, height: size.height, palette: table))
                try output(try GIFWriter.frame(left: 0, top: 0, width: size.width, height: size.height, indices: indices, delay: planned.delay, transparent: nil))
            } else {
                try output(try changedPart(indices, width: size.width, height: size.height, delay: planned.delay, palette: table) { at in
                    colours[at * 3] == shown[at * 3] && colours[at * 3 + 1] == shown[at * 3 + 1] && colours[at * 3 + 2] == shown[at * 3 + 2]
                })
            }
            shown = colours
            progress(position + 1, timeline.entries.count)
        }
        try output(GIFWriter.trailer)
    }

    /// The rectangle of `indices` that differs from `shown`, its unchanged pixels transparent;
    /// `shown` becomes `indices`.
    static func changed(_ indices: [UInt8], over shown: inout [UInt8], width: Int, height: Int, delay: Int) throws -> [UInt8] {
        let previous = shown
        shown = indices
        return try changedPart(indices, width: width, height: height, delay: delay, palette: nil) { indices[$0] == previous[$0] }
    }

    /// A frame of the rectangle holding every pixel that is not `unchanged` (by its offset in
    /// the screen), those within it that are written transparent; a frame that changes nothing
    /// is one transparent pixel.
    static func changedPart(_ indices: [UInt8], width: Int, height: Int, delay: Int, palette: [UInt8]?, unchanged: (Int) -> Bool) throws -> [UInt8] {
        var (left, top, right, bottom) = (width, height, -1, -1)
        for row in 0..<height {
            let base = row * width
            for column in 0..<width where !unchanged(base + column) {
                left = min(left, column); right = max(right, column)
                top = min(top, row); bottom = max(bottom, row)
            }
        }
        guard right >= 0 else { return try GIFWriter.frame(left: 0, top: 0, width: 1, height: 1, indices: [transparent], delay: delay, transparent: transparent, palette: palette) }
        var part: [UInt8] = []
        part.reserveCapacity((right - left + 1) * (bottom - top + 1))
        for row in top...bottom {
            let base = row * width
            for column in left...right { part.append(unchanged(base + column) ? transparent : indices[base + column]) }
        }
        return try GIFWriter.frame(left: left, top: top, width: right - left + 1, height: bottom - top + 1, indices: part, delay: delay, transparent: transparent, palette: palette)
    }

    /// Shown frames as the GIF's pictures: decoded, scaled to the GIF's size with Lanczos's
    /// filter into RGB, turned as shown.
    final class FrameSource {
        let frames: ShownFrameDecoder
        let size: (width: Int, height: Int)
        /// The Exif orientation (1–8) the frames are shown in.
        let orientation: UInt16
        var scaler: Scaler?
        /// The picture shape `scaler` was made for.
        struct Shape: Equatable { var width: Int, height: Int, format: Int32 }
        var scalerShape: Shape?

        init(frames: ShownFrameDecoder, size: (width: Int, height: Int), orientation: UInt16) {
            (self.frames, self.size, self.orientation) = (frames, size, orientation)
        }

        func image(_ index: Int) throws -> RGBImage {
            let picture = try frames.picture(index)
            let scaledSize = orientation >= 5 ? (width: size.height, height: size.width) : size
            // A stream may change its size or layout mid-way (new parameter sets): a scaler is
            // made for each picture shape met, never used on another (swscale would read past
            // the smaller picture's rows).
            let shape = Shape(width: picture.width, height: picture.height, format: picture.pointer.pointee.format)
            if scaler == nil || shape != scalerShape {
                scaler = nil
                scaler = try Scaler(from: picture, to: AV_PIX_FMT_RGB24, fullRange: true, matrix: Scaler.swsMatrix(picture.pointer.pointee.colorspace),
                                    size: scaledSize, flags: SWS_LANCZOS)
                scalerShape = shape
            }
            guard let scaler else { throw CodecError("sws_getContext", "no scaler") }
            let scaled = try scaler.convert(picture, to: AV_PIX_FMT_RGB24)
            guard let plane = scaled.pointer.pointee.data.0 else { throw CodecError("sws_scale", "no RGB plane") }
            let stride = Int(scaled.pointer.pointee.linesize.0)
            var pixels = [UInt8](repeating: 0, count: scaledSize.width * scaledSize.height * 3)
            pixels.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<scaledSize.height {
                    guard let base = pixels.baseAddress else { return }
                    (base + row * scaledSize.width * 3).update(from: plane + row * stride, count: scaledSize.width * 3)
                }
            }
            return Self.turn(RGBImage(width: scaledSize.width, height: scaledSize.height, pixels: pixels), orientation: orientation)
        }

        /// `image` shown in Exif orientation `orientation`: turned by quarter turns (6, 3, 8),
        /// mirrored (2 left to right, 4 top to bottom), transposed (5) or transversed (7).
        static func turn(_ image: RGBImage, orientation: UInt16) -> RGBImage {
            guard (2...8).contains(orientation) else { return image }
            let (width, height) = (image.width, image.height)
            let (outWidth, outHeight) = orientation >= 5 ? (height, width) : (width, height)
            var out = [UInt8](repeating: 0, count: image.pixels.count)
            for y in 0..<height {
                for x in 0..<width {
                    let (tx, ty): (Int, Int)
                    switch orientation {
                    case 2: (tx, ty) = (width - 1 - x, y)
                    case 3: (tx, ty) = (width - 1 - x, height - 1 - y)
                    case 4: (tx, ty) = (x, height - 1 - y)
                    case 5: (tx, ty) = (y, x)
                    case 6: (tx, ty) = (height - 1 - y, x)
                    case 7: (tx, ty) = (height - 1 - y, width - 1 - x)
                    default: (tx, ty) = (y, width - 1 - x)
                    }
                    let from = (y * width + x) * 3, to = (ty * outWidth + tx) * 3
                    out[to] = image.pixels[from]; out[to + 1] = image.pixels[from + 1]; out[to + 2] = image.pixels[from + 2]
                }
            }
            return RGBImage(width: outWidth, height: outHeight, pixels: out)
        }
    }
}
