internal import CCurlLoader
import Foundation

/// One libcurl easy handle (libcurl is loaded at run time, the first time one is made: a local
/// run never loads it). It keeps its connections from one request to the next; one thread uses
/// it at a time. The handle is freed with this object.
final class CurlHandle: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// What one request gave: an answer (any status), or a failure before one came.
    enum Outcome {
        case answered(status: Int, headers: [String: String], body: [UInt8])
        case failed(Failure)
    }

    struct Failure: Error {
        /// `Timeout`, `TooLarge` or `Connection`.
        var code: String
        var message: String
        var retryable: Bool
    }

    /// Whether libcurl can be loaded here, and why not.
    static func available() -> (Bool, String?) {
        var message: UnsafePointer<CChar>?
        let loaded = lpcheck_curl_available(&message) == 1
        return (loaded, message.map { String(cString: $0) })
    }

    init() throws {
        let (loaded, problem) = Self.available()
        guard loaded, let handle = lpcheck_curl_handle_new() else {
            throw Failure(code: "NoHTTPClient", message: problem ?? "libcurl could not make a handle", retryable: false)
        }
        self.handle = handle
    }

    deinit { lpcheck_curl_handle_free(handle) }

    /// One GET of `url` as given, with `headers` ("Name: value"), a body of at most `limit`
    /// bytes and `slack` more (an error's XML), and a deadline of `deadline` seconds for the
    /// whole request.
    func get(url: String, headers: [String], limit: Int, slack: Int, deadline: TimeInterval, connect: TimeInterval, userAgent: String) -> Outcome {
        var response = lpcheck_curl_response()
        let milliseconds = { (seconds: TimeInterval) -> Int in seconds.isFinite && seconds > 0 ? Int(min(seconds, 86_400) * 1000) : 1 }
        let status = withCStrings(headers) { lines in
            lpcheck_curl_get(handle, url, lines, Int32(headers.count), max(0, limit) + max(0, slack), milliseconds(deadline), milliseconds(connect), userAgent, &response)
        }
        defer { lpcheck_curl_response_free(&response) }
        let error = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard status == 0 else {
            if response.headers_too_large != 0 {
                return .failed(Failure(code: "TooLarge", message: "the server's header block passed 64 KiB", retryable: false))
            }
            if response.too_large != 0 {
                return .failed(Failure(code: "TooLarge", message: "the server sent more than the \(limit) bytes asked for", retryable: false))
            }
            if response.timed_out != 0 {
                return .failed(Failure(code: "Timeout", message: "no complete answer within the \(Self.seconds(deadline)) s deadline (\(error))", retryable: true))
            }
            return .failed(Failure(code: "Connection", message: error, retryable: true))
        }
        let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_count)) } ?? []
        let block = response.headers.map { String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: response.headers_count), as: UTF8.self) } ?? ""
        return .answered(status: response.status, headers: Self.fields(block), body: body)
    }

    /// A header block's fields by lower-cased name (the status line left out; a repeated field's
    /// last value).
    static func fields(_ block: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in block.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("HTTP/") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                var empty: UnsafePointer<CChar>? = nil
                return withUnsafePointer(to: &empty) { body($0) }
            }
            return body(base)
        }
    }
}
