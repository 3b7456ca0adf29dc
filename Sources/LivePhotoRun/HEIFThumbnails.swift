import Foundation
import LivePhotoCheck
import LivePhotoThumbnails

/// Thumbnails for the HEIC stills of an HTML report's cards that have none (`--thumbnails`).
enum HEIFThumbnails {
    /// Decodes them with libheif on all cores; says so on standard error when libheif cannot be used.
    static func add(_ report: inout CheckReport, items: [Int], io: RunIO) {
        let availability = HEIFThumbnail.availability()
        guard availability.available else {
            io.error("lpcheck: --thumbnails: \(availability.problem ?? "libheif cannot be used"); HEIC stills have no thumbnail")
            return
        }
        let wanted = items.filter { index in
            guard let still = report.items[index].still else { return false }
            return still.thumbnail == nil && (still.format == .heic || still.format == .heif) && still.error == nil
        }
        let paths = wanted.map { report.items[$0].still?.path ?? "" }
        let pictures = Parallel.map(paths, jobs: ProcessInfo.processInfo.activeProcessorCount, minimum: 2) { path -> [UInt8]? in
            if case .success(let png) = HEIFThumbnail.png(path: path) { return png }
            return nil
        }
        for (slot, index) in wanted.enumerated() { report.items[index].still?.thumbnail = pictures[slot] }
    }
}
