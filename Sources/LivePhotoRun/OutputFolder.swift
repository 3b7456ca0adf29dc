import Foundation
import LivePhotoFormats

/// The folder a writer (make, convert) writes into, made with its parents where missing; a
/// folder that cannot be made is said with the system's reason (a read-only file system, no
/// permission, a file in the way), status 2.
enum OutputFolder {
    static func make(_ path: String, io: RunIO) throws {
        var made = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, component) in components.enumerated() {
            made += (index == 0 ? "" : "/") + component
            guard !component.isEmpty, component != "." else { continue }
            var info = stat()
            if PathBytes.status(made, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    io.error("lpcheck: cannot make the output folder \(path.terminalSafe): \(made.terminalSafe) is not a folder")
                    throw RunFailure(status: 2)
                }
                continue
            }
            let status = PathBytes.withCString(made) { mkdir($0, 0o777) }
            guard status == 0 || errno == EEXIST else {
                io.error("lpcheck: cannot make the output folder \(path.terminalSafe): \(made.terminalSafe): \(String(cString: strerror(errno)))")
                throw RunFailure(status: 2)
            }
        }
    }
}
