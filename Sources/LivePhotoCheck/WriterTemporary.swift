import Foundation

/// The temporary files lpcheck's safe writer stages its outputs in, beside each destination:
/// `.NAME.lpcheck-tmp-PID-RANDOM`. A write killed before its rename leaves one; `check` names it
/// under left-out files, and `repair` and `convert` remove those of processes that have ended.
public enum WriterTemporary {
    static let marker = ".lpcheck-tmp-"

    /// The temporary name for a destination named `name`, written by process `pid`.
    public static func name(for name: String, pid: Int32, random: UInt32) -> String {
        ".\(name)\(marker)\(pid)-\(random)"
    }

    /// The writing process's id, when `name` (a file name, no folder) is such a temporary name.
    public static func processID(inName name: String) -> Int32? {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
        let tail = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard tail.count == 2, let pid = Int32(tail[0]), pid > 0, UInt32(tail[1]) != nil, range.lowerBound > name.index(after: name.startIndex) else { return nil }
        return pid
    }

    /// Whether a process with this id exists (it may be another program that reuses the id:
    /// such a temporary is left alone).
    public static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The left-out reason for a hidden file, when it is a writer's temporary. Whether that
    /// process still runs is not asked: a report says the same of the same files.
    public static func leftOutReason(_ path: String) -> String? {
        guard let pid = processID(inName: (path as NSString).lastPathComponent) else { return nil }
        return "lpcheck's temporary file, left by a write of process \(pid) that was interrupted (or is still running): lpcheck repair or convert removes it once that process has ended"
    }

    /// The temporaries among `paths` and in `folders` (not below them) whose process has ended.
    public static func stale(paths: [String] = [], folders: Set<String> = []) -> [String] {
        var candidates = paths
        for folder in folders.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            candidates += names.sorted().map { (folder.isEmpty ? "" : folder + "/") + $0 }
        }
        var seen = Set<String>()
        return candidates.filter { path in
            guard seen.insert(path).inserted, let pid = processID(inName: (path as NSString).lastPathComponent), pid != getpid(), !isRunning(pid) else {
                return false
            }
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Removes the stale temporaries (`stale`); returns what it removed, each with its process.
    public static func removeStale(paths: [String] = [], folders: Set<String> = []) -> [String] {
        stale(paths: paths, folders: folders).filter { unlink($0) == 0 }
    }
}
