import Foundation
import LivePhotoCheck

/// A check's outputs kept in the cache, so that a run on the same inputs (`RunInputs`) writes
/// them again without pairing or running a rule: how many outputs there are (the reports in the
/// order of their `--format`, then the terminal summary), the figures `--stats` gives, and the
/// exit status. The bytes are kept in chunks beside it (`FactsCache.RunRecorder`).
public struct StoredRun: Equatable, Sendable {
    public var outputs: Int
    public var files: Int
    public var pairs: Int
    /// The exit status the run ended with: 0 passed, 1 findings at or above `--fail-on`, 2 nothing readable.
    public var status: Int

    public init(outputs: Int, files: Int, pairs: Int, status: Int) {
        (self.outputs, self.files, self.pairs, self.status) = (outputs, files, pairs, status)
    }

    /// Whether the figures are ones a run can have (a row no lpcheck wrote is not believed).
    var isPlausible: Bool { outputs >= 0 && outputs <= 1024 && files >= 0 && pairs >= 0 && (0...2).contains(status) }
}

/// Everything the outputs of a check of folders depend on, as bytes compared exactly with a
/// stored run's (no digest that two inputs could share): the settings the command names (its
/// build, arguments, working folder, configuration, whether the summary is in color), and what
/// a stamping walk found: every file's path and stamp (device, inode, size, modification and
/// status-change times, as the facts cache trusts them), the hidden files, and what it could not
/// read. Equal inputs give equal outputs: a check's outputs are functions of its files' facts
/// (each unchanged while its stamp is) and of these settings alone.
public enum RunInputs {
    /// Nil when the walk did not stamp every file (one gone, or no longer a regular file, as it
    /// was walked): such a run is neither replayed nor kept.
    public static func bytes(settings: [String], discovery: Discovery.Result) -> [UInt8]? {
        guard discovery.stamps.count == discovery.files.count else { return nil }
        var bytes: [UInt8] = Array("lpcheck run inputs 1\n".utf8)
        bytes.reserveCapacity(discovery.files.reduce(bytes.count + 4096) { $0 + $1.utf8.count + 48 })
        func integer(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func text(_ value: String) {
            integer(UInt64(value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }
        integer(UInt64(settings.count))
        settings.forEach(text)
        integer(UInt64(discovery.files.count))
        for (path, stamp) in zip(discovery.files, discovery.stamps) {
            guard let stamp else { return nil }
            text(path)
            integer(stamp.device)
            integer(stamp.inode)
            integer(UInt64(bitPattern: stamp.size))
            integer(UInt64(bitPattern: stamp.modified))
            integer(UInt64(bitPattern: stamp.changed))
        }
        integer(UInt64(discovery.hidden.count))
        discovery.hidden.forEach(text)
        integer(UInt64(discovery.problems.count))
        for problem in discovery.problems {
            text(problem.path)
            text(problem.reason)
        }
        return bytes
    }
}
