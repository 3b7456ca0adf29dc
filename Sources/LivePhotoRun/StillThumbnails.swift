import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting

/// Pictures for the cards of an HTML report whose stills carry no Exif thumbnail
/// (`--thumbnails`): the codec helper decodes each still (a HEIF's thumbnail item or primary
/// image, a grid's tiles, a JPEG, a PNG, a GIF's first frame) and answers a JPEG of 160 pixels
/// on its longer side at most. Only this option runs the helper; a plain `check` loads no codec
/// library.
enum StillThumbnails {
    /// The longer side of a card's picture, in pixels.
    static let side = 160
    /// The formats the helper decodes.
    static let decoded: Set<FileFormat> = [.jpeg, .heic, .heif, .avif, .png, .gif]

    /// Asks the helper for the stills of `items` that have no picture (when `missing`), and for
    /// those whose Exif thumbnail is stored unturned while the still is shown turned or mirrored
    /// (a portrait iPhone JPEG's), a few at a time; says on standard error how many stills still have none
    /// and why the first did not. `--previews` asks for the turned only: a video's poster is not
    /// turned by the page as a picture is.
    static func add(_ report: inout CheckReport, items: [Int], jobs: Int, missing: Bool = true, io: RunIO) {
        let wanted = items.filter { index in
            guard let still = report.items[index].still, still.error == nil, decoded.contains(still.format) else { return false }
            let turned = (still.capture?.quarterTurns ?? 0) != 0 || still.capture?.mirrored == true
            guard (missing && still.thumbnail == nil) || (still.thumbnail != nil && turned) else { return false }
            return FileManager.default.fileExists(atPath: still.path)
        }
        guard !wanted.isEmpty else { return }
        let paths = wanted.map { report.items[$0].still?.path ?? "" }
        // Each answer: the JPEG, or why there is none.
        let answers = Parallel.map(paths, jobs: max(1, jobs), minimum: 2) { CodecHelper.thumbnail(of: $0, side: side) }
        var failures: [String] = []
        for (slot, index) in wanted.enumerated() {
            if let picture = answers[slot].picture {
                report.items[index].still?.thumbnail = picture
                report.items[index].still?.thumbnailTurned = true
            } else if report.items[index].still?.thumbnail == nil {
                failures.append(answers[slot].why ?? "")
                report.items[index].still?.thumbnailProblem = answers[slot].why
            }
        }
        if let first = failures.first {
            io.error("lpcheck: --thumbnails: \(Plural.count(failures.count, "still")) of \(wanted.count) got no picture; the first: \(first)")
        }
    }
}
