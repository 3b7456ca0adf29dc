import Foundation

/// The names of the temporary files lpcheck's safe writer stages its outputs in, beside each
/// destination: `.NAME.lpcheck-tmp-PID-RANDOM`. A write killed before its rename leaves one;
/// `check` names it under left-out files (this reads names only), and `repair` and `convert`
/// remove those of processes that have ended (`StaleTemporaries`, LivePhotoWriting).
public enum WriterTemporary {
    static let marker = ".lpcheck-tmp-"

    /// The temporary name for a destination named `name`, written by process `pid`. A name
    /// is at most 255 bytes (NAME_MAX): a long destination's name is cut, at a character's
    /// boundary, so that the temporary's fits (a 240-byte name is a name the system allows).
    public static func name(for name: String, pid: Int32, random: UInt32) -> String {
        let tail = "\(marker)\(pid)-\(random)"
        let room = 255 - 1 - tail.utf8.count
        var kept = ""
        var bytes = 0
        for character in name {
            let size = String(character).utf8.count
            guard bytes + size <= room else { break }
            kept.append(character)
            bytes += size
        }
        return ".\(kept.isEmpty ? "x" : kept)\(tail)"
    }

    /// The writing process's id, when `name` (a file name, no folder) is such a temporary name.
    public static func processID(inName name: String) -> Int32? {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
        let tail = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard tail.count == 2, let pid = Int32(tail[0]), pid > 0, UInt32(tail[1]) != nil, range.lowerBound > name.index(after: name.startIndex) else { return nil }
        return pid
    }

    /// The left-out reason for a hidden file, when it is a writer's temporary. Whether that
    /// process still runs is not asked: a report says the same of the same files.
    public static func leftOutReason(_ path: String) -> String? {
        guard let pid = processID(inName: (path as NSString).lastPathComponent) else { return nil }
        return "lpcheck's temporary file, left by a write of process \(pid) that was interrupted (or is still running): lpcheck repair or convert removes it once that process has ended"
    }
}
