import Foundation
import LivePhotoFormats

/// Objects of S3-compatible storage as lpcheck's files: `s3://BUCKET/KEY` paths, listed below
/// a prefix (ListObjectsV2, page by page) and read through `S3Source`.
public final class S3Files: @unchecked Sendable {
    public let client: S3Client
    private let lock = NSLock()
    /// What the listing said of each path: its reads carry the listed ETag.
    private var listed: [String: ListPage.Object] = [:]

    public init(client: S3Client) { self.client = client }

    public static let scheme = "s3://"

    public static func isS3(_ path: String) -> Bool { path.hasPrefix(scheme) }

    /// The bucket and key (or prefix) of an `s3://` path; nil when it names no bucket.
    public static func split(_ path: String) -> (bucket: String, key: String)? {
        guard isS3(path) else { return nil }
        let rest = path.dropFirst(scheme.count)
        let bucket = rest.prefix { $0 != "/" }
        guard !bucket.isEmpty else { return nil }
        return (String(bucket), String(rest.dropFirst(bucket.count + 1)))
    }

    /// What one listing found: the objects, and the keys refused by name (no URL encoding).
    public struct Listing: Sendable {
        public var objects: [(path: String, object: ListPage.Object)] = []
        public var refused: [(path: String, reason: String)] = []
    }

    /// Every object below `root` as a folder is below it: the object `root` names, or the keys
    /// under `root/` (a prefix ending in `/`, or none, takes everything under it). Keys ending
    /// in `/` (folder markers) are not files.
    public func list(_ root: String) throws -> [(path: String, object: ListPage.Object)] { try listing(root).objects }

    /// `list`, with the keys refused. A key listed twice is taken once; a continuation token
    /// that comes again, or more pages than `maxListPages`, end the listing with an error (a
    /// server that never stops would be followed forever).
    public func listing(_ root: String) throws -> Listing {
        guard let (bucket, prefix) = Self.split(root) else {
            throw S3Error(what: root, status: nil, code: "InvalidPath", message: "an s3:// path names a bucket: s3://BUCKET[/PREFIX]", retryable: false)
        }
        var found = Listing()
        var keys = Set<String>(), tokens = Set<String>()
        var token: String?
        var pages = 0
        repeat {
            guard pages < client.settings.maxListPages else {
                throw S3Error(what: root, status: nil, code: "ListingTooLong", message: "the listing went on past \(client.settings.maxListPages) pages (--max-list-pages)", retryable: false)
            }
            pages += 1
            let page = try client.list(bucket: bucket, prefix: prefix, continuation: token)
            for object in page.objects where !object.key.hasSuffix("/") && keys.insert(object.key).inserted {
                guard prefix.isEmpty || prefix.hasSuffix("/") || object.key == prefix || object.key.hasPrefix(prefix + "/") else { continue }
                found.objects.append(("\(Self.scheme)\(bucket)/\(object.key)", object))
            }
            found.refused += page.refusedKeys.map { ("\(Self.scheme)\(bucket)/\($0)", "the listing gives this key in no URL encoding; it is not read") }
            token = page.nextToken
            if let token, !tokens.insert(token).inserted {
                throw S3Error(what: root, status: nil, code: "ListingLoop",
                              message: "page \(pages) of the listing gave a continuation token of an earlier page again: it would never end", retryable: false)
            }
        } while token != nil
        lock.lock()
        for entry in found.objects { listed[entry.path] = entry.object }
        lock.unlock()
        return found
    }

    /// Whether two files (objects, or an object and a local file) hold the same bytes, compared
    /// a megabyte at a time through ranged GETs (nothing kept); false when either cannot be read.
    public func identical(_ first: String, _ second: String) -> Bool {
        guard let a = reader(first), let b = reader(second), a.size == b.size else { return false }
        return FileComparison.sameBytes(count: a.size, a.read, b.read)
    }

    /// Whether `movie` holds exactly the bytes `range` of `container`.
    public func identical(_ movie: String, to range: Range<Int64>, of container: String) -> Bool {
        guard let a = reader(movie), let b = reader(container), a.size == Int64(range.count), range.lowerBound >= 0, range.upperBound <= b.size else { return false }
        return FileComparison.sameBytes(count: a.size, a.read, { b.read(range.lowerBound + $0, $1) })
    }

    /// A path's size and a reader of its bytes that keeps nothing: an object by ranged GETs with
    /// its ETag (exactly the bytes asked for, else nil), a local file by `pread`.
    func reader(_ path: String) -> (size: Int64, read: (Int64, Int) -> [UInt8]?)? {
        guard let (bucket, key) = Self.split(path) else {
            guard let source = try? FileSource(path: path) else { return nil }
            return (source.size, { try? source.read(at: $0, count: $1) })
        }
        lock.lock()
        let object = listed[path]
        lock.unlock()
        var size = object?.size, etag = object?.etag
        if size == nil {
            guard let opened = try? S3Source(client: client, bucket: bucket, key: key) else { return nil }
            (size, etag) = (opened.size, opened.etag)
        }
        guard let size else { return nil }
        let client = client
        return (size, { offset, count in
            guard count > 0 else { return [] }
            guard let response = try? client.get(bucket: bucket, key: key, range: offset..<(offset + Int64(count)), ifMatch: etag),
                  response.body.count == count,
                  response.status == 206 ? response.rangeStart == offset : offset == 0 else { return nil }
            return response.body
        })
    }

    /// Reads one object as `MediaFile.inspect` reads a file; what the store refused is the
    /// file's error, naming the object and the answer.
    /// An object's bytes (`S3Source`, held to the listing's ETag and size).
    public func source(_ path: String) throws -> ByteSource {
        guard let (bucket, key) = Self.split(path), !key.isEmpty else { throw ParseError(.io, "not an object: s3://BUCKET/KEY", offset: 0) }
        lock.lock()
        let object = listed[path]
        lock.unlock()
        do {
            return try S3Source(client: client, bucket: bucket, key: key, etag: object?.etag, listedSize: object?.size)
        } catch let error as S3Error {
            throw ParseError(.io, error.description, offset: 0)
        }
    }

    public func inspect(_ path: String, options: InspectOptions) -> MediaFile {
        guard let (bucket, key) = Self.split(path), !key.isEmpty else {
            return MediaFile.unopened(path, ParseError(.io, "not an object: s3://BUCKET/KEY", offset: 0))
        }
        lock.lock()
        let object = listed[path]
        lock.unlock()
        do {
            let source = try S3Source(client: client, bucket: bucket, key: key, etag: object?.etag, listedSize: object?.size)
            return MediaFile.inspect(source: source, path: path, options: options)
        } catch let error as S3Error {
            return MediaFile.unopened(path, ParseError(.io, error.description, offset: 0))
        } catch let error as ParseError {
            return MediaFile.unopened(path, error)
        } catch {
            return MediaFile.unopened(path, ParseError(.io, "\(error)", offset: 0))
        }
    }
}
