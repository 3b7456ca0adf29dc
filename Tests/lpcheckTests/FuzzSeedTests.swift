import Foundation
import LivePhotoTestSupport
import Testing

/// Every fuzz target's body over its seeds and the saved crashes, in every test run: the README's
/// test command builds no libFuzzer binary (`Scripts/fuzz.sh` does, with coverage guidance and
/// the address sanitizer), so this is what keeps the targets compiling and their seeds passing.
@Suite(.enabled(if: Locations.tool("python3") != nil && Locations.tool("exiftool") != nil, "needs python3 and exiftool (Fuzz/make_seeds.py)"))
struct FuzzSeedTests {
    /// The seeds `Fuzz/make_seeds.py` writes (Samples/ and ../shared/samples reduced to
    /// skeletons, their MakerNote, EXIF and XMP blocks, the structure recipes, scan records),
    /// made once a run in `.fuzz/test-seeds-PID` (ignored by git): a folder of this run's own, so
    /// two runs never share one; the folders of runs that ended are removed first, so nothing
    /// piles up.
    static let seeds: Result<URL, Error> = Result {
        let parent = Locations.packageRoot.appendingPathComponent(".fuzz")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix("test-seeds") {
            let pid = Int32(name.dropFirst("test-seeds-".count)) ?? 0
            if pid <= 0 || kill(pid, 0) != 0 { try? FileManager.default.removeItem(at: parent.appendingPathComponent(name)) }
        }
        let folder = parent.appendingPathComponent("test-seeds-\(getpid())")
        let script = Locations.packageRoot.appendingPathComponent("Fuzz/make_seeds.py").path
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), [script, folder.path])
        guard result.status == 0 else { throw SeedError(message: result.stderr) }
        return folder
    }

    struct SeedError: Error, CustomStringConvertible {
        var message: String
        var description: String { "make_seeds.py failed: \(message)" }
    }

    @Test("every fuzz target runs over each of its seeds and every saved crash, and none stops", arguments: FuzzTarget.allCases)
    func seedsPass(_ target: FuzzTarget) throws {
        let folder = try Self.seeds.get().appendingPathComponent(target.rawValue)
        let seeds = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        // Every target has seeds from our own samples at least (records: the scan of Samples/).
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue)")
        let crashes = (try? FileManager.default.contentsOfDirectory(at: Locations.samples.appendingPathComponent("corrupt/fuzz"),
                                                                      includingPropertiesForKeys: nil)) ?? []
        for file in seeds + crashes {
            target.run([UInt8](try Data(contentsOf: file)))
        }
    }
}
