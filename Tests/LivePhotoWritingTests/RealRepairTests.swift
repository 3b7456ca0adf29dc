import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting
import LivePhotoTestSupport
import Testing

/// What issue 4 asks to be shown, on real camera files, with ExifTool and ffmpeg as oracles.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil, "needs ../shared/samples and a built lpcheck"))
struct RealRepairTests {
    @Test("a camera pair whose movie identifier was changed is repaired: same identifier, check passes, same frames, O(moov) bytes written")
    func mismatchedIdentifier() throws {
        let folder = try Scratch.folder("mismatch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Scratch.copy([try #require(SharedSamples.url("LycheeOrg__Lychee/train.jpg")), try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))], into: folder)
        var movie = try Data(contentsOf: files[1])
        let old = Data("E905E6C6-C747-4805-942F-9904A0281F02".utf8)
        let range = try #require(movie.range(of: old))
        movie.replaceSubrange(range, with: Data("11111111-2222-3333-4444-555555555555".utf8))
        try movie.write(to: files[1])
        let framesBefore = try Scratch.frameChecksums(files[1])
        #expect(try Scratch.lpcheck(["check", folder.path]).status == 1)

        let repair = try Scratch.lpcheck(["repair", folder.path])
        #expect(repair.status == 0, "\(repair.text)")
        let still = try Scratch.exiftool(files[0])
        let repaired = try Scratch.exiftool(files[1])
        #expect(Scratch.stillIdentifier(still) == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(repaired["Keys:ContentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(Scratch.stillImageTime(repaired) == -1)
        #expect(try Scratch.lpcheck(["check", folder.path]).status == 0)
        #expect(try Scratch.frameChecksums(files[1]) == framesBefore)
        // Bytes written are the moov's, not the movie's.
        let moov = try #require(MediaFile.inspect(path: files[1].path).movie?.boxes.first { $0.type == "moov" })
        let written = try #require(repair.text.split(separator: "\n").first { $0.contains("wrote") && $0.contains("train.mov") })
        let newBytes = try #require(Int64(written.split(separator: ":").last?.split(separator: " ").first ?? ""))
        #expect(newBytes <= moov.size + 64)
        // The original is kept, and the backup does not show up in a check.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".lpcheck-backup/train.mov").path))
        let report = Checker(roots: [folder.path]).run()
        #expect(report.items.count == 1)
    }

    @Test("a camera movie remuxed by ffmpeg gets its still-image-time back; frames unchanged; ffmpeg silent")
    func remuxed() throws {
        let folder = try Scratch.folder("remux")
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = try Scratch.copy([try #require(SharedSamples.url("LycheeOrg__Lychee/train.jpg"))], into: folder)[0]
        let movie = folder.appendingPathComponent("train.mov")
        let source = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))
        let remux = try Scratch.run("ffmpeg", ["-v", "error", "-i", source.path, "-map", "0:v", "-map", "0:a", "-c", "copy", "-movflags", "use_metadata_tags", movie.path])
        #expect(remux.status == 0)
        #expect(Scratch.stillImageTime(try Scratch.exiftool(movie)) == nil)
        let framesBefore = try Scratch.frameChecksums(movie)

        let repair = try Scratch.lpcheck(["repair", folder.path])
        #expect(repair.status == 0, "\(repair.text)")
        let record = try Scratch.exiftool(movie)
        #expect(Scratch.stillImageTime(record) == -1)
        #expect(record["Keys:ContentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(Scratch.stillIdentifier(try Scratch.exiftool(still)) == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(try Scratch.lpcheck(["check", folder.path]).status == 0)
        #expect(try Scratch.frameChecksums(movie) == framesBefore)
        let decode = try Scratch.run("ffmpeg", ["-v", "error", "-i", movie.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test("a HEIC still without an identifier gets one: the MakerNote is rebuilt, the Exif item moves, nothing else changes")
    func heicStill() throws {
        let folder = try Scratch.folder("heic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try #require(SharedSamples.url("drewnoakes__metadata-extractor-images/IMG_1034.heic"))
        let movie = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))
        let make = try Scratch.lpcheck(["make", input.path, movie.path, "--output", folder.path, "--identifier", "0D3B6A52-6C1E-4F4B-9A11-2B3C4D5E6F70"])
        #expect(make.status == 0, "\(make.text) \(make.stderr)")
        let output = folder.appendingPathComponent("IMG_1034.HEIC")
        #expect(Scratch.stillIdentifier(try Scratch.exiftool(output)) == "0D3B6A52-6C1E-4F4B-9A11-2B3C4D5E6F70")
        let validate = try Scratch.run("exiftool", ["-validate", "-warning", "-a", "-s3", output.path])
        #expect(validate.text.trimmingCharacters(in: .whitespacesAndNewlines) == "OK", "\(validate.text)")
        // Every standard EXIF tag and every other MakerNote entry survives.
        let before = MediaFile.inspect(path: input.path)
        let after = MediaFile.inspect(path: output.path)
        #expect(before.still?.exif.filter { $0.tag != 0x927C } == after.still?.exif.filter { $0.tag != 0x927C })
        let oldEntries = before.still?.makerNote?.entries ?? []
        let newEntries = after.still?.makerNote?.entries.filter { $0.tag != 0x0011 }
        #expect(oldEntries == newEntries)
    }
}
