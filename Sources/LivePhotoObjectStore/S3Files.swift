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

    /// Every object below `root` as a folder is below it: the object `root` names, or the keys
    /// under `root/` (a prefix ending in `/`, or none, takes everything under it). Keys ending
    /// in `/` (folder markers) are not files.
    public func list(_ root: String) throws -> [(path: String, object: ListPage.Object)] {
        guard let (bucket, prefix) = Self.split(root) else {
            throw S3Error(what: root, status: nil, code: "InvalidPath", message: "an s3:// path names a bucket: s3://BUCKET[/PREFIX]", retryable: false)
        }
        var found: [(path: String, object: ListPage.Object)] = []
        var token: String?
        repeat {
            let page = try client.list(bucket: bucket, prefix: prefix, continuation: token)
            for object in page.objects where !object.key.hasSuffix("/") {
                guard prefix.isEmpty || prefix.hasSuffix("/") || object.key == prefix || object.key.hasPrefix(prefix + "/") else { continue }
                found.append(("\(Self.scheme)\(bucket)/\(object.key)", object))
            }
            token = page.nextToken
        } while token != nil
        lock.lock()
        for entry in found { listed[entry.path] = entry.object }
        lock.unlock()
        return found
    }

    /// Reads one object as `MediaFile.inspect` reads a file; what the store refused is the
    /// file's error, naming the object and the answer.
    public func inspect(_ path: String, options: InspectOptions) -> MediaFile {
        guard let (bucket, key) = Self.split(path), !key.isEmpty else {
            return MediaFile.unopened(path, ParseError(.io, "not an object: s3://BUCKET/KEY", offset: 0))
        }
        lock.lock()
        let object = listed[path]
        lock.unlock()
        do {
            let source = try S3Source(client: client, bucket: bucket, key: key, etag: object?.etag)
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
