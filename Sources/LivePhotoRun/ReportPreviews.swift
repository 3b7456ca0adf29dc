import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting

/// Movies a page's cards play (`check --previews`), made by the export flow into a folder beside
/// the page (`NAME-previews/` for `NAME.html`): an H.264 movie's samples copied into an MP4
/// (`export --as movie --container mp4`, sound left out), any other codec's frames re-encoded to
/// H.264 first to last, each for its own duration (what every browser plays; HEVC is not). Each
/// is written as export writes (a temporary file, read back, renamed); one that cannot be made
/// is said on standard error, and its card shows the still alone.
enum ReportPreviews {
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
        let made = Parallel.map(Array(zip(wanted, items)), jobs: max(1, min(jobs, 4)), minimum: 2) { index, item -> (address: String?, why: String?) in
            var options = ExportOptions(form: .movie)
            (options.container, options.keepsSound, options.force) = (.mp4, false, true)
            let format = Exporter.videoFormat(item)
            if format != "avc1" && format != "avc3" { (options.reencode, options.codec) = (.forward, .h264) }
            var plan = Exporter.plan(item, options: options, folder: folder)
            let name = "item-\(index + 1).mp4"
            guard plan.problems.isEmpty, !plan.files.isEmpty else { return (nil, plan.problems.first ?? "nothing to play") }
            plan.files[0].destination = (folder as NSString).appendingPathComponent(name)
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
