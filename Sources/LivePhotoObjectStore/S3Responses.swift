import Foundation

/// A request that failed: what was asked for, the HTTP status and S3's error code.
public struct S3Error: Error, CustomStringConvertible, Sendable {
    public var what: String
    public var status: Int?
    public var code: String
    public var message: String
    public var retryable: Bool
    /// `Retry-After` in seconds, when the server gave one.
    public var retryAfter: TimeInterval?

    public init(what: String, status: Int?, code: String, message: String, retryable: Bool, retryAfter: TimeInterval? = nil) {
        (self.what, self.status, self.code, self.message, self.retryable, self.retryAfter) = (what, status, code, message, retryable, retryAfter)
    }

    /// An error response: its XML `Code` and `Message` when it has them.
    init(response: S3Client.Response, what: String) {
        let fields = SimpleXML.fields(response.body, ["Code", "Message"])
        let status = response.status
        let code = fields["Code"] ?? "HTTP\(status)"
        let throttled = status == 429 || code == "SlowDown" || code == "Throttling" || code == "RequestTimeout"
        self.init(what: what, status: status, code: code, message: fields["Message"] ?? "",
                  retryable: status >= 500 || throttled, retryAfter: response.headers["retry-after"].flatMap(TimeInterval.init))
    }

    /// A redirect (3xx), never followed: credentials go to the endpoint only, and an answer from
    /// another host is not the object's. S3's `PermanentRedirect` (a bucket in another region)
    /// names the region or endpoint to use.
    init(redirect response: S3Client.Response, what: String, endpoint: URL) {
        let fields = SimpleXML.fields(response.body, ["Code", "Message", "Endpoint", "Region"])
        let region = response.headers["x-amz-bucket-region"] ?? fields["Region"]
        var message = "the server redirected the request"
        if let location = response.headers["location"], let host = URLComponents(string: location)?.host { message += " to \(host)" }
        message += "; lpcheck sends requests to the endpoint (\(endpoint.host ?? endpoint.absoluteString)) only and did not follow it"
        if let region, !region.isEmpty {
            message += ": the bucket is in \(region), use --region \(region)"
        } else if let other = fields["Endpoint"], !other.isEmpty {
            message += ": the bucket is served by \(other), use --endpoint-url https://\(other)"
        }
        self.init(what: what, status: response.status, code: fields["Code"] ?? "Redirect", message: message, retryable: false)
    }

    public var description: String {
        let detail = message.isEmpty ? code : "\(code): \(message)"
        switch status {
        case 403: return "\(what): access denied (403 \(detail)); check the credentials (AWS_ACCESS_KEY_ID, AWS_PROFILE) and the bucket's policy"
        case 404: return "\(what): not found (404 \(detail))"
        case 412: return "\(what): the object changed since it was listed (412 \(detail))"
        case let status?: return "\(what): HTTP \(status) (\(detail))"
        case nil: return "\(what): \(message)"
        }
    }
}

/// One ListObjectsV2 page: the objects, and the token of the next page when there is one.
public struct ListPage: Sendable {
    public struct Object: Sendable, Equatable {
        public var key: String
        public var size: Int64
        public var etag: String
        /// Seconds since 1970 (the XML's ISO 8601 time), nil when it cannot be read.
        public var lastModified: Double?
    }

    public var objects: [Object] = []
    public var nextToken: String?
    /// Keys that are no URL encoding, as the server sent them: refused by name, not read (the
    /// object they name cannot be asked for as listed).
    public var refusedKeys: [String] = []

    init(xml: [UInt8], bucket: String) throws {
        let contents = SimpleXML.elements(xml, "Contents")
        for element in contents {
            let fields = SimpleXML.fields(element, ["Key", "Size", "ETag", "LastModified"])
            guard let encoded = fields["Key"], let size = fields["Size"].flatMap(Int64.init), size >= 0 else {
                throw S3Error(what: "s3://\(bucket)", status: nil, code: "BadListing", message: "a listed object without a key or size", retryable: false)
            }
            guard let key = encoded.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                refusedKeys.append(encoded)
                continue
            }
            objects.append(Object(key: key, size: size, etag: fields["ETag"] ?? "", lastModified: fields["LastModified"].flatMap(Self.seconds)))
        }
        let top = SimpleXML.fields(xml, ["IsTruncated", "NextContinuationToken"])
        if top["IsTruncated"] == "true" {
            guard let token = top["NextContinuationToken"], !token.isEmpty else {
                throw S3Error(what: "s3://\(bucket)", status: nil, code: "BadListing", message: "a truncated listing without a continuation token", retryable: false)
            }
            nextToken = token
        }
    }

    /// `2026-11-27T05:49:23.000Z`.
    static func seconds(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}

/// Just enough XML for S3's flat responses: the text of the first element of a name, and the
/// contents of every element of a name, with the five entities and character references
/// decoded. No recursion; every scan is linear in the body.
enum SimpleXML {
    static func elements(_ xml: [UInt8], _ name: String) -> [[UInt8]] {
        let open = Array("<\(name)>".utf8), close = Array("</\(name)>".utf8)
        var found: [[UInt8]] = []
        var index = 0
        while let start = find(open, in: xml, from: index), let end = find(close, in: xml, from: start + open.count) {
            found.append(Array(xml[(start + open.count)..<end]))
            index = end + close.count
        }
        return found
    }

    static func fields(_ xml: [UInt8], _ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let open = Array("<\(name)>".utf8), close = Array("</\(name)>".utf8)
            guard let start = find(open, in: xml, from: 0), let end = find(close, in: xml, from: start + open.count) else { continue }
            values[name] = decode(Array(xml[(start + open.count)..<end]))
        }
        return values
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = from
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static func decode(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let scalar: UInt32? = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let scalar, let character = Unicode.Scalar(scalar) { out.unicodeScalars.append(character) } else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
