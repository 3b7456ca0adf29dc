import LivePhotoFormats

/// Files kept elsewhere than on a local file system (objects in S3-compatible storage), read
/// through a `ByteSource` of their own. The run layer gives the checker one for `s3://` paths;
/// everything after reading (pairing, rules, reports) is the same.
public protocol RemoteFiles: Sendable {
    /// Whether `path` names a file kept there.
    func holds(_ path: String) -> Bool
    /// A file's reading, as `MediaFile.inspect` gives a local file's (a failure is the file's
    /// `error`, with the path and what the store answered).
    func inspect(_ path: String, options: InspectOptions) -> MediaFile
    /// A file's bytes, read as they are asked for (a `.livp`'s members are read through windows
    /// of it); a failure names the object and what the store answered.
    func source(_ path: String) throws -> ByteSource
    /// Whether two files (either kept here) hold the same bytes, compared byte for byte as
    /// `FileComparison` compares local files; false when either cannot be read.
    func identical(_ first: String, _ second: String) -> Bool
    /// Whether `movie` holds exactly the bytes `range` of `container`.
    func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool
}
