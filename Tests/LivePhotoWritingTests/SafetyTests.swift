import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting
import LivePhotoTestSupport
import Testing

/// Never a partial or damaged file: crashes at every step, files changing underneath, dry runs.
struct SafetyTests {
    /// A mismatched pair made from our samples: the movie's identifier is changed (same length).
    static func brokenPair() throws -> (folder: URL, still: URL, movie: URL) {
        let folder = try Scratch.folder("safety")
        let files = try Scratch.copy([Locations.samples.appendingPathComponent("camera-pair.jpg"), Locations.samples.appendingPathComponent("camera-pair.mov")], into: folder)
        var movie = try Data(contentsOf: files[1])
        let range = try #require(movie.range(of: Data("8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34".utf8)))
        movie.replaceSubrange(range, with: Data("AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE".utf8))
        try movie.write(to: files[1])
        return (folder, files[0], files[1])
    }

    static func visibleFiles(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("killed at every step of a repair, the original is intact or fully replaced, never partial",
          .enabled(if: Locations.lpcheckBinary != nil))
    func crashAtEveryStep() throws {
        var sawIntact = false, sawReplaced = false
        for step in 1...8 {
            let (folder, _, movie) = try Self.brokenPair()
            defer { try? FileManager.default.removeItem(at: folder) }
            let original = try Data(contentsOf: movie)
            var environment = ProcessInfo.processInfo.environment
            environment["LPCHECK_FAULT_STEP"] = String(step)
            let result = try Scratch.lpcheck(["repair", folder.path], environment: environment)
            let now = try Data(contentsOf: movie)
            #expect(try Self.visibleFiles(folder) == ["camera-pair.jpg", "camera-pair.mov"])
            if now == original {
                sawIntact = true
                #expect(result.status != 0 || step > 6)
            } else {
                sawReplaced = true
                let read = MediaFile.inspect(path: movie.path)
                #expect(read.error == nil)
                #expect(read.contentIdentifier == "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
                #expect(Int64(now.count) == Int64(original.count) || read.movie != nil)
            }
        }
        #expect(sawIntact && sawReplaced)
    }

    @Test("a file that changes during the repair is left alone")
    func changedMeanwhile() throws {
        let (folder, _, movie) = try Self.brokenPair()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = Checker(roots: [folder.path]).run()
        let plans = RepairPlanner.plan(report, options: RepairOptions())
        let plan = try #require(plans.first)
        // Someone else writes the movie after it was read.
        let handle = try FileHandle(forWritingTo: movie)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0, 0, 8] + Array("free".utf8)))
        try handle.close()
        let changed = try Data(contentsOf: movie)
        let outcome = PlanWriter.apply(plan, options: RepairOptions())
        #expect(outcome.failure?.contains("changed while") == true, "\(outcome.failure ?? "no failure")")
        #expect(try Data(contentsOf: movie) == changed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("lpcheck-tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("--dry-run writes nothing; --no-backup keeps no backup; repeated repairs keep numbered backups",
          .enabled(if: Locations.lpcheckBinary != nil))
    func dryRunAndBackups() throws {
        let (folder, still, movie) = try Self.brokenPair()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: movie)
        let dry = try Scratch.lpcheck(["repair", "--dry-run", folder.path])
        #expect(dry.status == 0)
        #expect(dry.text.contains("moov rewritten in place"))
        #expect(try Data(contentsOf: movie) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".lpcheck-backup").path))

        #expect(try Scratch.lpcheck(["repair", "--prefer", "movie", folder.path]).status == 0)
        #expect(MediaFile.inspect(path: still.path).contentIdentifier == "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE")
        #expect(try Data(contentsOf: folder.appendingPathComponent(".lpcheck-backup/camera-pair.jpg")) == Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg")))
        #expect(try Scratch.lpcheck(["repair", "--prefer", "new", folder.path]).status == 0)
        // Nothing to fix any more: prefer new only applies to findings.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".lpcheck-backup/camera-pair.jpg.1").path))
    }

    @Test("repairing through symbolic links repairs the linked files and leaves the links as links",
          .enabled(if: Locations.lpcheckBinary != nil))
    func throughSymbolicLinks() throws {
        let (library, still, movie) = try Self.brokenPair()
        defer { try? FileManager.default.removeItem(at: library) }
        let view = try Scratch.folder("links")
        defer { try? FileManager.default.removeItem(at: view) }
        for file in [still, movie] {
            try FileManager.default.createSymbolicLink(at: view.appendingPathComponent(file.lastPathComponent), withDestinationURL: file)
        }
        #expect(try Scratch.lpcheck(["check", view.path]).status == 1)
        let repair = try Scratch.lpcheck(["repair", "--prefer", "still", view.path])
        #expect(repair.status == 0, "\(repair.text)")
        for file in [still, movie] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: view.appendingPathComponent(file.lastPathComponent).path) == file.path)
        }
        #expect(MediaFile.inspect(path: movie.path).contentIdentifier == "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34")
        #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent(".lpcheck-backup/camera-pair.mov").path))
        #expect(try Scratch.lpcheck(["check", view.path]).status == 0)
        #expect(try Scratch.lpcheck(["check", library.path]).status == 0)
    }

    @Test("repair refuses to touch what it cannot fix and says why", .enabled(if: Locations.lpcheckBinary != nil))
    func leavesUnfixable() throws {
        let folder = try Scratch.folder("unfixable")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Scratch.copy([Locations.samples.appendingPathComponent("hostile-metadata.jpg")], into: folder)
        let result = try Scratch.lpcheck(["repair", folder.path])
        #expect(result.status == 1)
        #expect(result.text.contains("leaves movie-absent"))
    }
}
