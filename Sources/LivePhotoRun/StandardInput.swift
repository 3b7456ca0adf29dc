#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePhotoCheck
import LivePhotoFormats

/// `-` as a path: one file read from standard input (`dump -`, `check -`), held in memory, at
/// most `maxBytes`; a file larger than that is refused before more is read.
public enum StandardInput {
    public static let path = "-"
    public static let maxBytes = 1 << 30

    /// Standard input's bytes; status 2 when it is larger than `maxBytes` or cannot be read.
    static func bytes(io: RunIO) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                io.error("lpcheck: standard input cannot be read: \(String(cString: strerror(errno)))")
                throw RunFailure(status: 2)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                io.error("lpcheck: standard input holds more than \(maxBytes >> 20) MiB, the most lpcheck reads from it: give the file's path")
                throw RunFailure(status: 2)
            }
            bytes += chunk[0..<count]
        }
    }
}

/// Standard input's file as the checker reads a file it does not open itself.
struct StandardInputFile: RemoteFiles {
    let bytes: [UInt8]
    func holds(_ path: String) -> Bool { path == StandardInput.path }
    func inspect(_ path: String, options: InspectOptions) -> MediaFile { MediaFile.inspect(source: MemorySource(bytes), path: path, options: options) }
    func source(_ path: String) throws -> ByteSource { MemorySource(bytes) }
    func identical(_ first: String, _ second: String) -> Bool { first == second }
    func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool { false }
}
