import Foundation
import LivePhotoTestSupport
import Testing

extension MakeClipTests {
    /// test.mov (an iPhone's, coded 1440×1080) with its video track's matrix set to `matrix`
    /// (a, b, c, d as -1, 0, 1); `tkhd`'s size stays the track's own, before the matrix.
    func turned(_ matrix: [Int32], into folder: URL) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: try sample("henteko__livephotoskit-react/test.mov")))
        let walk = BoxWalk(bytes: bytes)
        let moov = try #require(walk.children(0..<bytes.count).first { $0.type == "moov" }).body
        var patched = 0
        for trak in walk.children(moov) where trak.type == "trak" {
            let handler = try #require(walk.children(trak.body).first { $0.type == "mdia" }.flatMap { mdia in walk.children(mdia.body).first { $0.type == "hdlr" } })
            guard String(decoding: bytes[(handler.body.lowerBound + 8)..<(handler.body.lowerBound + 12)], as: UTF8.self) == "vide" else { continue }
            let tkhd = try #require(walk.children(trak.body).first { $0.type == "tkhd" }).body
            let version = bytes[tkhd.lowerBound]
            let at = tkhd.lowerBound + (version == 1 ? 52 : 40)
            func put(_ value: Int32, _ offset: Int) {
                let word = UInt32(bitPattern: value)
                for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32(index))) }
            }
            // a, b, u, c, d, v, x, y, w: the four set, translations cleared.
            for (slot, value) in [(0, matrix[0]), (1, matrix[1]), (3, matrix[2]), (4, matrix[3]), (6, 0), (7, 0)] { put(value << 16, at + slot * 4) }
            patched += 1
        }
        #expect(patched == 1)
        let url = folder.appendingPathComponent("turned.mov")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("each of the eight track matrices the formats allow (four turns, mirrored or not) gives a still shown as ffmpeg shows the movie: HEIF irot and imir (libheif), Exif Orientation 1–8 (Pillow's exif_transpose over the JPEG's pixels); PSNR against ffmpeg's displayed frame at the moment",
          arguments: [([1, 0, 0, 1], 1), ([-1, 0, 0, 1], 2), ([-1, 0, 0, -1], 3), ([1, 0, 0, -1], 4), ([0, 1, 1, 0], 5), ([0, 1, -1, 0], 6), ([0, -1, -1, 0], 7), ([0, -1, 1, 0], 8)] as [([Int32], Int)])
    func eightOrientations(_ matrix: [Int32], _ orientation: Int) throws {
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let movie = try turned(matrix, into: work)
        let frame = work.appendingPathComponent("frame.rgb")
        try ffmpegFrame(movie, at: "0.5", to: frame)
        // The mirrored ones with a JPEG too; the turns alone are held by `rotation`.
        for format in [2, 4, 5, 7].contains(orientation) ? ["heic", "jpeg"] : ["heic"] {
            let out = work.appendingPathComponent(format)
            let made = try lpcheck(["make", movie.path, "-o", out.path, "--still", format, "--time", "0.5", "--no-progress"])
            #expect(made.status == 0 && !made.text.contains("which no Exif or HEIF orientation says"), "\(made.text)\(made.stderr)")
            let still = out.appendingPathComponent(try #require(contents(out).first { !$0.hasSuffix(".MOV") }))
            if format == "jpeg" {
                let tag = try exif("Orientation#", still)
                #expect(tag == String(orientation), "Orientation \(tag) for \(orientation)")
            }
            let decoded = work.appendingPathComponent("still-\(format).rgb")
            let (width, height) = try decodedStill(still, to: decoded, transposed: format == "jpeg")
            #expect((width, height) == (matrix[0] == 0 ? (1080, 1440) : (1440, 1080)), "\(orientation) \(format): shown \(width)×\(height)")
            let quality = try psnr(decoded, frame, width: width, height: height)
            #expect(quality >= 35, "Exif \(orientation), \(format): PSNR \(quality) dB against ffmpeg's displayed frame")
        }
    }
}

extension MakeClipTests {
    @Test("export --as gif of each of the eight matrices: the GIF has the shape the movie is shown in, and its first frame is ffmpeg's displayed first frame scaled to the GIF's size (Lanczos) at ≥ 25 dB (Pillow decodes the GIF)",
          arguments: [([1, 0, 0, 1], 1), ([-1, 0, 0, 1], 2), ([-1, 0, 0, -1], 3), ([1, 0, 0, -1], 4), ([0, 1, 1, 0], 5), ([0, 1, -1, 0], 6), ([0, -1, -1, 0], 7), ([0, -1, 1, 0], 8)] as [([Int32], Int)])
    func eightOrientationsAsGIF(_ matrix: [Int32], _ orientation: Int) throws {
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let work = try scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let movie = try turned(matrix, into: work)
        let out = work.appendingPathComponent("gif")
        let export = try lpcheck(["export", movie.path, "--as", "gif", "--width", "144", "--fps", "2", "-o", out.path, "--no-progress"])
        #expect(export.status == 0, "\(export.text)\(export.stderr)")
        let gif = out.appendingPathComponent("turned.gif")
        let (width, height) = matrix[0] == 0 ? (144, 192) : (144, 108)
        let frame = work.appendingPathComponent("first.rgb"), ours = work.appendingPathComponent("gif.rgb")
        let ffmpeg = try ProcessResult.run(try tool("ffmpeg"), ["-v", "error", "-i", movie.path, "-vf", "scale=\(width):\(height):flags=lanczos", "-frames:v", "1",
                                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", frame.path])
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let decoded = try ProcessResult.run(try tool("python3"), ["-c", """
        import sys
        from PIL import Image
        image = Image.open(sys.argv[1]); image.seek(0)
        image = image.convert('RGB')
        open(sys.argv[2], 'wb').write(image.tobytes())
        print(image.size[0], image.size[1])
        """, gif.path, ours.path])
        #expect(decoded.text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(width) \(height)", "Exif \(orientation): the GIF is \(decoded.text)\(decoded.stderr)")
        let quality = try psnr(ours, frame, width: width, height: height)
        #expect(quality >= 25, "Exif \(orientation): the GIF's first frame at \(quality) dB against ffmpeg's displayed frame")
    }
}
