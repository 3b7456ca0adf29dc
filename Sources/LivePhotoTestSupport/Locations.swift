import Foundation
import LivePhotoFormats

/// Where the project's files and the shared real samples are, found from this source file.
public enum Locations {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    public static let samples = packageRoot.appendingPathComponent("Samples")
    public static let reports = packageRoot.appendingPathComponent("Reports")
    /// What tests leave for people to look at (screenshots): `.build/test-output`, outside git.
    public static var testOutput: URL {
        let url = packageRoot.appendingPathComponent(".build/test-output")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `../shared/samples` beside the project, or nil when absent (tests then skip).
    public static let sharedSamples: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/samples")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("FACTS.tsv").path) ? url : nil
    }()

    public static var hasSharedSamples: Bool { sharedSamples != nil }

    /// The `lpcheck` the command-line tests run: `LPCHECK_TEST_BINARY` when set
    /// (`Scripts/test.sh` sets it to the self-contained release build it made from this tree a
    /// moment before: the binary users install, about fifteen times faster than the development
    /// build on real files), else the development build.
    public static var lpcheckBinary: URL? {
        if let path = ProcessInfo.processInfo.environment["LPCHECK_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return developmentBinary
    }

    /// The development build of `lpcheck` next to the test bundle.
    public static var developmentBinary: URL? {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("lpcheck"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("lpcheck"),
            packageRoot.appendingPathComponent(".build/debug/lpcheck"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether this is a CI run (`CI=true`, as CI systems and .ci/run's caller set it): a test
    /// dependency missing there fails the run (`DependencyTests`) instead of skipping tests.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Fails the calling test, naming `what`, when a dependency it cannot do without is missing
    /// (Scripts/bootstrap.sh installs every one).
    public static func require(_ present: Bool, _ what: String) throws {
        guard present else { throw FixtureError(message: "missing test dependency: \(what) (Scripts/bootstrap.sh installs it)") }
    }

    /// Whether python3 can import every module named: asked once a run for each list (the
    /// tests asked 84 times, a Python start each).
    public static func pythonHas(_ modules: String...) -> Bool {
        let key = modules.joined(separator: ", ")
        return imports.withLock { answers in
            if let known = answers[key] { return known }
            let answer = tool("python3").map { python in (try? ProcessResult.run(python, ["-c", "import " + key]).status) == 0 } ?? false
            answers[key] = answer
            return answer
        }
    }

    private static let imports = Locked<[String: Bool]>([:])

    /// A command on PATH, or nil.
    public static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// One row of ../shared/samples/FACTS.tsv: what ExifTool 12.57 reports for a file.
public struct SampleFact: Sendable, CustomStringConvertible {
    public var file: String
    public var fileType: String
    public var model: String
    public var stillIdentifier: String?
    public var movieIdentifier: String?
    /// `TrackN=value`, split.
    public var stillImageTimeTrack: Int?
    public var stillImageTimeValue: Int64?
    public var motionPhoto: Bool

    public var description: String { file }
    public var url: URL? { Locations.sharedSamples?.appendingPathComponent(file) }

    public static func load() -> [SampleFact] {
        guard let root = Locations.sharedSamples,
              let text = try? String(contentsOf: root.appendingPathComponent("FACTS.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 8 else { return nil }
            func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
            var track: Int?
            var value: Int64?
            if let time = optional(columns[6]), let equals = time.firstIndex(of: "=") {
                track = Int(time[time.startIndex..<equals].dropFirst("Track".count))
                value = Int64(time[time.index(after: equals)...])
            }
            return SampleFact(
                file: columns[0], fileType: columns[1], model: columns[2], stillIdentifier: optional(columns[4]),
                movieIdentifier: optional(columns[5]), stillImageTimeTrack: track, stillImageTimeValue: value,
                motionPhoto: columns[7] == "yes")
        }
    }
}

/// Every media file under ../shared/samples (not the inventories or text dumps).
public enum SharedSamples {
    public static func mediaFiles() -> [URL] {
        guard let root = Locations.sharedSamples,
              let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { !["tsv", "md", "out", "txt"].contains($0.pathExtension.lowercased()) && !$0.hasDirectoryPath }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    public static func url(_ relative: String) -> URL? { Locations.sharedSamples?.appendingPathComponent(relative) }

    /// Our `Samples/` files, then the shared samples' media files: the real inputs a round trip
    /// or a second reader is held to.
    public static func withOurSamples() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: Locations.samples, includingPropertiesForKeys: nil)) ?? []) + mediaFiles()
    }
}

/// A value's JSON with sorted keys: two decoders' results compared field by field.
public func sortedJSON<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Runs a program and collects its output.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: String
    public var text: String { String(decoding: stdout, as: UTF8.self) }

    /// Runs a program (in `currentDirectory` when given); a run longer than `timeout` seconds is
    /// killed and reported as `status == -1`.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double? = nil,
                           currentDirectory: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let environment { process.environment = environment }
        let out = Pipe()
        // Standard error goes to a file so that neither stream can fill up and block the child.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-test-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = errHandle
        try process.run()
        // Past the limit, SIGTERM; a program that does not end on it (blocked opening a FIFO,
        // or handling the signal) gets SIGKILL 2 s later, so a test fails rather than hangs.
        let watchdog = timeout.map { limit in
            DispatchWorkItem {
                guard process.isRunning else { return }
                let pid = process.processIdentifier
                process.terminate()
                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if process.isRunning { kill(pid, SIGKILL) } }
            }.also { DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: $0) }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog?.cancel()
        if process.terminationReason == .uncaughtSignal && (process.terminationStatus == SIGTERM || process.terminationStatus == SIGKILL) && timeout != nil {
            return ProcessResult(status: -1, stdout: outData, stderr: "timed out")
        }
        try? errHandle.close()
        let errText = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        // A death by signal (a crash) is reported as 128 + signal, as shells do.
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: outData, stderr: errText)
    }
}

