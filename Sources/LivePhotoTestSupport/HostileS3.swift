import Foundation

/// `Scripts/hostile_s3.py` as a child process: a bucket of local files on 127.0.0.1 that answers
/// as a broken or malicious server would (`mode`), with a sink server beside it that logs whatever
/// reaches it. Stopped when released or when `stop` is called.
public final class HostileS3: @unchecked Sendable {
    public let endpoint: String
    public let sink: String
    public let bucket: String
    public let log: URL
    private let process: Process
    private let input: Pipe

    /// Whether the script can run here: python3.
    public static let available = Locations.tool("python3") != nil

    /// Serves each folder below its prefix and each `objects` entry (key → file) under its key.
    public init(mode: String, serving: [(folder: String, prefix: String)] = [], objects: [(key: String, file: String)] = []) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-hostile-\(UUID().uuidString).ndjson")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Locations.tool("python3") ?? "/usr/bin/python3")
        process.arguments = [Locations.packageRoot.appendingPathComponent("Scripts/hostile_s3.py").path, "--log", log.path, "--mode", mode]
            + serving.flatMap { ["--serve", "\($0.folder)=\($0.prefix)"] } + objects.flatMap { ["--object", "\($0.key)=\($0.file)"] }
        input = Pipe()
        let object = try ChildServer.start(process, input: input, name: "the hostile S3 server")
        guard let endpoint = object["endpoint"] as? String, let sink = object["sink"] as? String, let bucket = object["bucket"] as? String else {
            process.terminate()
            throw FixtureError(message: "the hostile S3 server did not say where it is: \(object)")
        }
        (self.endpoint, self.sink, self.bucket) = (endpoint, sink, bucket)
    }

    /// The server stopped and its log removed: a test leaves no file behind.
    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One request as a server saw it.
    public struct Request: Decodable, Sendable {
        /// `bucket` or `sink`.
        public var server: String
        public var method: String
        /// The request target exactly as sent.
        public var path: String
        public var range: String?
        /// Whether it carried `Authorization` or `X-Amz-Security-Token`.
        public var credentials: Bool
        public var userAgent: String?
        public var status: Int
    }

    public func requests() throws -> [Request] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// The environment a command needs: any key will do, the server checks no signature.
    public static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = "AKIDHOSTILETEST"
        environment["AWS_SECRET_ACCESS_KEY"] = "hostile-test-secret"
        for name in ["AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"] { environment[name] = nil }
        return environment
    }
}
