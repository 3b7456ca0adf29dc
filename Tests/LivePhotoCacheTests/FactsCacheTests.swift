import Foundation
import LivePhotoTestSupport
import Testing

/// `check --cache`: unchanged files are not read again, changed ones are, and a cache that cannot
/// be trusted is emptied, made anew or bypassed, with a message, never believed.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "needs the lpcheck binary"))
struct FactsCacheTests {
    static func lpcheck(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments,
                              environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// A writable copy of our samples (and of the shared ones when present).
    static func library() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Locations.samples, to: root.appendingPathComponent("Samples"))
        if let shared = Locations.sharedSamples { try FileManager.default.copyItem(at: shared, to: root.appendingPathComponent("shared")) }
        return root
    }

    /// A writable copy of the samples (`library()`) and where things go in it.
    struct Scratch {
        let root: URL
        /// The cache file, beside the copied folders.
        var cache: String { root.appendingPathComponent("facts.db").path }
        /// The copy of `Samples/`.
        var samples: String { root.appendingPathComponent("Samples").path }
        /// The copied folders: `Samples/`, and the shared samples when present.
        var library: [String] { [samples] + (Locations.sharedSamples != nil ? [root.appendingPathComponent("shared").path] : []) }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func scratch() throws -> Scratch { Scratch(root: try library()) }

    /// Runs `arguments` until a run is kept: the first fills the cache, the second checks from
    /// it and keeps its outputs, the third is written from them.
    static func keepRun(_ arguments: [String]) throws {
        _ = try lpcheck(arguments)
        let checked = try lpcheck(arguments)
        #expect(try stats(checked).bytes == 0 && !replayed(checked), "\(checked.stderr)")
        let third = try lpcheck(arguments)
        #expect(replayed(third), "\(third.stderr)")
    }

    /// (bytes read, files from the cache) from --stats.
    static func stats(_ result: ProcessResult) throws -> (bytes: Int, hits: Int) {
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("stats:") }, "\(result.stderr)")
        func number(before marker: String) -> Int? {
            guard let range = line.range(of: marker) else { return nil }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        return (try #require(number(before: " bytes read")), try #require(number(before: " files from the cache")))
    }

    /// The JSON report without the bytes read (which is what a cache changes).
    static func report(_ result: ProcessResult) -> String {
        result.text.split(separator: "\n").filter { !$0.contains("\"bytesRead\"") }.joined(separator: "\n")
    }

    @Test("an unchanged library is checked again without reading a media byte, with the same report; a changed file is read again")
    func warmAndChanged() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder, library) = (scratch.cache, scratch.samples, scratch.library)
        let cold = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "json"])
        #expect(try Self.stats(cold).hits == 0 && Self.stats(cold).bytes > 0)
        let warm = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "json"])
        #expect(try Self.stats(warm).bytes == 0, "\(warm.stderr)")
        #expect(warm.status == cold.status)
        #expect(Self.report(warm) == Self.report(cold))
        let files = try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]).filter { !$0.hasPrefix(".") }
        #expect(try Self.stats(warm).hits >= files.count)

        // One still loses its identifier (same size, new bytes): read again, and the report says so.
        let still = folder + "/camera-pair.jpg"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: still))
        let identifier = Data("8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34".utf8)
        let range = try #require(bytes.range(of: identifier))
        bytes.replaceSubrange(range, with: Data("00000000-6A1D-4B7E-9F0C-2D5A7B9C1E34".utf8))
        try bytes.write(to: URL(fileURLWithPath: still))
        let changed = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "json"])
        #expect(try Self.stats(changed).hits == Self.stats(warm).hits - 1)
        #expect(try Self.stats(changed).bytes > 0)
        let direct = try Self.lpcheck(["check"] + library + ["--format", "json"])
        #expect(Self.report(changed) == Self.report(direct))
        #expect(changed.text.contains("00000000-6A1D-4B7E-9F0C-2D5A7B9C1E34"))
    }

    /// `body`'s result while another process holds the cache's write lock (an SQLite file in WAL
    /// mode, made so if it is new): the holder says "locked" once it holds it, and keeps it
    /// until its standard input closes, after `body` (a handshake both ways, no timed sleep).
    static func whileLocked<T>(_ cache: String, _ body: () throws -> T) throws -> T {
        let python = try #require(Locations.tool("python3"))
        let hold = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('PRAGMA journal_mode=WAL'); "
            + "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: python)
        holder.arguments = ["-c", hold, cache]
        let output = Pipe(), input = Pipe()
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        var said = Data()
        while !said.contains(0x0A) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
        }
        try #require(String(decoding: said, as: UTF8.self).hasPrefix("locked"), "the lock holder did not take the lock")
        return try body()
    }

    /// Whether the run wrote a stored run's outputs again (from --stats).
    static func replayed(_ result: ProcessResult) -> Bool { result.stderr.contains("its outputs again") }

    /// The report files and standard output of a run, and how it ended.
    struct Outputs: Equatable {
        var files: [Data]
        var stdout: Data
        var status: Int32
    }

    static func outputs(_ result: ProcessResult, _ files: [String]) throws -> Outputs {
        Outputs(files: try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, stdout: result.stdout, status: result.status)
    }

    @Test("an unchanged library's next run writes the last run's outputs again, byte for byte; a changed file, a new one, a gone one, another setting or configuration check anew")
    func unchangedRunsReplayed() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let root = scratch.root
        let (cache, folder, library) = (scratch.cache, scratch.samples, scratch.library)
        let reports = ["report.json", "report.sarif"].map { root.appendingPathComponent($0).path }
        // Two report files, and the terminal summary on standard output.
        let arguments = ["check"] + library + ["--cache", cache, "--stats", "--format", "json", "--output", reports[0], "--format", "sarif", "--output", reports[1]]
        let fill = try Self.lpcheck(arguments)
        #expect(try Self.stats(fill).bytes > 0 && !Self.replayed(fill))
        // The first run that reads no file checks from the cached facts, and keeps its outputs.
        let warm = try Self.lpcheck(arguments)
        #expect(try Self.stats(warm).bytes == 0 && !Self.replayed(warm), "\(warm.stderr)")
        let checked = try Self.outputs(warm, reports)
        #expect(!checked.stdout.isEmpty && checked.status != 2)
        // The next writes them again, byte for byte: the same reports, summary and exit status.
        for path in reports { try FileManager.default.removeItem(atPath: path) }
        let again = try Self.lpcheck(arguments)
        #expect(Self.replayed(again), "\(again.stderr)")
        #expect(try Self.stats(again).bytes == 0 && Self.stats(again).hits == Self.stats(warm).hits)
        #expect(try Self.outputs(again, reports) == checked)
        // --stats and --no-progress change no output: still the same run.
        #expect(Self.replayed(try Self.lpcheck(arguments.filter { $0 != "--stats" } + ["--no-progress", "--stats"])))
        // And what it wrote is what a check without a cache writes (but for the bytes read).
        let direct = try Self.lpcheck(["check"] + library + ["--format", "json"])
        #expect(Self.report(direct) == String(decoding: checked.files[0], as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"bytesRead\"") }.joined(separator: "\n"))

        // Another format is another run: checked (from the facts), then kept.
        let text = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "json"])
        #expect(!Self.replayed(text) && Self.report(text) == Self.report(direct))
        #expect(Self.replayed(try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "json"])))

        // Each change below is checked anew, and the run after it is replayed again.
        func checkedAnew(_ what: String, _ extra: [String] = [], read: Bool) throws {
            let changed = try Self.lpcheck(arguments + extra)
            #expect(!Self.replayed(changed), "\(what): \(changed.stderr)")
            #expect(try (Self.stats(changed).bytes > 0) == read, "\(what): \(changed.stderr)")
            // After a run that read files, the next checks from the facts and keeps its outputs;
            // a run after that (or after one that read none) writes them again.
            let next = try Self.lpcheck(arguments + extra)
            #expect(try Self.stats(next).bytes == 0 && Self.replayed(next) != read, "\(what): \(next.stderr)")
            #expect(try read || Self.outputs(next, reports) == Self.outputs(changed, reports), "\(what)")
            let third = try Self.lpcheck(arguments + extra)
            #expect(Self.replayed(third), "\(what): \(third.stderr)")
            #expect(try Self.outputs(third, reports) == Self.outputs(next, reports), "\(what)")
        }
        try checkedAnew("back to the first arguments", read: false)
        // A file touched (same bytes, new times): read again.
        let still = folder + "/camera-pair.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: still)
        try checkedAnew("a touched file", read: true)
        // A new file, and a gone one.
        try FileManager.default.copyItem(atPath: still, toPath: folder + "/new-copy.jpg")
        try checkedAnew("a new file", read: true)
        try FileManager.default.removeItem(atPath: folder + "/new-copy.jpg")
        try checkedAnew("a gone file", read: false)
        // A configuration file, then an edit of it (a rule off).
        let configuration = root.appendingPathComponent("config.yml").path
        try "rules:\n  missing-cdsc-reference: info\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        try checkedAnew("a configuration", ["--config", configuration], read: false)
        try "rules:\n  missing-cdsc-reference: off\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        let edited = try Self.lpcheck(arguments + ["--config", configuration])
        #expect(!Self.replayed(edited), "\(edited.stderr)")
        #expect(try !String(contentsOfFile: reports[0], encoding: .utf8).contains("missing-cdsc-reference"))
    }

    @Test("a stored run whose rows do not fit its figures (a chunk more, one less, out of place) is not believed: the library is checked")
    func implausibleStoredRun() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder) = (scratch.cache, scratch.samples)
        let arguments = ["check", folder, "--cache", cache, "--stats", "--format", "json"]
        try Self.keepRun(arguments)
        let direct = try Self.lpcheck(["check", folder, "--format", "json"])
        let python = try #require(Locations.tool("python3"))
        let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()"
        for edit in ["update runs set status = 7", "update runs set files = -3", "update runs set outputs = 1", "update run_chunks set output = 5",
                     "update run_chunks set output = -1", "insert into run_chunks (output, bytes) values (0, x'00')",
                     "delete from run_chunks where sequence = (select max(sequence) from run_chunks)", "update runs set sizes = '1 2 3'"] {
            let applied = try ProcessResult.run(python, ["-c", script, cache, edit])
            #expect(applied.status == 0, "\(edit): \(applied.stderr)")
            let edited = try Self.lpcheck(arguments)
            #expect(!Self.replayed(edited), "\(edit): \(edited.stderr)")
            #expect(Self.report(edited) == Self.report(direct) && edited.status == direct.status, "\(edit)")
            // That run checked from the facts and kept its outputs: the next is replayed again.
            let next = try Self.lpcheck(arguments)
            #expect(Self.replayed(next) && next.stdout == edited.stdout && next.status == edited.status, "\(edit): \(next.stderr)")
        }
    }

    @Test("a cache inside the checked folder: hidden, its runs are replayed; not hidden, it changes the folder, so every run checks")
    func cacheInsideTheLibrary() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let folder = scratch.samples
        for (name, replays) in [(".facts.db", true), ("facts.db", false)] {
            let arguments = ["check", folder, "--cache", folder + "/" + name, "--stats", "--format", "json"]
            let runs = try (0..<3).map { _ in try Self.lpcheck(arguments) }
            #expect(Self.replayed(runs[2]) == replays, "\(name): \(runs[2].stderr)")
            #expect(try Self.stats(runs[2]).bytes == 0, "\(name)")
        }
    }

    @Test("a summary for a terminal is made anew every run, never written from the cache", .enabled(if: Locations.tool("script") != nil))
    func terminalNeverReplayed() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder) = (scratch.cache, scratch.samples)
        let binary = try #require(Locations.lpcheckBinary).path
        // `script` gives the run a terminal as its standard output (and error).
        let command = [binary, "check", folder, "--cache", cache, "--stats"].map { "'" + $0 + "'" }.joined(separator: " ")
        let script = try #require(Locations.tool("script"))
        var runs: [ProcessResult] = []
        for _ in 0..<3 { runs.append(try ProcessResult.run(script, ["-qec", command, "/dev/null"])) }
        for run in runs {
            #expect(run.text.contains("stats:") && !run.text.contains("its outputs again"), "\(run.text)")
        }
        #expect(runs[2].text.contains(" 0 bytes read"), "\(runs[2].text)")
        // The same runs without a terminal are replayed from the third on.
        let piped = (0..<3).map { _ in try? Self.lpcheck(["check", folder, "--cache", cache, "--stats"]) }
        #expect(piped[2].map(Self.replayed) == true, "\(piped[2]?.stderr ?? "")")
    }

    @Test("a run that could keep its outputs on a cache another run holds locked reports the same, says they were not kept; the next run keeps them")
    func lockedStoredRun() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder) = (scratch.cache, scratch.samples)
        let arguments = ["check", folder, "--cache", cache, "--stats", "--format", "json"]
        _ = try Self.lpcheck(arguments)
        let locked = try Self.whileLocked(cache) { try Self.lpcheck(arguments, environment: ["LPCHECK_CACHE_WAIT_MS": "200"]) }
        #expect(locked.stderr.contains("outputs were not kept"), "\(locked.stderr)")
        #expect(try Self.stats(locked).bytes == 0 && !Self.replayed(locked))
        let kept = try Self.lpcheck(arguments)
        #expect(!Self.replayed(kept) && kept.stdout == locked.stdout, "\(kept.stderr)")
        let again = try Self.lpcheck(arguments)
        #expect(Self.replayed(again) && again.stdout == locked.stdout && again.status == locked.status)
    }

    @Test("an HTML run reads only its cards' thumbnails, keeps them in the cache, and the next HTML run reads no byte and writes the same page")
    func htmlRuns() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let root = scratch.root
        let (cache, library) = (scratch.cache, scratch.library)
        let page = root.appendingPathComponent("report.html").path
        // Filled by a run without HTML: facts, no thumbnails.
        let json = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--quiet"])
        #expect(json.status != 2)
        let warmJSON = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--quiet"])
        // A page of one card reads one still's thumbnail; a whole page more; both take every
        // file's facts from the cache.
        let one = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "html", "--html-limit", "1", "--output", page])
        #expect(try Self.stats(one).hits == Self.stats(warmJSON).hits)
        let first = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "html", "--html-limit", "0", "--output", page])
        #expect(try Self.stats(first).hits == Self.stats(warmJSON).hits)
        #expect(try Self.stats(first).bytes > Self.stats(one).bytes, "\(first.stderr) \(one.stderr)")
        #expect(try Self.stats(first).bytes < Self.stats(json).bytes, "only the stills' thumbnails are read, not the files' facts")
        let firstPage = try String(contentsOfFile: page, encoding: .utf8)
        if Locations.sharedSamples != nil { #expect(firstPage.contains("data:image/jpeg;base64,"), "the shared samples have EXIF thumbnails") }
        let second = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "html", "--html-limit", "0", "--output", page])
        #expect(try Self.stats(second).bytes == 0, "\(second.stderr)")
        // A page is always made anew (its escaping is never taken from the cache).
        let third = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "html", "--html-limit", "0", "--output", page])
        #expect(try !Self.replayed(third) && Self.stats(third).bytes == 0, "\(third.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8) == firstPage)
        let direct = try Self.lpcheck(["check"] + library + ["--format", "html", "--html-limit", "0", "--output", page + ".direct"])
        #expect(direct.status == second.status)
        #expect(try String(contentsOfFile: page + ".direct", encoding: .utf8) == firstPage)

        // Thumbnails no EXIF segment can hold (2 MiB) are not believed: read from the files again.
        try #require(firstPage.contains("data:image/jpeg;base64,"), "the page shows no thumbnail: nothing to oversize")
        let python = try #require(Locations.tool("python3"))
        let edit = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('update files set thumbnail=zeroblob(2097152) where thumbnail is not null'); c.commit()"
        #expect(try ProcessResult.run(python, ["-c", edit, cache]).status == 0)
        let oversized = try Self.lpcheck(["check"] + library + ["--cache", cache, "--stats", "--format", "html", "--html-limit", "0", "--output", page])
        #expect(try Self.stats(oversized).bytes > 0, "\(oversized.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8) == firstPage)
    }
}
