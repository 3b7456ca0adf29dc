import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for S3 and S3-compatible object storage: ranged GETs of one object and
/// ListObjectsV2 pages, signed with Signature Version 4, with timeouts, bounded bodies and
/// retries (backoff with jitter) on 5xx, throttling, cut connections and cut bodies. Calls
/// block the calling thread; many threads may call at once (`check` reads files on `--jobs`
/// threads, each waiting on its own requests).
public final class S3Client: @unchecked Sendable {
    public struct Settings: Sendable {
        /// `https://s3.REGION.amazonaws.com` by default; `--endpoint-url` for other services.
        public var endpoint: URL
        public var region: String
        public var credentials: S3Credentials
        /// Bucket in the path (`endpoint/bucket/key`), as S3-compatible services expect; else
        /// in the host name (`bucket.s3.REGION.amazonaws.com`).
        public var pathStyle: Bool
        /// Seconds a request may wait for its next bytes.
        public var timeout: TimeInterval = 30
        /// Tries of one request at most (the first and its retries).
        public var attempts = 4
        /// The first retry's wait in seconds; each next one doubles it, with jitter.
        public var backoff: TimeInterval = 0.2
        public var connections = 64
        /// Keys a listing page asks for (nil: the service's default, 1,000 on S3).
        public var pageSize: Int?

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
    /// Sessions with their delegates, taken in turn: one FoundationNetworking session on Linux
    /// keeps two connections to a host whatever `httpMaximumConnectionsPerHost` says (measured
    /// through the test fixture's proxy: 151 requests of 32 files at once on 2 connections), so
    /// concurrency comes from several sessions.
    private let sessions: [(session: URLSession, limiter: BodyLimiter)]
    private let lock = NSLock()
    private var counted = Counters()
    private var turn = 0

    public init(_ settings: Settings) {
        self.settings = settings
        signer = SignatureV4(credentials: settings.credentials, region: settings.region)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.timeout
        configuration.timeoutIntervalForResource = settings.timeout * 4
        configuration.httpMaximumConnectionsPerHost = settings.connections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        sessions = (0..<max(1, settings.connections / 2)).map { _ in
            let limiter = BodyLimiter()
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return (URLSession(configuration: configuration, delegate: limiter, delegateQueue: queue), limiter)
        }
    }

    deinit { for entry in sessions { entry.session.invalidateAndCancel() } }

    /// The next session in turn.
    private func nextSession() -> (session: URLSession, limiter: BodyLimiter) {
        lock.lock()
        defer { lock.unlock() }
        turn = (turn + 1) % sessions.count
        return sessions[turn]
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
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.timeoutInterval = settings.timeout
        for (name, value) in signer.signedHeaders(method: "GET", host: host, path: path, query: query, headers: headers) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        // No compression: the lengths checked are the bytes asked for.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let (session, limiter) = nextSession()
        let outcome = limiter.run(session.dataTask(with: request), limit: limit)
        if let failure = outcome.error {
            throw S3Error(what: what, status: nil, code: "Connection", message: failure, retryable: true)
        }
        guard let http = outcome.response else {
            throw S3Error(what: what, status: nil, code: "Connection", message: "no HTTP response", retryable: true)
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        let response = Response(status: http.statusCode, headers: fields, body: outcome.body)
        if let expected = fields["content-length"].flatMap(Int.init), expected != outcome.body.count {
            throw S3Error(what: what, status: http.statusCode, code: "IncompleteBody", message: "the body ended after \(outcome.body.count) of \(expected) bytes", retryable: true)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw S3Error(response: response, what: what)
        }
        return response
    }
}

/// Collects each task's body up to its limit (a longer body is cancelled and reported), so no
/// server can make a request allocate more than it asked for.
final class BodyLimiter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome {
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var error: String?
    }

    private final class Pending {
        let limit: Int
        var outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        init(limit: Int) { self.limit = limit }
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    func run(_ task: URLSessionDataTask, limit: Int) -> Outcome {
        let entry = Pending(limit: limit)
        lock.lock()
        pending[task.taskIdentifier] = entry
        lock.unlock()
        task.resume()
        entry.done.wait()
        return entry.outcome
    }

    private func entry(_ task: URLSessionTask) -> Pending? {
        lock.lock()
        defer { lock.unlock() }
        return pending[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        entry(dataTask)?.outcome.response = response as? HTTPURLResponse
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let entry = entry(dataTask) else { return }
        // Error bodies (XML) are small; a body past the limit (and 64 KiB for an error) is cut.
        if entry.outcome.body.count + data.count > entry.limit + 65_536 {
            entry.outcome.error = "the server sent more than the \(entry.limit) bytes asked for"
            dataTask.cancel()
            return
        }
        entry.outcome.body += data
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let entry = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let entry else { return }
        if let error, entry.outcome.error == nil { entry.outcome.error = error.localizedDescription }
        entry.done.signal()
    }
}
