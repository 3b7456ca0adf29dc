import Foundation

/// A bucket on loopback (moto, with IAM authentication on) behind a logging proxy:
/// `Scripts/s3_fixture.py`, started as a child process and stopped when this is released or
/// `stop` is called. Nothing but 127.0.0.1 is contacted.
public final class S3Fixture: @unchecked Sendable {
    public let endpoint: String
    public let bucket: String
    public let accessKey: String
    public let secretKey: String
    /// Keys the fixture renamed (moto cannot check signatures over some characters) → the
    /// keys the files' names make.
    public let renamed: [String: String]
    public let log: URL
    private let process: Process
    private let input: Pipe

    /// Whether the fixture can run here: python3 with moto's server and boto3.
    public static let available: Bool = {
        guard let python = Locations.tool("python3") else { return false }
        return (try? ProcessResult.run(python, ["-c", "import moto.server, boto3, flask_cors"]).status) == 0
    }()

    /// Uploads each folder below its prefix; `arguments` go to the script (`--latency-ms`, `--fault`).
    public init(uploads: [(folder: String, prefix: String)], arguments: [String] = []) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-s3-\(UUID().uuidString).ndjson")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // A fixture held for the whole run is never deinitialised.
        RemovedAtExit.register(log)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Locations.tool("python3") ?? "/usr/bin/python3")
        process.arguments = [Locations.packageRoot.appendingPathComponent("Scripts/s3_fixture.py").path, "--log", log.path]
            + uploads.flatMap { ["--upload", "\($0.folder)=\($0.prefix)"] } + arguments
        input = Pipe()
        let object = try ChildServer.start(process, input: input, name: "the S3 fixture")
        guard let endpoint = object["endpoint"] as? String, let bucket = object["bucket"] as? String,
              let accessKey = object["accessKey"] as? String, let secretKey = object["secretKey"] as? String else {
            process.terminate()
            throw FixtureError(message: "the S3 fixture did not say where it is: \(object)")
        }
        (self.endpoint, self.bucket, self.accessKey, self.secretKey) = (endpoint, bucket, accessKey, secretKey)
        renamed = object["renamed"] as? [String: String] ?? [:]
    }

    /// The bucket stopped and its log removed: a test leaves no file behind.
    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The environment a command needs for the bucket (`secret` to try another).
    public func environment(secret: String? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = accessKey
        environment["AWS_SECRET_ACCESS_KEY"] = secret ?? secretKey
        for name in ["AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"] { environment[name] = nil }
        return environment
    }

    /// The proxy's log: one entry a request, in the order they were answered.
    public struct Request: Decodable, Sendable {
        public var method: String
        public var path: String
        public var range: String?
        public var bytes: Int
    }

    public func requests() throws -> [Request] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// Empties the log (requests before this are not counted).
    public func clearLog() throws { try Data().write(to: log) }

    /// `s3://bucket/key` paths in `text` of renamed keys back to the keys their files' names make.
    public func original(_ text: String) -> String {
        var text = text
        for (key, original) in renamed {
            text = text.replacingOccurrences(of: "s3://\(bucket)/\(key)", with: "s3://\(bucket)/\(original)")
        }
        return text
    }
}

/// A server script run as a child: started with a pipe for its standard input (closing it stops
/// the script), its first line of standard output read as the JSON object that says where it is.
enum ChildServer {
    static func start(_ process: Process, input: Pipe, name: String) throws -> [String: Any] {
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where the server is; nothing is said when the script failed.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line += byte
        }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            process.terminate()
            throw FixtureError(message: "\(name) did not start: \(String(decoding: line, as: UTF8.self))")
        }
        return object
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
