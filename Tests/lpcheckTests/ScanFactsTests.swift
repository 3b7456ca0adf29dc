import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// `lpcheck scan` records and `check --facts`: the report from records equals the report from the
/// files, for one scan, for shards from GNU parallel, across mount points, without the files.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "needs the lpcheck binary"))
struct ScanFactsTests {
    static func lpcheck(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
        let binary = try #require(Locations.lpcheckBinary).path
        guard let input else { return try ProcessResult.run(binary, arguments) }
        return try ProcessResult.run("/bin/sh", ["-c", "\"$0\" \"$@\" < \"$LPCHECK_INPUT\"", binary] + arguments, environment: ProcessInfo.processInfo.environment.merging(["LPCHECK_INPUT": input]) { $1 })
    }

    static func folder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The JSON report's text without `roots` (which names what was given: folders, or record
    /// files). Compared as text: names that are not UTF-8 appear as \udcXX escapes, which
    /// JSONSerialization does not read.
    static func report(_ result: ProcessResult) throws -> String {
        let text = result.text
        #expect(text.hasPrefix("{"), "\(text.prefix(200)) \(result.stderr)")
        var lines: [Substring] = []
        var inRoots = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "  \"roots\": []," { continue }
            if line == "  \"roots\": [" { inRoots = true; continue }
            if inRoots { if line == "  ]," { inRoots = false }; continue }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Libraries to compare on: our samples, the shared samples, and the realistic layouts (hard
    /// links, byte copies, non-UTF-8 names, hidden files, sidecars, empty and truncated files).
    static func libraries(in scratch: URL) throws -> [String] {
        var roots = [Locations.samples.path]
        if let shared = Locations.sharedSamples {
            roots.append(shared.path)
            for layout in LibraryLayout.all {
                let root = scratch.appendingPathComponent(layout.name).path
                try layout.build(in: root)
                roots.append(root)
            }
        }
        return roots
    }

    @Test("scan, then check --facts, gives the report check gives, for every library; the records follow facts.schema.json")
    func factsEqualFiles() throws {
        let scratch = try Self.folder("facts")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("facts.schema.json"))
        for root in try Self.libraries(in: scratch) {
            let direct = try Self.lpcheck(["check", root, "--format", "json"])
            let records = scratch.appendingPathComponent("records.ndjson").path
            let scan = try Self.lpcheck(["scan", root, "--output", records])
            #expect(scan.status == 0, "\(scan.stderr)")
            let lines = try #require(FileManager.default.contents(atPath: records)).split(separator: 0x0A)
            #expect(lines.count >= 2)
            for (line, problems) in zip(lines, try validator.validate(documents: lines.map { Data($0) })) {
                #expect(problems.isEmpty, "\(problems) in \(String(decoding: line, as: UTF8.self).prefix(200))")
            }
            let merged = try Self.lpcheck(["check", "--facts", records, "--format", "json"])
            #expect(merged.status == direct.status, "\(root)")
            #expect(try Self.report(merged) == Self.report(direct), "\(root)")
            // In bounded memory (records read again as items are written): the same report.
            let bounded = try Self.lpcheck(["check", "--facts", records, "--format", "json", "--bounded-memory"])
            #expect(bounded.status == direct.status, "\(root) \(bounded.stderr)")
            #expect(try Self.report(bounded) == Self.report(direct), "\(root)")
        }
    }

    @Test("GNU parallel splits a file list into 4 scan processes, one shard scanned through another mount point; the merged report is the single-process one",
          .enabled(if: Locations.tool("parallel") != nil && Locations.hasSharedSamples, "needs GNU parallel (Scripts/bootstrap.sh installs it) and ../shared/samples"))
    func shardedRun() throws {
        let scratch = try Self.folder("shards")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("library").path
        for layout in LibraryLayout.all { try layout.build(in: library + "/" + layout.name) }
        // The same library seen at a second path, as another machine would mount it.
        let mount = scratch.appendingPathComponent("mnt").path
        try FileManager.default.createSymbolicLink(atPath: mount, withDestinationPath: library)
        // Every fourth file listed through the mount: shards hold paths of both machines.
        let list = scratch.appendingPathComponent("files.txt").path
        let listing = "find \"$0\" -type f | LC_ALL=C awk -v lib=\"$0\" -v mnt=\"$1\" 'NR % 4 == 0 && index($0, lib) == 1 { $0 = mnt substr($0, length(lib) + 1) } { print }' > \"$2\""
        #expect(try ProcessResult.run("/bin/sh", ["-c", listing, library, mount, list]).status == 0)
        let binary = try #require(Locations.lpcheckBinary).path
        let shards = scratch.appendingPathComponent("shards").path
        try FileManager.default.createDirectory(atPath: shards, withIntermediateDirectories: true)
        let command = "\(binary) scan --files-from - --output \(shards)/shard{#}.ndjson"
        let run = try ProcessResult.run(try #require(Locations.tool("parallel")), ["--will-cite", "--pipepart", "-a", list, "--block", "-1", "-j", "4", command])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try FileManager.default.contentsOfDirectory(atPath: shards).sorted().map { shards + "/" + $0 }
        #expect(records.count == 4)

        let direct = try Self.lpcheck(["check", library, "--format", "json"])
        let merged = try Self.lpcheck(["check", "--facts"] + records + ["--strip-prefix", mount, "--prefix", library, "--format", "json"])
        #expect(merged.status == direct.status)
        #expect(try Self.report(merged) == Self.report(direct))
        // In bounded memory, where each shard's records are read again by offset and mapped again.
        let bounded = try Self.lpcheck(["check", "--facts"] + records + ["--strip-prefix", mount, "--prefix", library, "--format", "json", "--bounded-memory"])
        #expect(bounded.status == direct.status)
        #expect(try Self.report(bounded) == Self.report(direct))
        if let debug = ProcessInfo.processInfo.environment["LPCHECK_SHARD_DEBUG"] {
            try merged.stdout.write(to: URL(fileURLWithPath: debug + ".merged.json"))
            try direct.stdout.write(to: URL(fileURLWithPath: debug + ".direct.json"))
        }
        // Without mapping the mounted shard's paths, its files are other files: the report differs.
        let unmapped = try Self.lpcheck(["check", "--facts"] + records + ["--format", "json"])
        #expect(try Self.report(unmapped) != Self.report(direct))
    }

    @Test("check --facts opens no media file: with the library gone after the scan, the report is the same")
    func noFileOpened() throws {
        let scratch = try Self.folder("gone")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: Locations.samples, to: library)
        let direct = try Self.lpcheck(["check", library.path, "--format", "json"])
        let records = scratch.appendingPathComponent("records.ndjson").path
        #expect(try Self.lpcheck(["scan", library.path, "-o", records]).status == 0)
        try FileManager.default.removeItem(at: library)
        let merged = try Self.lpcheck(["check", "--facts", records, "--format", "json"])
        #expect(try Self.report(merged) == Self.report(direct))
        // Standard input works as a record file too.
        let piped = try Self.lpcheck(["check", "--facts", "-", "--format", "json"], input: records)
        #expect(try Self.report(piped) == Self.report(direct))
    }

    @Test("--bounded-memory is refused without --facts, with standard input and with an HTML report; --no-bounded-memory is accepted; --stats says which was used")
    func boundedMemoryUsage() throws {
        let scratch = try Self.folder("bounded-usage")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = scratch.appendingPathComponent("records.ndjson").path
        #expect(try Self.lpcheck(["scan", Locations.samples.path, "-o", records]).status == 0)
        let refusals: [([String], String)] = [
            (["check", Locations.samples.path, "--bounded-memory"], "goes with --facts"),
            (["check", "--facts", "-", "--bounded-memory"], "standard input"),
            (["check", "--facts", records, "--bounded-memory", "--format", "html"], "HTML"),
        ]
        for (arguments, reason) in refusals {
            let result = try Self.lpcheck(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
        }
        let inMemory = try Self.lpcheck(["check", "--facts", records, "--no-bounded-memory", "--format", "json", "--stats"])
        let bounded = try Self.lpcheck(["check", "--facts", records, "--bounded-memory", "--format", "json", "--stats"])
        #expect(inMemory.status == bounded.status)
        #expect(inMemory.stdout == bounded.stdout)
        // --stats says which way the records were checked.
        #expect(bounded.stderr.contains("checked in bounded memory"), "\(bounded.stderr)")
        #expect(!inMemory.stderr.contains("bounded memory"), "\(inMemory.stderr)")
    }

    /// The records with the first match of `pattern` (in the first line that has one) replaced.
    static func altering(_ lines: [String], pattern: String, with replacement: String) -> String {
        let expression = try? NSRegularExpression(pattern: pattern)
        var done = false
        return lines.map { line -> String in
            guard !done, let expression, let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let range = Range(match.range, in: line) else { return line }
            done = true
            return line.replacingCharacters(in: range, with: replacement)
        }.joined(separator: "\n")
    }

    @Test("records from another schema, a broken line, a file record before the header, or facts no reader makes: exit 2 naming the file and line")
    func badRecords() throws {
        let scratch = try Self.folder("bad")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = scratch.appendingPathComponent("good.ndjson").path
        #expect(try Self.lpcheck(["scan", Locations.samples.path, "-o", records]).status == 0)
        let good = String(decoding: try #require(FileManager.default.contents(atPath: records)), as: UTF8.self)
        let lines = good.split(separator: "\n").map(String.init)
        let cases: [(String, String)] = [
            (lines.map { $0.replacingOccurrences(of: "\"schema\":1", with: "\"schema\":99") }.joined(separator: "\n"), "schema 99"),
            (([lines[0], String(lines[1].prefix(40))] + lines.dropFirst(2)).joined(separator: "\n"), ":2: not a facts record"),
            (lines.dropFirst().joined(separator: "\n"), ":1: a file record before the scan header"),
            // Facts no reader makes: rules and reports would trap on them, so they are refused.
            (Self.altering(lines, pattern: "\"frames\":\\[\\{\"count\":[0-9]+", with: "\"frames\":[{\"count\":-1"), "facts no reader makes (frame run of -1 frames"),
            (Self.altering(lines, pattern: "\"frames\":\\[\\{\"count\":[0-9]+", with: "\"frames\":[{\"count\":9223372036854775807"), "facts no reader makes"),
            (Self.altering(lines, pattern: "\"size\":[0-9]+", with: "\"size\":-5"), "facts no reader makes (size -5"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let path = scratch.appendingPathComponent("bad\(index).ndjson").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let result = try Self.lpcheck(["check", "--facts", path])
            #expect(result.status == 2)
            #expect(result.stderr.contains(path) && result.stderr.contains(expected), "\(result.stderr)")
        }
    }
}