extension ProcessResult {
    /// Runs a writer stopped at its `step`-th write step (LPCHECK_FAULT_STEP with
    /// LPCHECK_FAULT_WAIT: the process waits there on a FIFO), sends it `signal` while it waits
    /// there, and waits for it to end. Returns whether the writer reached that step (false: it
    /// ended first, having fewer steps) and how it ended. The writer starts with every signal
    /// unblocked and at its default, as a shell starts it (Foundation's `Process` passes on the
    /// test runner's mask, which blocks SIGINT: a SIGINT sent then would interrupt nothing).
    public static func interrupted(_ executable: String, _ arguments: [String], signal: Int32, atStep step: Int,
                                   timeout: Double = 120) throws -> (reached: Bool, signalled: Int32?) {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-fault-\(UUID().uuidString)").path
        guard mkfifo(fifo, 0o600) == 0 else { throw FixtureError(message: "mkfifo \(fifo): errno \(errno)") }
        defer { unlink(fifo) }
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_FAULT_STEP"] = String(step)
        environment["LPCHECK_FAULT_WAIT"] = fifo
        let child = try spawn(executable, arguments, environment: environment)
        // Opening the FIFO's writing end without blocking succeeds once the writer has opened
        // its reading end: it is then waiting at the step.
        var writer: Int32 = -1, status: Int32 = 0, ended = false
        let deadline = Date().addingTimeInterval(timeout)
        while writer < 0 && !ended && Date() < deadline {
            writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer < 0 { ended = waitpid(child, &status, WNOHANG) == child; usleep(2_000) }
        }
        if writer >= 0 { kill(child, signal) }
        if !ended {
            // The signal ends it (or the wait ends when the FIFO closes); a writer still there
            // after the deadline is stopped.
            let stop = Date().addingTimeInterval(writer >= 0 ? 30 : 0)
            while waitpid(child, &status, WNOHANG) != child {
                if Date() > stop { kill(child, SIGKILL); waitpid(child, &status, 0); break }
                usleep(5_000)
            }
        }
        if writer >= 0 { close(writer) }
        let ending = status & 0x7F
        return (writer >= 0, ending == 0 ? nil : ending)
    }

    /// Starts `executable` with every signal unblocked and at its default, output discarded.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, &attributes, argv + [nil], envp + [nil])
        guard status == 0 else { throw FixtureError(message: "posix_spawn \(executable): \(String(cString: strerror(status)))") }
        return child
    }

    /// Runs a program in `folder` under python3, which reports the peak resident memory (KiB) of
    /// it and every process it waited for (getrusage's RUSAGE_CHILDREN: the codec helper
    /// lpcheck runs counts too) and their CPU seconds (user and system).
    public static func measured(_ executable: String, _ arguments: [String], in folder: URL, timeout: Double = 60) throws -> (status: Int, stderr: String, kilobytes: Int, cpu: Double) {
        guard let python = Locations.tool("python3") else { throw FixtureError(message: "missing test dependency: python3") }
        let script = """
        import resource, subprocess, sys
        run = subprocess.run(sys.argv[3:], cwd=sys.argv[1], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=float(sys.argv[2]))
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        sys.stdout.write(f"{run.returncode} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}\\n")
        sys.stdout.write(run.stderr.decode("utf-8", "replace"))
        """
        let result = try ProcessResult.run(python, ["-c", script, folder.path, String(timeout), executable] + arguments, timeout: timeout * 2)
        let lines = result.text.split(separator: "\n", maxSplits: 1)
        let fields = lines.first.map { $0.split(separator: " ") } ?? []
        guard fields.count == 3 else { throw FixtureError(message: "no measurement: \(result.text)\(result.stderr)") }
        return (Int(fields[0]) ?? -1, lines.count > 1 ? String(lines[1]) : "", Int(fields[1]) ?? -1, Double(fields[2]) ?? -1)
    }
}

extension DispatchWorkItem {
    func also(_ body: (DispatchWorkItem) -> Void) -> DispatchWorkItem {
        body(self)
        return self
    }
}
