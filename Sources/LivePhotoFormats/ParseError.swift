/// A reader's failure: what went wrong (a stable code), where (absolute byte offset and
/// box or segment path) and a sentence for people.
public struct ParseError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable {
        /// The data ends before a structure it announced.
        case truncated
        /// A size, count or offset contradicts the bytes around it.
        case invalidSize = "invalid-size"
        /// A value breaks the format's rules.
        case invalidValue = "invalid-value"
        /// Nesting, counts or payloads beyond lpcheck's resource limits.
        case limitExceeded = "limit-exceeded"
        /// Valid but not something lpcheck reads (kept apart from corrupt input).
        case unsupported
        /// The operating system refused a read.
        case io
        /// The sample tables put media data outside the file, or contradict each other about it.
        case outsideFile = "outside-file"
        /// A track's tables or sample entries contradict one another: sample counts that differ,
        /// a chunk naming a sample description that is not there, a decoder configuration that
        /// does not parse. Players decode such a track wrongly or not at all.
        case inconsistent
    }

    public var code: Code
    public var message: String
    /// Absolute byte offset in the file where the problem was found.
    public var offset: Int64
    /// Box or segment path such as `moov/trak[3]/mdia/minf/stbl/stsd`.
    public var path: String

    public init(_ code: Code, _ message: String, offset: Int64, path: String = "") {
        self.code = code
        self.message = message
        self.offset = offset
        self.path = path
    }

    public var description: String {
        let location = path.isEmpty ? "at byte \(offset)" : "at byte \(offset) in \(path)"
        return "\(code.rawValue): \(message) (\(location))"
    }
}

/// Resource limits for every reader. A file that needs more is refused with `.limitExceeded`.
public enum Limits {
    /// Deepest box or IFD nesting that is followed.
    public static let maxDepth = 32
    /// Largest `moov` or HEIF `meta` loaded into memory.
    public static let maxMetadataBoxBytes: Int64 = 64 << 20
    /// Largest Exif or XMP payload loaded into memory.
    public static let maxMetadataPayloadBytes: Int64 = 16 << 20
    /// Most boxes listed in one container or at the top level.
    public static let maxBoxesPerContainer = 100_000
    /// Most samples resolved for one track.
    public static let maxResolvedSamples = 5_000_000
    /// Most tracks, metadata keys, items, IFD entries.
    public static let maxTracks = 1024
    public static let maxKeys = 4096
    public static let maxItems = 65_536
    public static let maxIFDEntries = 4096
    /// Longest string decoded from a file.
    public static let maxStringBytes = 1 << 20
}
