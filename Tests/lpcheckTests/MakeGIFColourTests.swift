import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck make GIF` at an even scale: each block of the movie's 4:2:0 pictures holds the luma
/// and chroma FFmpeg's own BT.709 limited-range conversion gives the GIF's colour, and the frame
/// before the still's is a sync sample (ffprobe's packet flags).
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct MakeGIFColourTests {
    /// Eight colours in 8×8 blocks (a 32×16 screen), three frames of 10 cs, the blocks moved by
    /// one place each frame; prints, for each frame, each block's colour.
    static let maker = """
    import sys
    from PIL import Image
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (200, 120, 40), (30, 180, 220), (128, 128, 128)]
    frames = []
    for shift in range(3):
        frame = Image.new('RGB', (32, 16))
        for block in range(8):
            colour = colours[(block + shift) % 8]
            x, y = (block % 4) * 8, (block // 4) * 8
            frame.paste(colour, (x, y, x + 8, y + 8))
        frames.append(frame.quantize(colors=8, method=Image.Quantize.MAXCOVERAGE))
    frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=100, loop=0)
    for shift in range(3):
        print(' '.join('%d,%d,%d' % colours[(block + shift) % 8] for block in range(8)))
    """

    @Test("each 16×16 block of the movie made at --scale 2 decodes (ffmpeg, yuv420p as stored) to FFmpeg's BT.709 limited conversion of its GIF colour within 2 levels in Y, Cb and Cr; the frame before the still's is a sync sample")
    func evenScaleColours() throws {
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let ffmpeg = try #require(Locations.tool("ffmpeg")), ffprobe = try #require(Locations.tool("ffprobe"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-gif-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let gif = out.appendingPathComponent("blocks.gif")
        let made = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.maker, gif.path])
        #expect(made.status == 0, "\(made.stderr)")
        let colours = made.text.split(separator: "\n").map { line in
            line.split(separator: " ").map { $0.split(separator: ",").compactMap { Int($0) } }
        }
        try #require(colours.count == 3 && colours.allSatisfy { $0.count == 8 })
        let result = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["make", gif.path, "-o", out.path, "--scale", "2", "--no-progress"], timeout: 300)
        #expect(result.status == 0, "\(result.text)\(result.stderr)")
        let movie = out.appendingPathComponent("blocks.MOV")
        // The movie's pictures as stored: 64×32, Y then Cb then Cr (32×16 each).
        let raw = try ProcessResult.run(ffmpeg, ["-v", "error", "-i", movie.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let pictureBytes = 64 * 32 * 3 / 2
        try #require(raw.stdout.count == 3 * pictureBytes, "\(raw.stdout.count) bytes decoded")
        // FFmpeg's conversion of each colour: a 2×2 picture of it to BT.709 limited 4:2:0.
        func expected(_ rgb: [Int]) throws -> [Int] {
            let pixel = Data((0..<4).flatMap { _ in rgb.map { UInt8($0) } })
            let input = out.appendingPathComponent("colour.rgb")
            try pixel.write(to: input)
            let converted = try ProcessResult.run(ffmpeg, ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "2x2", "-i", input.path,
                                                          "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
            let bytes = [UInt8](converted.stdout)
            guard bytes.count == 6 else { return [] }
            return [Int(bytes[0]), Int(bytes[4]), Int(bytes[5])]
        }
        let bytes = [UInt8](raw.stdout)
        for (frame, blocks) in colours.enumerated() {
            for (block, colour) in blocks.enumerated() {
                let want = try expected(colour)
                try #require(want.count == 3)
                // The middle of the block, away from the edges where 4:2:0 coding mixes colours.
                let (x, y) = ((block % 4) * 16 + 8, (block / 4) * 16 + 8)
                let base = frame * pictureBytes
                let got = [Int(bytes[base + y * 64 + x]), Int(bytes[base + 64 * 32 + (y / 2) * 32 + x / 2]), Int(bytes[base + 64 * 32 + 32 * 16 + (y / 2) * 32 + x / 2])]
                #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 2 }, "frame \(frame + 1), block \(block + 1) (\(colour)): Y Cb Cr \(got), FFmpeg converts it to \(want)")
            }
        }
        // The still is the middle frame (the second); the first is a sync sample anyway, so a
        // longer GIF shows the sync sample placed: five frames, the still the third.
        let probe = try ProcessResult.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0", movie.path])
        #expect(probe.text.split(separator: "\n").first?.hasPrefix("K") == true, "\(probe.text)")
        let five = out.appendingPathComponent("five.gif")
        let fiveMade = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", """
        import sys
        from PIL import Image
        frames = []
        for index in range(5):
            frame = Image.new('P', (32, 16), 0)
            frame.putpalette([230, 230, 230, 20, 60, 200] + [0] * 762)
            frame.paste(1, (index * 4, 4, index * 4 + 4, 8))
            frames.append(frame)
        frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=100, loop=0)
        """, five.path])
        #expect(fiveMade.status == 0, "\(fiveMade.stderr)")
        let fiveResult = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["make", five.path, "-o", out.path, "--scale", "2", "--no-progress"], timeout: 300)
        #expect(fiveResult.status == 0, "\(fiveResult.text)\(fiveResult.stderr)")
        #expect(fiveResult.text.contains("frame 3 of the GIF"), "\(fiveResult.text)")
        let flags = try ProcessResult.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0",
                                                   out.appendingPathComponent("five.MOV").path]).text.split(separator: "\n").map { $0.hasPrefix("K") }
        #expect(flags == [true, true, false, false, false], "sync samples by ffprobe: \(flags) (the frame before the still's, the second, a sync sample)")
    }
}
