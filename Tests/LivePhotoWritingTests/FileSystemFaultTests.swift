import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Repair on a full disk and in a read-only folder (small tmpfs mounts; skipped where mounting is
/// not allowed): the original stays intact and lpcheck says what happened.
/// Whether this process may mount a small tmpfs (root on Linux, and the sandbox allows it).
let canMountTmpfs: Bool = {
        guard getuid() == 0, let mount = Locations.tool("mount") else { return false }
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: point) }
        guard let result = try? ProcessResult.run(mount, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point.path]), result.status == 0 else { return false }
        if let umount = Locations.tool("umount") { _ = try? ProcessResult.run(umount, [point.path]) }
        return true
    }()

@Suite(.enabled(if: Locations.lpcheckBinary != nil && canMountTmpfs, "needs lpcheck and permission to mount a tmpfs"))
struct FileSystemFaultTests {
    /// A tmpfs of `kilobytes` holding the mismatched pair; unmounted by the caller.
    static func mountedPair(kilobytes: Int) throws -> (point: URL, movie: URL, original: Data) {
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        let mounted = try Scratch.run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", point.path])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        let (folder, still, movie) = try SafetyTests.brokenPair()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = point.appendingPathComponent("camera-pair.mov")
        try Data(contentsOf: still).write(to: point.appendingPathComponent("camera-pair.jpg"))
        try Data(contentsOf: movie).write(to: target)
        return (point, target, try Data(contentsOf: target))
    }

    static func unmount(_ point: URL) {
        _ = try? Scratch.run("umount", [point.path])
        try? FileManager.default.removeItem(at: point)
    }

    @Test("a full disk: the repair fails, says so, and leaves the original and no temporary file")
    func fullDisk() throws {
        // 20 KiB: room for the pair (16 KB) but not for a second copy of the movie.
        let (point, movie, original) = try Self.mountedPair(kilobytes: 20)
        defer { Self.unmount(point) }
        let result = try Scratch.lpcheck(["repair", "--no-backup", point.path])
        #expect(result.status == 1)
        // The failure says what failed and why, naming the movie it was writing.
        #expect(result.text.contains("FAILED") && result.text.contains("No space left on device") && result.text.contains("camera-pair.mov"), "\(result.text)")
        #expect(try Data(contentsOf: movie) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: point.path).sorted() == ["camera-pair.jpg", "camera-pair.mov"])
    }

    @Test("a read-only folder: the repair fails, says why, and changes nothing")
    func readOnly() throws {
        let (point, movie, original) = try Self.mountedPair(kilobytes: 256)
        defer { Self.unmount(point) }
        #expect(try Scratch.run("mount", ["-o", "remount,ro", point.path]).status == 0)
        let result = try Scratch.lpcheck(["repair", point.path])
        #expect(result.status == 1)
        #expect(result.text.contains("Read-only file system"), "\(result.text)")
        #expect(try Data(contentsOf: movie) == original)
    }

    @Test("make and convert into a folder to be made on a read-only mount: exit 2 naming the folder and the system's reason, never a Foundation error; nothing written")
    func readOnlyOutputFolder() throws {
        let (point, _, _) = try Self.mountedPair(kilobytes: 256)
        defer { Self.unmount(point) }
        #expect(try Scratch.run("mount", ["-o", "remount,ro", point.path]).status == 0)
        let output = point.appendingPathComponent("out").path
        let still = Locations.samples.appendingPathComponent("camera-pair.jpg").path, movie = Locations.samples.appendingPathComponent("camera-pair.mov").path
        for command in [["make", still, movie], ["convert", still, movie, "--to", "motion-photo"]] {
            let result = try Scratch.lpcheck(command + ["--output", output])
            #expect(result.status == 2, "\(command[0]): \(result.text)\(result.stderr)")
            #expect(result.stderr.contains("cannot make the output folder \(output)") && result.stderr.contains("Read-only file system"), "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
