import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The codec helper's `thumbnail` job (an HTML card's picture, `check --thumbnails`) held to
/// Pillow with pillow-heif (libheif) and Pillow's AVIF and GIF readers as the oracle: on every
/// still of the shared samples the oracle reads, the helper's picture has the oracle's size
/// (so the same turn) and the oracle's pixels (so the same tiles in the same places).
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct StillThumbnailTests {
    static let stillExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "hif", "avif", "png", "gif"]

    /// Stills whose pixels readers legitimately disagree on, each with why; for these only
    /// "no crash" is asked.
    static let readersDisagree: [String: String] = [
        // The JPEG's scan is cut short by its publisher: libjpeg (Pillow) paints the missing
        // rows grey, FFmpeg green (zero chroma) or refuses the scan.
        "androidx__media/non-motion-photo-shortened.jpg": "cut scan",
        "androidx__media/ss-motion-photo-shortened.jpg": "cut scan",
        "androidx__media/pixel-motion-photo-shortened.jpg": "cut scan",
        "androidx__media/pixel-motion-photo-video-removed-shortened.jpg": "cut scan",
        "androidx__media/pixel-motion-photo-without-exif-shortened.jpg": "cut scan",
        // A 4×1 GIF whose first frame covers half the canvas: Pillow paints the rest in palette
        // entry 0, browsers leave it transparent, lpcheck white.
        "gifs/google__wuffs__test_data_artificial-gif_background-color.gif": "uncovered canvas",
    ]

    /// The oracle: each still as shown (Exif orientation applied by Pillow, irot/imir by
    /// libheif), over white, shrunk by box averaging into 160×160; its size and the luma PSNR
    /// of the helper's picture against it.
    static let oracle = """
    import sys, os, math
    from concurrent.futures import ThreadPoolExecutor
    from PIL import Image, ImageOps
    import pillow_heif
    pillow_heif.register_heif_opener()
    def judge(line):
        path, ours = line.split('\\t')
        try:
            im = Image.open(path); im.seek(0)
            im = ImageOps.exif_transpose(im).convert('RGBA')
            im = Image.alpha_composite(Image.new('RGBA', im.size, (255, 255, 255, 255)), im).convert('RGB')
            im.thumbnail((160, 160), Image.BOX)
        except Exception as e:
            return f"{path}\\tunread\\t{type(e).__name__}"
        if os.path.getsize(ours) == 0:
            return f"{path}\\tnone\\t{im.size[0]}x{im.size[1]}"
        o = Image.open(ours)
        if o.format != 'JPEG' or abs(o.size[0] - im.size[0]) > 1 or abs(o.size[1] - im.size[1]) > 1:
            return f"{path}\\tsize\\t{o.format} {o.size[0]}x{o.size[1]}, oracle {im.size[0]}x{im.size[1]}"
        w, h = min(o.size[0], im.size[0]), min(o.size[1], im.size[1])
        a = o.convert('RGB').crop((0, 0, w, h)).convert('L').tobytes(); b = im.crop((0, 0, w, h)).convert('L').tobytes()
        mse = sum((x - y) ** 2 for x, y in zip(a, b)) / (w * h)
        return f"{path}\\tpsnr\\t{100 if mse == 0 else 10 * math.log10(255 * 255 / mse):.1f}"
    # Threads, not processes: Pillow and libheif decode outside the GIL, and a killed run leaves
    # no worker holding the answer's pipe open.
    with ThreadPoolExecutor() as pool:
        print('\\n'.join(pool.map(judge, open(sys.argv[1]).read().splitlines())))
    """

    @Test("every still of the shared samples the oracle reads gets a JPEG of the oracle's size and pixels (≥ 24 dB): HEIC thumbnail items, grids of tiles, AVIF, JPEG and PNG turned as shown, a GIF's first frame; the rest end with a message, never a signal")
    func matchesOracle() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("PIL", "pillow_heif"), "Pillow and pillow-heif (PyPI)")
        let root = try #require(Locations.sharedSamples)
        let helper = try #require(Locations.lpcheckBinary).deletingLastPathComponent().appendingPathComponent("lpcheck-codec").path
        let stills = SharedSamples.mediaFiles().filter { Self.stillExtensions.contains($0.pathExtension.lowercased()) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-thumbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = stills.indices.map { folder.appendingPathComponent("\($0).jpg") }
        let statuses = Locked<[Int: Int32]>([:])
        DispatchQueue.concurrentPerform(iterations: stills.count) { index in
            guard let run = try? ProcessResult.run(helper, ["thumbnail", stills[index].path, "160"], timeout: 60) else { return }
            try? run.stdout.write(to: outputs[index])
            statuses.withLock { $0[index] = run.status }
        }
        let list = folder.appendingPathComponent("stills.tsv")
        try Data((stills.indices.map { "\(stills[$0].path)\t\(outputs[$0].path)" }.joined(separator: "\n") + "\n").utf8).write(to: list)
        let answer = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle, list.path], timeout: 300)
        #expect(answer.status == 0, "\(answer.stderr.suffix(500))")
        var compared = 0
        for line in answer.text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let index = stills.firstIndex(where: { $0.path == fields[0] }) else { Issue.record("oracle: \(line)"); continue }
            let name = String(fields[0].dropFirst(root.path.count + 1))
            let status = statuses.withLock { $0[index] }
            #expect(status == 0 || status == 2, "\(name): the helper ended with \(String(describing: status))")
            if Self.readersDisagree[name] != nil || fields[1] == "unread" { continue }
            #expect(fields[1] == "psnr", "\(name): \(fields[1]) \(fields[2])")
            if fields[1] == "psnr" {
                #expect((Double(fields[2]) ?? 0) >= 24, "\(name): \(fields[2]) dB against the oracle")
                compared += 1
            }
        }
        #expect(compared >= 50, "\(compared) stills compared")
    }
}
