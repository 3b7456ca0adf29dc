import Foundation
import LivePhotoFormats

/// AWS Signature Version 4 for S3 requests (header form): the canonical request, the string to
/// sign and the `Authorization` header, from the request's parts and a fixed time. Pure, so a
/// test compares every step with botocore's for the same inputs.
public struct SignatureV4: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service = "s3"

    public init(credentials: S3Credentials, region: String) {
        (self.credentials, self.region) = (credentials, region)
    }

    /// A request as it is signed: the path already percent-encoded (S3 signs it as sent, without
    /// normalising), query items not yet encoded, headers by name.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [(name: String, value: String)]
        public var headers: [(name: String, value: String)]
        public var payloadHash: String

        public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)], payloadHash: String = SignatureV4.emptyPayloadHash) {
            (self.method, self.path, self.query, self.headers, self.payloadHash) = (method, path, query, headers, payloadHash)
        }
    }

    /// The SHA-256 of no bytes: the payload hash of a GET.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `20261127T055923Z` and `20261127` for a time.
    public static func stamps(_ date: Date) -> (time: String, day: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let value = value ?? 0; return value < 10 ? "0\(value)" : "\(value)" }
        let day = "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))"
        return ("\(day)T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z", day)
    }

    /// A–Z a–z 0–9 - _ . ~
    private static let unreserved: [Bool] = (0..<256).map { byte in
        let character = Character(Unicode.Scalar(UInt8(byte)))
        return (character.isASCII && (character.isLetter || character.isNumber)) || "-_.~".contains(character)
    }

    /// Percent-encoding of SigV4: everything but unreserved characters (A–Z a–z 0–9 - _ . ~),
    /// and `/` too when `slash` is false.
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out = [UInt8]()
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if unreserved[Int(byte)] || (keepSlash && byte == 0x2F) {
                out.append(byte)
            } else {
                out.append(0x25)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        // Encoded, so ASCII: String order is byte order.
        let encoded: [(name: String, value: String)] = query.map { (encode($0.name), encode($0.value)) }
        let sorted = encoded.sorted { (left: (name: String, value: String), right: (name: String, value: String)) -> Bool in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// Header names lowercased, values with surrounding and repeated inner spaces folded, sorted by name.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header in
            let folded = header.value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            return (header.name.lowercased(), folded)
        }.sorted { $0.name < $1.name }
    }

    public func canonicalRequest(_ request: Request) -> String {
        let headers = Self.canonicalHeaders(request.headers)
        return [request.method, request.path, Self.canonicalQuery(request.query),
                headers.map { "\($0.name):\($0.value)\n" }.joined(), headers.map(\.name).joined(separator: ";"), request.payloadHash]
            .joined(separator: "\n")
    }

    public func scope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    public func stringToSign(_ request: Request, time: String, day: String) -> String {
        ["AWS4-HMAC-SHA256", time, scope(day: day), SHA256.hex(SHA256.hash(Array(canonicalRequest(request).utf8)))].joined(separator: "\n")
    }

    public func signature(_ request: Request, time: String, day: String) -> String {
        var key = SHA256.hmac(key: Array("AWS4\(credentials.secretKey)".utf8), Array(day.utf8))
        for part in [region, service, "aws4_request"] { key = SHA256.hmac(key: key, Array(part.utf8)) }
        return SHA256.hex(SHA256.hmac(key: key, Array(stringToSign(request, time: time, day: day).utf8)))
    }

    /// The headers to send with a request to `host`: the request's own, `host`, `x-amz-date`,
    /// `x-amz-content-sha256`, the session token when there is one, and `Authorization`.
    public func signedHeaders(method: String, host: String, path: String, query: [(name: String, value: String)] = [],
                              headers: [(name: String, value: String)] = [], date: Date = Date()) -> [(name: String, value: String)] {
        let (time, day) = Self.stamps(date)
        var all = headers + [("host", host), ("x-amz-date", time), ("x-amz-content-sha256", Self.emptyPayloadHash)]
        if let token = credentials.sessionToken { all.append(("x-amz-security-token", token)) }
        let request = Request(method: method, path: path, query: query, headers: all)
        let names = Self.canonicalHeaders(all).map(\.name).joined(separator: ";")
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope(day: day)), SignedHeaders=\(names), Signature=\(signature(request, time: time, day: day))"
        return all.filter { $0.name != "host" } + [("Authorization", authorization)]
    }
}
