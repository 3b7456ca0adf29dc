import Foundation
import LivePhotoFormats

/// What a scan found: the facts of every file discovery named, and what it could not read or
/// left unread. `lpcheck scan` writes it as records; `check --facts` reads it back.
public struct ScanResult: Sendable {
    public var roots: [String]
    public var files: [FileFacts]
    public var hidden: [String]
    public var problems: [(path: String, reason: String)]
    /// Records read from facts files that repeated an earlier record of the same path byte for
    /// byte (a shard passed twice): kept once.
    public var repeatedRecords = 0

    public init(roots: [String], files: [FileFacts], hidden: [String], problems: [(path: String, reason: String)]) {
        self.roots = roots
        self.files = files
        self.hidden = hidden
        self.problems = problems
    }
}
