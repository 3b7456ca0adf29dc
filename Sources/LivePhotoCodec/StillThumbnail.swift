internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats

/// A still's thumbnail for an HTML report's card (`thumbnail` job, `check --thumbnails`): a HEIF's
/// thumbnail item where it has one (else its primary image), a JPEG's or PNG's picture (a JPEG
/// whose scan FFmpeg refuses: its Exif thumbnail), scaled
/// down by area averaging to `side` pixels on its longer side at most (never up), turned as the
/// file says it is shown, and encoded as a JPEG.
public enum StillThumbnail {
    public static func jpeg(path: String, side: Int, maxPixels: Int) throws -> [UInt8] {
        // A picture FFmpeg's decoders refuse is the input's fault (exit 2), as a layout lpcheck refuses is.
        let (frame, orientation): (Frame, [UInt16])
        do { (frame, orientation) = try shown(path, side: side, maxPixels: maxPixels) } catch let error as CodecError { throw ShownFrameDecoder.BadInput(description: "\(path): \(error)") }
        let longer = max(frame.width, frame.height)
        guard longer > 0 else { throw ShownFrameDecoder.BadInput(description: "\(path): the still decodes to no picture") }
        let scale = min(1, Double(side) / Double(longer))
        let size = (width: max(1, Int((Double(frame.width) * scale).rounded())), height: max(1, Int((Double(frame.height) * scale).rounded())))
        let scaler = try Scaler(from: frame, to: AV_PIX_FMT_RGB24, fullRange: true, matrix: Scaler.swsMatrix(frame.pointer.pointee.colorspace),
                                size: size, flags: SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        // The scaled picture's rows packed (a conversion of RGB to itself at 160 pixels).
        let packed = try StillComparison.rgb(try scaler.convert(frame, to: AV_PIX_FMT_RGB24))
        var image = RGBImage(width: packed.width, height: packed.height, pixels: packed.pixels)
        for turn in orientation { image = MovieGIF.FrameSource.turn(image, orientation: turn) }
        return try StillEncoder.jpeg(try Frame.rgb(image), quality: 3)
    }

    /// The picture a card shows, decoded, with the Exif orientations (1–8) that show it, in
    /// order: a JPEG's or PNG's Exif Orientation, a HEIF item's `irot`/`imir`; a GIF's first
    /// frame over white.
    static func shown(_ path: String, side: Int, maxPixels: Int) throws -> (frame: Frame, orientation: [UInt16]) {
        let file = try FileSource(path: path)
        guard file.size <= 256 << 20 else { throw ShownFrameDecoder.BadInput(description: "\(path): a still of \(file.size) bytes, more than the 256 MiB read for a picture") }
        let head = try file.read(at: 0, count: Int(min(4, file.size)))
        let isJPEG = head.starts(with: [0xFF, 0xD8]), isPNG = head.starts(with: [0x89, 0x50, 0x4E, 0x47])
        var orientation: [UInt16] = []
        let frame: Frame
        if isJPEG || isPNG {
            var options = InspectOptions.full
            options.thumbnail = true
            let still = MediaFile.inspect(path: path, options: options).still
            if let turn = still?.tiff?.capture.orientation { orientation = [turn] }
            do {
                // A JPEG decodes at 1/2, 1/4 or 1/8 of its size where that still gives `side` pixels.
                let longer = still?.jpeg?.frameSize.map { max($0.width, $0.height) } ?? 0
                let lowres = isJPEG ? (0...3).last { longer >> $0 >= side } ?? 0 : 0
                frame = try StillComparison.decodePicture(isJPEG ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG, configuration: nil, data: try file.read(at: 0, count: Int(file.size)), lowres: lowres)
            } catch let error as CodecError {
                // A scan cut short FFmpeg refuses; the Exif thumbnail, where there is one, still shows the picture.
                guard let thumbnail = still?.thumbnail, let small = try? StillComparison.decodePicture(AV_CODEC_ID_MJPEG, configuration: nil, data: thumbnail) else { throw error }
                frame = small
            }
        } else if head.starts(with: Array("GIF8".utf8)) {
            let bytes = try file.read(at: 0, count: Int(file.size))
            let structure: GIFStructure
            do { structure = try GIFStructure(bytes, path: path) } catch { throw ShownFrameDecoder.BadInput(description: "\(path): \(error)") }
            guard structure.width > 0, structure.height > 0, structure.width * structure.height <= maxPixels, !structure.frames.isEmpty else {
                throw ShownFrameDecoder.BadInput(description: "\(path): a GIF of \(structure.width)×\(structure.height) with \(Plural.count(structure.frames.count, "frame")): none shown")
            }
            var decoder = GIFDecoder(bytes: bytes, structure: structure, path: path, background: (255, 255, 255))
            guard let canvas = try decoder.next() else { throw ShownFrameDecoder.BadInput(description: "\(path): the GIF's first frame does not decode") }
            frame = try Frame.rgb(RGBImage(width: structure.width, height: structure.height, pixels: canvas))
        } else {
            let picture: HEIFPicture
            do { picture = try HEIFPicture.shown(in: file) } catch { throw ShownFrameDecoder.BadInput(description: "\(path): \(error)") }
            switch picture {
            case .coded(let image):
                frame = try StillComparison.decodePicture(codec(image), configuration: image.configuration, data: image.data)
                orientation = image.transforms.map(Self.orientation(of:))
            case .grid(let grid):
                frame = try assemble(grid, path: path, maxPixels: maxPixels)
                orientation = grid.transforms.map(Self.orientation(of:))
            }
        }
        guard frame.width * frame.height <= maxPixels else { throw ShownFrameDecoder.BadInput(description: "\(path): a \(frame.width)×\(frame.height) still, more than \(maxPixels) pixels") }
        return (frame, orientation)
    }

    static func codec(_ image: HEIFCodedImage) -> AVCodecID { image.type == "av01" ? AV_CODEC_ID_AV1 : AV_CODEC_ID_HEVC }

    /// The Exif orientation that shows a picture as one HEIF transform does: `irot`'s
    /// anticlockwise quarter turns (1: 8, 2: 3, 3: 6), `imir` about a vertical axis (2) or a
    /// horizontal one (4).
    static func orientation(of transform: ImageProperties.Transform) -> UInt16 {
        switch transform {
        case .rotation(let turns): return [1, 8, 3, 6][((turns % 4) + 4) % 4]
        case .mirror(let axis): return axis == 0 ? 2 : 4
        }
    }

    /// A grid's tiles decoded into one frame of their pixel format, cropped to the grid's size;
    /// the grid's size is held to `maxPixels` before a tile is decoded.
    static func assemble(_ grid: HEIFGridImage, path: String, maxPixels: Int) throws -> Frame {
        let (area, overflow) = grid.width.multipliedReportingOverflow(by: grid.height)
        guard !overflow, area <= maxPixels else { throw ShownFrameDecoder.BadInput(description: "\(path): a \(grid.width)×\(grid.height) grid, more than \(maxPixels) pixels") }
        var canvas: Frame?
        for (index, tile) in grid.tiles.enumerated() {
            let frame = try StillComparison.decodePicture(codec(tile), configuration: tile.configuration, data: tile.data)
            let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
            if canvas == nil {
                let (width, height) = (frame.width * grid.columns, frame.height * grid.rows)
                guard width >= grid.width, height >= grid.height, width * height <= 2 * maxPixels else {
                    throw ShownFrameDecoder.BadInput(description: "\(path): \(grid.rows)×\(grid.columns) tiles of \(frame.width)×\(frame.height) for a \(grid.width)×\(grid.height) grid")
                }
                let made = try Frame()
                let p = made.pointer
                (p.pointee.format, p.pointee.width, p.pointee.height) = (frame.pointer.pointee.format, Int32(width), Int32(height))
                (p.pointee.colorspace, p.pointee.color_range) = (frame.pointer.pointee.colorspace, frame.pointer.pointee.color_range)
                try CodecError.check(av_frame_get_buffer(p, 0), "av_frame_get_buffer")
                canvas = made
            }
            guard let canvas, let descriptor = av_pix_fmt_desc_get(format), frame.pointer.pointee.format == canvas.pointer.pointee.format,
                  frame.width * grid.columns == canvas.width, frame.height * grid.rows == canvas.height else {
                throw ShownFrameDecoder.BadInput(description: "\(path): the grid's tile \(index + 1) differs from the first in size or pixel format")
            }
            let (row, column) = (index / grid.columns, index % grid.columns)
            for plane in 0..<Int(av_pix_fmt_count_planes(format)) {
                let chroma = plane == 1 || plane == 2
                let rows = chroma ? -((-frame.height) >> Int(descriptor.pointee.log2_chroma_h)) : frame.height
                let top = chroma ? (row * frame.height) >> Int(descriptor.pointee.log2_chroma_h) : row * frame.height
                let bytes = Int(av_image_get_linesize(format, Int32(frame.width), Int32(plane)))
                let left = column == 0 ? 0 : Int(av_image_get_linesize(format, Int32(column * frame.width), Int32(plane)))
                guard bytes > 0, left >= 0 else { throw CodecError("av_image_get_linesize", "no row size for plane \(plane)") }
                try withPlanes(frame, canvas, plane) { source, sourceStride, target, targetStride in
                    for line in 0..<rows { (target + (top + line) * targetStride + left).update(from: source + line * sourceStride, count: bytes) }
                }
            }
        }
        guard let canvas else { throw ShownFrameDecoder.BadInput(description: "\(path): a grid of no tile") }
        (canvas.pointer.pointee.width, canvas.pointer.pointee.height) = (Int32(grid.width), Int32(grid.height))
        return canvas
    }

    /// Plane `plane` of two frames with their strides.
    static func withPlanes(_ source: Frame, _ target: Frame, _ plane: Int,
                           _ body: (UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<UInt8>, Int) -> Void) throws {
        func pointer(_ frame: Frame) -> (UnsafeMutablePointer<UInt8>?, Int) {
            let p = frame.pointer.pointee
            switch plane {
            case 0: return (p.data.0, Int(p.linesize.0))
            case 1: return (p.data.1, Int(p.linesize.1))
            case 2: return (p.data.2, Int(p.linesize.2))
            default: return (p.data.3, Int(p.linesize.3))
            }
        }
        let (from, fromStride) = pointer(source), (to, toStride) = pointer(target)
        guard let from, let to, fromStride > 0, toStride > 0 else { throw CodecError("copying a tile", "plane \(plane) is missing") }
        body(from, fromStride, to, toStride)
    }
}

extension Frame {
    /// An RGB24 frame holding `image`'s pixels, in a buffer one column and one row larger that
    /// repeat its last ones: a conversion to 4:2:0 of an odd side reads the pixel past it, which
    /// was whatever the memory held (a 1×1 GIF's thumbnail differed from run to run).
    static func rgb(_ image: RGBImage) throws -> Frame {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 3 else {
            throw CodecError("making a frame", "\(image.pixels.count) bytes for a \(image.width)×\(image.height) picture")
        }
        let frame = try Frame()
        let p = frame.pointer
        p.pointee.format = AV_PIX_FMT_RGB24.rawValue
        (p.pointee.width, p.pointee.height) = (Int32(image.width + 1), Int32(image.height + 1))
        p.pointee.color_range = AVCOL_RANGE_JPEG
        try CodecError.check(av_frame_get_buffer(p, 0), "av_frame_get_buffer")
        guard let plane = p.pointee.data.0 else { throw CodecError("av_frame_get_buffer", "no RGB plane") }
        let stride = Int(p.pointee.linesize.0)
        let rowBytes = image.width * 3
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for row in 0...image.height {
                let target = plane + row * stride
                target.update(from: base + min(row, image.height - 1) * rowBytes, count: rowBytes)
                (target + rowBytes).update(from: target + rowBytes - 3, count: 3)
            }
        }
        (p.pointee.width, p.pointee.height) = (Int32(image.width), Int32(image.height))
        return frame
    }
}
