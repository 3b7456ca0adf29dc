import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoObjectStore

/// How `s3://` paths are reached: `--endpoint-url` (an S3-compatible service, path-style
/// addressing) and `--region`; credentials come from the environment or `~/.aws/credentials`.
public struct ObjectStoreOptions: Sendable {
    public var endpoint: String?
    public var region: String?
    /// Seconds one try of a request may take, from connecting to its last byte.
    public var timeout: Double
    /// Pages one listing may take.
    public var maxListPages: Int
    public static let defaultTimeout = 30
    public static let defaultMaxListPages = 100_000

    public init(endpoint: String? = nil, region: String? = nil, timeout: Double = Double(defaultTimeout), maxListPages: Int = defaultMaxListPages) {
        (self.endpoint, self.region, self.timeout, self.maxListPages) = (endpoint, region, timeout, maxListPages)
    }

    /// Files read at once when a run reads object storage and `--jobs` is not given: requests
    /// wait on the network, not the cores (docs/scale.md: about 30 files in flight keep 50 ms
    /// requests busy).
    public static let defaultJobs = 32
}

/// The checker's view of object storage.
struct S3RemoteFiles: RemoteFiles {
    let files: S3Files
    func holds(_ path: String) -> Bool { S3Files.isS3(path) }
    func inspect(_ path: String, options: InspectOptions) -> MediaFile { files.inspect(path, options: options) }
    func source(_ path: String) throws -> ByteSource { try files.source(path) }
    func identical(_ first: String, _ second: String) -> Bool { files.identical(first, second) }
    func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool { files.identical(movie, to: range, of: container) }
}

extension FileStamp {
    /// An object's stamp: no device (0), its ETag's FNV-1a where a file has its inode, its size,
    /// and its Last-Modified time (nanoseconds) as both modified and changed. A cache row taken
    /// from a listing is used again only for the same ETag, size and time.
    init(object: ListPage.Object) {
        let nanoseconds = object.lastModified.map { Int64(($0 * 1e9).rounded()) } ?? 0
        self.init(device: 0, inode: FNV1a.of(object.etag.utf8), size: object.size, modified: nanoseconds, changed: nanoseconds)
    }
}

extension RunSettings {
    /// Whether any of `paths` is in object storage.
    static func namesObjects(_ paths: [String]) -> Bool { paths.contains(where: S3Files.isS3) }

    /// The object store's files, when `paths` name `s3://` locations; status 2 when no
    /// credentials or no usable endpoint are found.
    func objectStore(for paths: [String]) throws -> S3Files? {
        guard Self.namesObjects(paths) else { return nil }
        guard let credentials = S3Credentials.find() else {
            io.error("lpcheck: no credentials for s3:// paths: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials (AWS_PROFILE)")
            throw RunFailure(status: 2)
        }
        var endpoint: URL?
        if let text = objectStoreOptions.endpoint {
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                io.error("lpcheck: --endpoint-url \(text.terminalSafe): not an http:// or https:// address")
                throw RunFailure(status: 2)
            }
            endpoint = url
        }
        var settings = S3Client.Settings(endpoint: endpoint, region: objectStoreOptions.region ?? S3Credentials.region(), credentials: credentials)
        settings.timeout = objectStoreOptions.timeout
        settings.maxListPages = objectStoreOptions.maxListPages
        settings.userAgent = "lpcheck/\(Release.version)"
        return S3Files(client: S3Client(settings))
    }

    /// Says that `command` works on local files only when `paths` name objects; status 2.
    public func refuseObjects(_ paths: [String], command: String) throws { try Self.refuseObjects(paths, command: command, io: io) }

    static func refuseObjects(_ paths: [String], command: String, io: RunIO) throws {
        guard let object = paths.first(where: S3Files.isS3) else { return }
        io.error("lpcheck: \(command) writes local files only: \(object.terminalSafe) is in object storage (check and scan read it; download it to \(command) it)")
        throw RunFailure(status: 2)
    }

    /// What a run reads: the files below `paths` (local folders walked, `s3://` prefixes listed)
    /// and those named in `listed` (`--files-from`), in walk order, with stamps where the walk
    /// or the listing gave them. Status 2 when a listing fails.
    func find(_ paths: [String], listed: [String], discovery: Discovery, objects: S3Files?) throws -> Discovery.Result {
        let local = paths.filter { !S3Files.isS3($0) }
        var found = local.isEmpty ? Discovery.Result() : discovery.find(local)
        let stampsComplete = found.stamps.count == found.files.count
        var stamps = found.stamps
        if let objects {
            // A prefix given twice, or inside another given, lists its objects once (as a local
            // folder given twice is walked once).
            var taken = Set<String>()
            for root in paths where S3Files.isS3(root) {
                let listing: S3Files.Listing
                do {
                    listing = try objects.listing(root)
                } catch {
                    io.error("lpcheck: cannot list \(root.terminalSafe): \("\(error)".terminalSafe)")
                    throw RunFailure(status: 2)
                }
                found.problems += listing.refused
                let fresh = listing.objects.filter { taken.insert($0.path).inserted }
                let sorted = discovery.sorted(fresh.map { ($0.path, FileStamp(object: $0.object)) })
                found.files += sorted.files
                found.hidden += sorted.hidden
                stamps += sorted.stamps
            }
        }
        if !listed.isEmpty {
            let localListed = discovery.listed(listed.filter { !S3Files.isS3($0) })
            let remoteListed = discovery.sorted(listed.filter(S3Files.isS3).map { ($0, nil) }, stamped: false)
            for part in [localListed, remoteListed] {
                found.files += part.files
                found.hidden += part.hidden
                found.problems += part.problems
            }
        }
        // Stamps stand for the files only when every file has one (a cache asks with them).
        found.stamps = stampsComplete && stamps.count == found.files.count ? stamps : []
        return found
    }
}
