import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting

/// Movies a page's cards play (`check --previews`), made by the export flow into a folder beside
/// the page (`NAME-previews/` for `NAME.html`): an H.264 movie's samples copied into an MP4
/// (`export --as movie --container mp4`, sound left out), any other codec's frames re-encoded to
/// H.264 first to last, each for its own duration (what every browser plays; HEVC is not), as is
/// an H.264 movie whose other tracks an MP4 cannot hold. Each
/// is written as export writes (a temporary file, read back, renamed); one that cannot be made
/// is said on standard error, and its card shows the still alone.
enum ReportPreviews {
    /// The width a re-encoded preview is scaled to: a card shows it in a 128×96 box, so 2.5 times
    /// that is sharp on a high-density screen (a copied H.264 movie keeps its size).
    static let previewWidth = 320

    /// The folder beside `page`.
    static func folder(for page: String) -> String {
        let base = (page as NSString).deletingPathExtension
        return (base.isEmpty ? page : base) + "-previews"
    }

    static func add(_ report: inout CheckReport, items: [Int], page: String, jobs: Int, io: RunIO) throws {
        let wanted = items.filter { index in
            let item = report.items[index]
            return Exporter.exports(item) && (item.kind == .motionPhoto || item.movie != nil) && item.files.allSatisfy { $0.archive == nil }
        }
        guard !wanted.isEmpty else { return }
        let folder = folder(for: page)
        try OutputFolder.make(folder, io: io)
        let items = wanted.map { report.items[$0] }
        // A preview never replaces a file this check read (a folder of earlier previews checked
        // again, a link to an input): compared by device and inode, so a hard link counts too.
        let read = Set(report.items.flatMap { $0.files.compactMap(\.identity).map { FileIdentity(device: $0.device, inode: $0.inode) } })
        let made = Parallel.map(Array(zip(wanted, items)), jobs: max(1, min(jobs, 4)), minimum: 2) { index, item -> (address: String?, why: String?) in
            // `item-N.mp4`, else the first of `item-N-2.mp4`, `item-N-3.mp4`… that is no input.
            let names = (1...100).lazy.map { $0 == 1 ? "item-\(index + 1).mp4" : "item-\(index + 1)-\($0).mp4" }
            guard let name = names.first(where: { name in
                FileStamp.of((folder as NSString).appendingPathComponent(name)).map { read.contains(FileIdentity(device: $0.device, inode: $0.inode)) } != true
            }) else { return (nil, "every name tried for item \(index + 1)'s preview in \(folder) is a file this check read") }
            let destination = (folder as NSString).appendingPathComponent(name)
            var options = ExportOptions(form: .movie)
            (options.container, options.keepsSound, options.force) = (.mp4, false, true)
            let format = Exporter.videoFormat(item)
            if format != "avc1" && format != "avc3" { (options.reencode, options.codec, options.movieWidth) = (.forward, .h264, previewWidth) }
            var plan = Exporter.plan(item, options: options, folder: folder)
            if !plan.problems.isEmpty, options.reencode == nil {
                // A copy an MP4 cannot hold (a QuickTime-only track beside the video: tmcd,
                // rtmd): the video re-encoded alone instead; else the copy's reason is said.
                (options.reencode, options.codec, options.movieWidth) = (.forward, .h264, previewWidth)
                let again = Exporter.plan(item, options: options, folder: folder)
                if again.problems.isEmpty, !again.files.isEmpty { plan = again }
            }
            guard plan.problems.isEmpty, !plan.files.isEmpty else { return (nil, plan.problems.first ?? "nothing to play") }
            plan.files[0].destination = destination
            var applying = RepairOptions()
            applying.force = true
            let outcome = PlanWriter.apply(plan, options: applying)
            if let failure = outcome.failure { return (nil, failure) }
            return (((folder as NSString).lastPathComponent as NSString).appendingPathComponent(name), nil)
        }
        var failures: [String] = []
        for (slot, index) in wanted.enumerated() {
            guard let address = made[slot].address else {
                failures.append("\(report.items[index].files.first?.path ?? "an item"): \(made[slot].why ?? "")")
                continue
            }
            if report.items[index].kind == .motionPhoto { report.items[index].still?.preview = address } else { report.items[index].movie?.preview = address }
        }
        if let first = failures.first {
            io.error("lpcheck: --previews: \(Plural.count(failures.count, "movie")) of \(wanted.count) got no preview; the first: \(first.terminalSafe)")
        }
    }
}
