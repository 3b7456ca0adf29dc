internal import CCurlLoader
import Foundation

/// A client for S3 and S3-compatible object storage: ranged GETs of one object and
/// ListObjectsV2 pages, signed with Signature Version 4, with a deadline on every try, bounded
/// bodies and retries (backoff with jitter) on 5xx, throttling, cut connections and cut bodies.
/// Requests go through libcurl, loaded at run time (`CurlHandle`), only to the endpoint: no
/// redirect is followed, no dot segment of a key is removed. Calls block the calling thread in
/// poll(2); many threads may call at once (`check` reads files on `--jobs` threads, each
/// waiting on its own requests).
public final class S3Client: @unchecked Sendable {
    public struct Settings: Sendable {
        /// `https://s3.REGION.amazonaws.com` by default; `--endpoint-url` for other services.
        public var endpoint: URL
        public var region: String
        public var credentials: S3Credentials
        /// Bucket in the path (`endpoint/bucket/key`), as S3-compatible services expect; else
        /// in the host name (`bucket.s3.REGION.amazonaws.com`).
        public var pathStyle: Bool
        /// Seconds one try of a request may take, from connecting to its last byte: a deadline
        /// for the whole try, not a limit on idle gaps (a server sending a byte a second is
        /// abandoned when it passes). `--timeout`.
        public var timeout: TimeInterval = 30
        /// Seconds connecting may take (within `timeout`).
        public var connectTimeout: TimeInterval = 10
        /// Tries of one request at most (the first and its retries).
        public var attempts = 4
        /// The first retry's wait in seconds; each next one doubles it, with jitter.
        public var backoff: TimeInterval = 0.2
        public var connections = 64
        /// The `User-Agent` header.
        public var userAgent = "lpcheck"
        /// Keys a listing page asks for (nil: the service's default, 1,000 on S3).
        public var pageSize: Int?
        /// Pages one listing may take (`--max-list-pages`): 100,000 pages are 100 million keys
        /// on S3. A server that never stops is refused there, or sooner when it repeats a token.
        public var maxListPages = 100_000

        public init(endpoint: URL?, region: String, credentials: S3Credentials) {
            self.region = region
            self.credentials = credentials
            if let endpoint {
                self.endpoint = endpoint
                pathStyle = true
            } else {
                self.endpoint = URL(string: "https://s3.\(region).amazonaws.com") ?? URL(fileURLWithPath: "/")
                pathStyle = false
            }
        }
    }

    /// Requests and bytes: what a test or `--stats` reads.
    public struct Counters: Sendable, Equatable {
        public var gets = 0
        public var lists = 0
        public var bodyBytes: Int64 = 0
        public var retries = 0
    }

    public let settings: Settings
    private let signer: SignatureV4
    /// libcurl handles not in use: each keeps its connections for the next request.
    private var idle: [CurlHandle] = []
    private let lock = NSLock()
    private var counted = Counters()

    public init(_ settings: Settings) {
        self.settings = settings
        signer = SignatureV4(credentials: settings.credentials, region: settings.region)
    }

    /// A handle for one request, an idle one when there is one.
    private func takeHandle() throws -> CurlHandle {
        lock.lock()
        let handle = idle.popLast()
        lock.unlock()
        return try handle ?? CurlHandle()
    }

    private func putBack(_ handle: CurlHandle) {
        lock.lock()
        if idle.count < settings.connections { idle.append(handle) }
        lock.unlock()
    }

    public var counters: Counters {
        lock.lock()
        defer { lock.unlock() }
        return counted
    }

    func count(_ change: (inout Counters) -> Void) {
        lock.lock()
        change(&counted)
        lock.unlock()
    }

    /// One object's bytes `range` (end exclusive), or from `range.lowerBound` to its end when
    /// `range` is nil. `ifMatch` (an ETag) refuses an object that changed since it was listed.
    public func get(bucket: String, key: String, range: Range<Int64>, ifMatch: String? = nil) throws -> Response {
        var headers = [("range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")]
        if let ifMatch { headers.append(("if-match", ifMatch)) }
        let response = try send(bucket: bucket, key: key, query: [], headers: headers, limit: Int(range.count), what: "s3://\(bucket)/\(key)")
        count { $0.gets += 1; $0.bodyBytes += Int64(response.body.count) }
        return response
    }

