import Foundation
import LivePhotoFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SafeFileWriter {
    /// Every input of a run, by name and by file (device and inode, taken once): an output that
    /// is any of them is refused, not only one of its own item's (`export DIR -o DIR --force`
    /// must not replace another input with what is made from a third).
    public struct RunInputs: Sendable {
        var names: Set<String> = []
        var files: Set<[UInt64]> = []
        public init(_ paths: [String]) {
            for path in paths {
                names.insert(path)
                var info = stat()
                if PathBytes.status(path, &info) == 0 { files.insert([UInt64(info.st_dev), UInt64(info.st_ino)]) }
            }
        }

        /// Why `destination` may not be written (it is one of the inputs), or nil.
        public func refusal(_ destination: String) -> String? {
            var info = stat()
            guard names.contains(destination) || (PathBytes.status(destination, &info) == 0 && files.contains([UInt64(info.st_dev), UInt64(info.st_ino)])) else { return nil }
            return "\(destination) is an input of this run: it would be replaced by what is made from another; choose another --output"
        }
    }
}
