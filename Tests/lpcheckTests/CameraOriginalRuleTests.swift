import Foundation
import LivePhotoTestSupport
import Testing

/// Rules never nag about what the platform's own camera writes (issue 52): an iPhone camera on
/// iOS 18.2 writes its still-image-time track without a cdsc reference, and Photos plays it.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct CameraOriginalRuleTests {
    @Test("missing-cdsc-reference stays silent on iOS 18.2's camera original (IMG_3853: Make Apple and Software 18.2 by ExifTool; its track has no tref, as dump shows) and fires on the same pair once ExifTool has written another Software into the movie")
    func cdscOnCameraOriginals() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let lpcheck = try #require(Locations.lpcheckBinary).path
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let folder = try #require(Locations.sharedSamples).appendingPathComponent("gwy15__Apple-photo-to-UltraHDR-motion-photo")
        let movie = folder.appendingPathComponent("IMG_3853.MOV"), still = folder.appendingPathComponent("IMG_3853.HEIC")
        let read = try ProcessResult.run(exiftool, ["-s3", "-Keys:Make", "-Keys:Software", movie.path]).text.split(separator: "\n").map(String.init)
        #expect(read == ["Apple", "18.2"], "\(read)")
        let dump = try ProcessResult.run(lpcheck, ["dump", "--json", movie.path])
        #expect(!dump.text.contains("\"cdsc\""), "the camera original has a cdsc reference after all")
        let original = try ProcessResult.run(lpcheck, ["check", "--fail-on", "info", "--no-progress", still.path, movie.path])
        #expect(original.status == 0 && !original.text.contains("missing-cdsc-reference"), "\(original.text)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-cdsc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let edited = work.appendingPathComponent("IMG_3853.MOV")
        try FileManager.default.copyItem(at: movie, to: edited)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: edited.path)
        let written = try ProcessResult.run(exiftool, ["-q", "-overwrite_original", "-Keys:Software=Some Editor 2.0", edited.path])
        #expect(written.status == 0, "\(written.stderr)")
        let afterEdit = try ProcessResult.run(lpcheck, ["check", "--fail-on", "info", "--no-progress", still.path, edited.path])
        #expect(afterEdit.text.contains("missing-cdsc-reference"), "\(afterEdit.text)")
    }
}
