import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `repair` promises beyond the layouts: info findings left alone unless asked, keys kept
/// when a track is rewritten, --time moving a valid moment, the dry run printing what the real
/// run writes, extended attributes kept, and hard-linked names named as a loss.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil && Locations.tool("exiftool") != nil
    && Locations.tool("ffmpeg") != nil, "needs ../shared/samples, the built lpcheck, ExifTool and ffmpeg"))
struct RepairPromisesTests {
    static func iphone15(_ label: String) throws -> (folder: URL, still: URL, movie: URL) {
        let folder = try Scratch.folder(label)
        let shared = try #require(Locations.sharedSamples).appendingPathComponent("gwy15__Apple-photo-to-UltraHDR-motion-photo")
        let files = try Scratch.copy([shared.appendingPathComponent("IMG_3853.HEIC"), shared.appendingPathComponent("IMG_3853.MOV")], into: folder)
        return (folder, files[0], files[1])
    }

    @Test("an info finding on a camera movie is left alone; --include-info rewrites the track keeping Apple's transform keys")
    func infoLeftAlone() throws {
        let (folder, _, movie) = try Self.iphone15("info")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: movie)
        let plain = try Scratch.lpcheck(["repair", folder.path])
        #expect(plain.status == 0)
        #expect(plain.text.contains("Nothing to repair"))
        #expect(try Data(contentsOf: movie) == original)