    /// One page of ListObjectsV2 (keys URL-encoded on the wire, decoded here).
    public func list(bucket: String, prefix: String, continuation: String?) throws -> ListPage {
        var query = [(name: "list-type", value: "2"), (name: "encoding-type", value: "url")]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let continuation { query.append(("continuation-token", continuation)) }
        if let pageSize = settings.pageSize { query.append(("max-keys", String(pageSize))) }
        let response = try send(bucket: bucket, key: "", query: query, headers: [], limit: 16 << 20, what: "s3://\(bucket)/\(prefix)")
        count { $0.lists += 1; $0.bodyBytes += Int64(response.body.count) }
        return try ListPage(xml: response.body, bucket: bucket)
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]

        /// `Content-Range: bytes A-B/TOTAL`'s A.
        public var rangeStart: Int64? {
            guard let value = headers["content-range"], value.hasPrefix("bytes "), let dash = value.firstIndex(of: "-") else { return nil }
            return Int64(value[value.index(value.startIndex, offsetBy: 6)..<dash])
        }

        /// `Content-Range: bytes A-B/TOTAL`'s total.
        public var totalSize: Int64? {
            guard let value = headers["content-range"], let slash = value.lastIndex(of: "/") else { return nil }
            return Int64(value[value.index(after: slash)...])
        }
    }

    /// The URL and the path signed for an object (or the bucket, for an empty key).
    func address(bucket: String, key: String, query: [(name: String, value: String)]) -> (url: URL, host: String, path: String)? {
        guard var parts = URLComponents(url: settings.endpoint, resolvingAgainstBaseURL: false), let endpointHost = parts.host else { return nil }
        let base = parts.percentEncodedPath.hasSuffix("/") ? String(parts.percentEncodedPath.dropLast()) : parts.percentEncodedPath
        let encodedKey = SignatureV4.encode(key, keepSlash: true)
        let path: String
        if settings.pathStyle {
            path = base + "/" + SignatureV4.encode(bucket) + (key.isEmpty ? "" : "/" + encodedKey)
        } else {
            parts.host = bucket + "." + endpointHost
            path = base + "/" + encodedKey
        }
        parts.percentEncodedPath = path
        parts.percentEncodedQuery = query.isEmpty ? nil : SignatureV4.canonicalQuery(query)
        guard let url = parts.url, let host = parts.host else { return nil }
        return (url, parts.port.map { "\(host):\($0)" } ?? host, path)
    }

    func send(bucket: String, key: String, query: [(name: String, value: String)], headers: [(name: String, value: String)], limit: Int, what: String) throws -> Response {
        guard let (url, host, path) = address(bucket: bucket, key: key, query: query) else {
            throw S3Error(what: what, status: nil, code: "InvalidAddress", message: "no URL can be made from the endpoint \(settings.endpoint)", retryable: false)
        }
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try once(url: url, host: host, path: path, query: query, headers: headers, limit: limit, what: what)
            } catch let error as S3Error where error.retryable && attempt < settings.attempts {
                count { $0.retries += 1 }
                let wait = min(error.retryAfter ?? settings.backoff * pow(2, Double(attempt - 1)) * Double.random(in: 0.5...1.5), 10)
                Thread.sleep(forTimeInterval: wait)
            }
        }
    }

    private func once(url: URL, host: String, path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)], limit: Int, what: String) throws -> Response {
        var lines = signer.signedHeaders(method: "GET", host: host, path: path, query: query, headers: headers).map { "\($0.name): \($0.value)" }
        // No compression: the lengths checked are the bytes asked for.
        lines.append("Accept-Encoding: identity")
        let handle: CurlHandle
        do {
            handle = try takeHandle()
        } catch let failure as CurlHandle.Failure {
            // No libcurl here: every request would fail alike.
            throw S3Error(what: what, status: nil, code: failure.code, message: failure.message, retryable: false)
        }
        // Error bodies (XML) are small: a body may pass what was asked by 64 KiB at most.
        let outcome = handle.get(url: url.absoluteString, headers: lines, limit: limit, slack: 65_536, deadline: settings.timeout,
                                 connect: min(settings.connectTimeout, settings.timeout), userAgent: settings.userAgent)
        putBack(handle)
        let response: Response
        switch outcome {
        case .failed(let failure):
            throw S3Error(what: what, status: nil, code: failure.code, message: failure.message, retryable: failure.retryable)
        case .answered(let status, let fields, let body):
            response = Response(status: status, headers: fields, body: body)
        }
        if let expected = response.headers["content-length"].flatMap(Int.init), expected != response.body.count {
            throw S3Error(what: what, status: response.status, code: "IncompleteBody", message: "the body ended after \(response.body.count) of \(expected) bytes", retryable: true)
        }
        if (300..<400).contains(response.status) {
            throw S3Error(redirect: response, what: what, endpoint: settings.endpoint)
        }
        guard (200..<300).contains(response.status) else {
            throw S3Error(response: response, what: what)
        }
        return response
    }
}
