import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// A Takeout export: a motion photo and, beside it, its movie as a file of its own. The relation
/// is claimed only when the bytes equal the embedded range.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct EmbeddedMovieTests {
    @Test("a standalone movie equal to a motion photo's embedded range (named .MP.mp4 or .mp4) is embeddedMovieOf it; one changed byte, or another name, is not")
    func takeoutCopies() throws {
        let source = try #require(SharedSamples.url("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-embedded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: source)
        let still = folder.appendingPathComponent("PXL_20200710_061629144.MP.jpg")
        try bytes.write(to: still)
        let range = try #require(FileFacts(MediaFile.inspect(path: still.path, options: .check)).motionPhoto?.movieRange)
        let movie = bytes.subdata(in: Int(range.lowerBound)..<Int(range.upperBound))
        try movie.write(to: folder.appendingPathComponent("PXL_20200710_061629144.MP.mp4"))
        try movie.write(to: folder.appendingPathComponent("PXL_20200710_061629144.mp4"))
        try movie.write(to: folder.appendingPathComponent("VID_other.mp4"))
        var altered = movie
        altered[altered.count - 1] ^= 1
        let other = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try bytes.write(to: other.appendingPathComponent("PXL_20200710_061629144.MP.jpg"))
        try altered.write(to: other.appendingPathComponent("PXL_20200710_061629144.MP.mp4"))

        let report = Checker(roots: [folder.path]).run()
        var related: [String: String] = [:]
        for item in report.items { if let movie = item.movie, let of = item.embeddedMovieOf { related[movie.fileName] = of } }
        #expect(related == ["PXL_20200710_061629144.MP.mp4": still.path, "PXL_20200710_061629144.mp4": still.path], "\(related)")
        let findings = report.items.flatMap(\.findings).filter { $0.rule == "movie-embedded-in-motion-photo" }
        #expect(findings.count == 2)
        // Without reading files (records checked elsewhere), nothing is claimed.
        var scanned = Checker(roots: [folder.path]).scan(Discovery().find([folder.path]))
        #expect(Checker(roots: [folder.path]).report(&scanned, compare: nil).items.allSatisfy { $0.embeddedMovieOf == nil })
    }
}