        let asked = try Scratch.lpcheck(["repair", "--include-info", folder.path])
        #expect(asked.status == 0, "\(asked.text)")
        #expect(!asked.text.contains("LOSES"))
        let record = try Scratch.exiftool(movie)
        #expect(Scratch.stillImageTime(record) == -1)
        let dump = try Scratch.lpcheck(["dump", movie.path]).text
        #expect(dump.contains("com.apple.quicktime.live-photo-still-image-transform="))
        #expect(dump.contains("com.apple.quicktime.live-photo-still-image-transform-reference-dimensions=(1920.0, 1440.0)"))
        #expect(try Scratch.lpcheck(["check", folder.path]).text.contains("0 errors, 0 warnings, 0 infos"))
    }

    @Test("--time moves a valid moment; every key and every video frame is kept")
    func timeMovesMoment() throws {
        let (folder, _, movie) = try Self.iphone15("time")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try Scratch.frameChecksums(movie)
        let result = try Scratch.lpcheck(["repair", "--time", "0.5", folder.path])
        #expect(result.status == 0, "\(result.text)")
        #expect(result.text.contains("0.5 s (as asked)"))
        let moved = MediaFile.inspect(path: movie.path)
        let time = try #require(moved.movie?.stillImageTime)
        #expect(abs((time.seconds ?? -1) - 0.5) < 0.002)
        #expect(moved.movie?.stillImageTimeTracks.first?.declaredKeys.count == 3)
        #expect(try Scratch.frameChecksums(movie) == frames)
    }

    @Test("the dry run prints the identifier the real run writes; extended attributes are kept")
    func dryRunEqualsRun() throws {
        let folder = try Scratch.folder("dry")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = try #require(Locations.sharedSamples).appendingPathComponent("LycheeOrg__Lychee")
        _ = try Scratch.copy([shared.appendingPathComponent("train.jpg"), shared.appendingPathComponent("train.mov")], into: folder)
        // A software re-save named like none of the pair, carrying its identifier: a conflict that
        // is not a camera original, so it gets a new identifier without --force.
        let stranger = folder.appendingPathComponent("DSC_0001.jpg")
        let edit = try Scratch.run("exiftool", ["-m", "-q", "-Make=", "-Model=", "-o", stranger.path, shared.appendingPathComponent("train.jpg").path])
        #expect(edit.status == 0, "\(edit.stderr)")
        let python = try #require(Locations.tool("python3"))
        let tagged = try ProcessResult.run(python, ["-c", "import os,sys; os.setxattr(sys.argv[1], 'user.lpcheck', b'kept')", stranger.path])
        let xattrs = tagged.status == 0

        let dry = try Scratch.lpcheck(["repair", "--dry-run", folder.path])
        let announced = try #require(dry.text.range(of: "gets a new identifier ").map { String(dry.text[$0.upperBound...].prefix(36)) }, "\(dry.text)")
        #expect(try Scratch.lpcheck(["repair", "--dry-run", folder.path]).text == dry.text)
        let run = try Scratch.lpcheck(["repair", folder.path])
        // Written; the still has no movie of its own, an error repair cannot fix: exit 1, as check.
        #expect(run.status == 1, "\(run.text)")
        #expect(run.text.contains("wrote \(stranger.path)"))
        #expect(run.text.contains(announced))
        #expect(Scratch.stillIdentifier(try Scratch.exiftool(stranger)) == announced)
        #expect(Scratch.stillIdentifier(try Scratch.exiftool(folder.appendingPathComponent("train.jpg"))) == "E905E6C6-C747-4805-942F-9904A0281F02")
        if xattrs {
            let read = try ProcessResult.run(python, ["-c", "import os,sys; print(os.getxattr(sys.argv[1], 'user.lpcheck').decode())", stranger.path])
            #expect(read.text.trimmingCharacters(in: .whitespacesAndNewlines) == "kept")
        }
    }

    @Test("a file with another name (hard link) is named as a loss and waits for --force")
    func hardLinkLoss() throws {
        let folder = try Scratch.folder("links")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = try #require(Locations.sharedSamples)
        let files = try Scratch.copy([shared.appendingPathComponent("henteko__livephotoskit-react/test.JPG"),
                                      shared.appendingPathComponent("Bai-Mirror__pyheic_struct/apple.MOV")], into: folder)
        let still = folder.appendingPathComponent("IMG_7.JPG"), movie = folder.appendingPathComponent("IMG_7.MOV")
        try FileManager.default.moveItem(at: files[0], to: still)
        try FileManager.default.moveItem(at: files[1], to: movie)
        // The movie has a second name outside the scanned folder.
        let outside = try Scratch.folder("links-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        #expect(link(movie.path, outside.appendingPathComponent("kept.MOV").path) == 0)
        let refused = try Scratch.lpcheck(["repair", folder.path])
        #expect(refused.status == 1)
        #expect(refused.text.contains("LOSES:") && refused.text.contains("1 other name (hard links)"), "\(refused.text)")
        #expect(MediaFile.inspect(path: movie.path).contentIdentifier == "F08C4D29-CD6A-47D9-9200-02BD19D9F3F2")
        let forced = try Scratch.lpcheck(["repair", "--force", folder.path])
        #expect(forced.status == 0, "\(forced.text)")
        #expect(MediaFile.inspect(path: movie.path).contentIdentifier == "17080089-0117-45A3-9948-DB051BBF87C0")
        // The other name kept the old content, as the plan said.
        #expect(MediaFile.inspect(path: outside.appendingPathComponent("kept.MOV").path).contentIdentifier == "F08C4D29-CD6A-47D9-9200-02BD19D9F3F2")
    }

    @Test("a lost moment is placed on the middle frame and labelled as guessed; ExifTool then reads the pair")
    func guessedMoment() throws {
        let folder = try Scratch.folder("guessed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = try #require(Locations.sharedSamples).appendingPathComponent("LycheeOrg__Lychee")
        let still = folder.appendingPathComponent("IMG_1.JPG"), movie = folder.appendingPathComponent("IMG_1.MOV")
        try Data(contentsOf: shared.appendingPathComponent("train.jpg")).write(to: still)
        // ffmpeg keeps the video only: the identifier and the still-image-time track are gone.
        let remux = try Scratch.run("ffmpeg", ["-v", "error", "-i", shared.appendingPathComponent("train.mov").path, "-map", "0:v", "-c", "copy", "-f", "mov", movie.path])
        #expect(remux.status == 0, "\(remux.stderr)")
        let frames = try Scratch.frameChecksums(movie)
        let result = try Scratch.lpcheck(["repair", folder.path])
        #expect(result.status == 0, "\(result.text)")
        #expect(result.text.contains("GUESSED: the middle frame"))
        let record = try Scratch.exiftool(movie)
        #expect(record["Keys:ContentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(Scratch.stillImageTime(record) == -1)
        #expect(try Scratch.frameChecksums(movie) == frames)
    }
}
