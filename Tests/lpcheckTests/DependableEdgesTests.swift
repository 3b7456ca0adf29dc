import Foundation
import LivePhotoTestSupport
import Testing

/// Issue 47: no input crashes a command, the CI gate never passes what it did not read, no
/// writer writes over an input or through an archive's member name, and every message names
/// the file. Each test states what it measured (exit status, CPU and peak memory by getrusage,
/// files left) in its assertion messages. The codec helper's budgets and deadline are
/// `CodecBudgetTests`.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct DependableEdgesTests {
    let exports = ExportTests()

    func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult { try exports.lpcheck(arguments, environment: environment) }

    /// The names of a JSON report item's files.
    static func paths(_ item: [String: Any]) -> [String] {
        [item["still"], item["movie"]].compactMap { ($0 as? String).map { ($0 as NSString).lastPathComponent } }
    }

    /// A folder holding our camera pair and `files` of the crafted inputs.
    func library(_ scratch: URL, _ files: [String]) throws -> URL {
        try HostileInputs.cameraPair(into: try HostileInputs.folder(scratch, named: "library", only: files))
    }

    @Test("a 50-byte zip64 archive (named .livp, and named IMG_9999.JPG) beside a camera pair: check, scan, dump, repair, convert and export each finish without a signal; check reports each as one unreadable item, with the offset, and the pair passes")
    func fiftyByteArchive() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try library(scratch, ["zip64-50-bytes.livp", "IMG_9999.JPG"])
        let commands: [[String]] = [
            ["check", folder.path], ["scan", folder.path, "-o", scratch.appendingPathComponent("facts.ndjson").path],
            ["dump", folder.appendingPathComponent("zip64-50-bytes.livp").path], ["dump", folder.appendingPathComponent("IMG_9999.JPG").path],
            ["repair", folder.path, "--dry-run"], ["convert", folder.path, "--to", "motion-photo", "-o", scratch.appendingPathComponent("converted").path],
            ["export", folder.path, "--as", "loop", "-o", scratch.appendingPathComponent("exported").path, "--no-progress"],
        ]
        for command in commands {
            let run = try HostileInputs.measured(command, in: scratch)
            #expect(run.status >= 0 && run.status < 128 && !run.stderr.contains("Fatal error"), "\(command.prefix(1)): exit \(run.status), \(run.cpu) s CPU, \(run.kilobytes) KB: \(run.stderr.prefix(300))")
        }
        let check = try lpcheck(["check", folder.path, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        for name in ["zip64-50-bytes.livp", "IMG_9999.JPG"] {
            let holding = items.filter { Self.paths($0).contains(name) }
            #expect(holding.count == 1 && holding.first?["kind"] as? String == "unreadable", "\(name): \(holding)")
            let finding = (holding.first?["findings"] as? [[String: Any]])?.first
            #expect(finding?["rule"] as? String == "unreadable-file" && (finding?["message"] as? String ?? "").contains("zip64"), "\(String(describing: finding))")
        }
        let pair = try #require(items.first { $0["kind"] as? String == "pair" })
        let pairFindings = try #require(pair["findings"] as? [[String: Any]])
        #expect(pairFindings.isEmpty, "\(pair)")
    }

    @Test("a path that cannot be read fails the gate: a missing path among readable ones, a missing folder, a FIFO, an empty folder exit 2 and the summary says FAIL with the reason, never PASS; the JSON's passed is false")
    func unreadablePathsFailTheGate() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let jpg = Locations.samples.appendingPathComponent("camera-pair.jpg").path, mov = Locations.samples.appendingPathComponent("camera-pair.mov").path
        let fifo = scratch.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["check", scratch.appendingPathComponent("nonexist").path, jpg, mov], "1 path could not be read"),
            ([scratch.appendingPathComponent("nonexistent").path], "1 path could not be read"),
            (["check", fifo], "1 path could not be read"),
            (["check", empty.path], "nothing readable"),
        ]
        for (arguments, reason) in cases {
            let run = try lpcheck(arguments)
            #expect(run.status == 2 && !run.text.contains("PASS") && run.text.contains("FAIL (\(reason))"), "\(arguments): exit \(run.status): \(run.text)\(run.stderr)")
        }
        let fifoRun = try lpcheck(["check", fifo])
        #expect(fifoRun.text.contains("a FIFO, not a file or folder lpcheck reads"), "\(fifoRun.text)")
        let json = try lpcheck(["check", scratch.appendingPathComponent("nonexist").path, jpg, mov, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(json.status == 2 && (report["summary"] as? [String: Any])?["passed"] as? Bool == false, "exit \(json.status): \(report["summary"] ?? "none")")
        #expect(json.stderr.contains("could not open") && json.stderr.contains("nonexist"), "\(json.stderr)")
        // The same run with every path readable passes: the gate is not simply closed.
        let readable = try lpcheck(["check", jpg, mov])
        #expect(readable.status == 0 && readable.text.contains("PASS"), "\(readable.text)")
    }

    @Test("a first argument that is no path and is a command mistyped says so and exits 2 (`dumpp` → `lpcheck dump`, `chek`, `exprot`); an existing file of that name is checked")
    func mistypedCommands() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (typed, meant) in [("dumpp", "dump"), ("chek", "check"), ("exprot", "export")] {
            let run = try lpcheck([typed, Locations.samples.appendingPathComponent("camera-pair.jpg").path])
            #expect(run.status == 2 && run.stderr.contains("no such file or command '\(typed)' (did you mean `lpcheck \(meant)`?)"), "\(typed): \(run.status) \(run.stderr)")
        }
        let binary = try #require(Locations.lpcheckBinary).path
        try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent("camera-pair.jpg"), to: scratch.appendingPathComponent("dumpp"))
        let named = try ProcessResult.run("/bin/sh", ["-c", "cd \"$1\" && \"$2\" dumpp", "sh", scratch.path, binary])
        #expect(!named.stderr.contains("did you mean") && named.text.contains("1 file in 1 item"), "\(named.text)\(named.stderr)")
    }

    @Test("a file name that is not UTF-8, given as an argument, is the file it names (dump, check)")
    func rawBytesInArguments() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let name = "IMG_\u{E9}t\u{E9}.jpg"
        var path = Array(scratch.path.utf8) + [UInt8(ascii: "/")] + [0x49, 0x4D, 0x47, 0x5F, 0xE9, 0x74, 0xE9] + Array(".jpg".utf8)
        let source = try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg"))
        path.append(0)
        let descriptor = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644) }
        #expect(descriptor >= 0)
        _ = source.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // Python hands the raw bytes to the program, as a shell does.
        let python = try #require(Locations.tool("python3"))
        let binary = try #require(Locations.lpcheckBinary).path
        let script = "import os, subprocess, sys\nname = os.fsencode(sys.argv[2]) + b'/IMG_\\xe9t\\xe9.jpg'\nr = subprocess.run([sys.argv[1], 'dump', name], capture_output=True)\nsys.stdout.buffer.write(r.stdout + r.stderr)\nsys.exit(r.returncode)"
        let run = try ProcessResult.run(python, ["-c", script, binary, scratch.path])
        #expect(run.status == 0 && run.text.contains("content identifier: 8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34") && !run.text.contains("No such file"), "\(name): exit \(run.status): \(run.text.prefix(400))")
    }

    @Test("-o \"\" is a usage error for make, convert, export and check's report: exit 2, nothing written into the current folder or /")
    func emptyOutputPath() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputs = try HostileInputs.cameraPair(into: scratch.appendingPathComponent("in"))
        let root = Set(HostileInputs.left(URL(fileURLWithPath: "/")))
        let binary = try #require(Locations.lpcheckBinary).path
        for arguments in [["make", inputs.appendingPathComponent("camera-pair.mov").path, "-o", ""], ["convert", inputs.path, "--to", "motion-photo", "-o", ""],
                          ["export", inputs.path, "--as", "loop", "-o", ""], ["check", inputs.path, "-f", "json", "-o", ""]] {
            let run = try ProcessResult.run("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", scratch.path, binary] + arguments)
            #expect(run.status == 2 && run.stderr.contains("an empty one names no folder or file"), "\(arguments[0]): exit \(run.status): \(run.stderr)")
        }
        #expect(HostileInputs.left(scratch) == ["in"], "\(HostileInputs.left(scratch))")
        #expect(Set(HostileInputs.left(URL(fileURLWithPath: "/"))) == root)
    }

    @Test("export DIR --as movie -o DIR --force never writes over another input of the run (camera-pair.movie.mov, an input, is what the pair's export would be named): refused by name, its sha256 unchanged; convert likewise")
    func everyInputProtected() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.cameraPair(into: scratch.appendingPathComponent("lib"))
        // Another input: a movie on its own, named as the pair's export will be.
        let other = folder.appendingPathComponent("camera-pair.movie.mov")
        let ffmpeg = try exports.tool("ffmpeg")
        let made = try ProcessResult.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-c:v", "libx264", "-y", other.path])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Data(contentsOf: other)
        let export = try lpcheck(["export", folder.path, "--as", "movie", "-o", folder.path, "--force", "--no-progress"])
        #expect(export.status == 1 && export.text.contains("camera-pair.movie.mov is an input of this run"), "exit \(export.status): \(export.text)")
        #expect(try Data(contentsOf: other) == before, "camera-pair.movie.mov changed")
    }

    @Test(".livp archives in export and repair: refused by name (a member is never opened as a path, so a decoy file named ARCHIVE:MEMBER is neither read nor written); a member name stored twice is refused as ambiguous by every reader")
    func archivesInWriters() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let python = try #require(Locations.tool("python3"))
        // A pair whose movie lacks its still-image-time track (repair would add it), archived.
        let movie = try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov"))
        let zipped = try ProcessResult.run(python, ["-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:\n    z.write(sys.argv[2], 'IMG_0001.JPG'); z.write(sys.argv[3], 'IMG_0001.MOV')",
                                                    folder.appendingPathComponent("ok.livp").path, Locations.samples.appendingPathComponent("camera-pair.jpg").path,
                                                    Locations.samples.appendingPathComponent("camera-pair.mov").path])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let decoy = scratch.appendingPathComponent("ok.livp:IMG_0001.MOV")
        try Data("not a movie".utf8).write(to: decoy)
        let export = try lpcheck(["export", folder.path, "--as", "loop", "-o", scratch.appendingPathComponent("out").path, "--no-progress"])
        #expect(export.status == 1 && export.text.contains("is a member of the archive") && export.text.contains("export reads no archive"), "exit \(export.status): \(export.text)")
        #expect(HostileInputs.left(scratch.appendingPathComponent("out")).isEmpty)
        let repair = try lpcheck(["repair", folder.path, "--time", "0.1"])
        #expect(repair.text.contains("repair writes no archive"), "exit \(repair.status): \(repair.text)")
        #expect(try Data(contentsOf: decoy) == Data("not a movie".utf8))
        #expect(movie.count > 0)
        // A member stored twice: unreadable, named.
        let twice = try HostileInputs.folder(scratch, named: "twice", only: ["member-named-twice.livp"])
        let check = try lpcheck(["check", twice.path])
        #expect(check.status == 2 && check.text.contains("both named \"IMG_0002.JPG\""), "\(check.text)")
        let convert = try lpcheck(["convert", twice.path, "--to", "live-photo", "-o", scratch.appendingPathComponent("unpacked").path])
        #expect(convert.status != 0 && HostileInputs.left(scratch.appendingPathComponent("unpacked")).isEmpty, "exit \(convert.status): \(convert.text)")
    }

    @Test("a member whose name holds a colon keeps it in the output's name: unpacked (convert --to live-photo) and converted (--to motion-photo: it was cut at the colon, 30.MP.jpg)")
    func colonInMemberName() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let python = try #require(Locations.tool("python3"))
        let zipped = try ProcessResult.run(python, ["-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:\n    z.write(sys.argv[2], 'trip 10:30.JPG'); z.write(sys.argv[3], 'trip 10:30.MOV')",
                                                    folder.appendingPathComponent("a.livp").path, Locations.samples.appendingPathComponent("camera-pair.jpg").path,
                                                    Locations.samples.appendingPathComponent("camera-pair.mov").path])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let output = scratch.appendingPathComponent("out")
        let convert = try lpcheck(["convert", folder.path, "--to", "live-photo", "-o", output.path])
        #expect(convert.status == 0 && HostileInputs.left(output) == ["trip 10:30.JPG", "trip 10:30.MOV"], "exit \(convert.status): \(HostileInputs.left(output)) \(convert.text)")
        let motion = scratch.appendingPathComponent("motion")
        let converted = try lpcheck(["convert", folder.path, "--to", "motion-photo", "-o", motion.path])
        #expect(converted.status == 0 && HostileInputs.left(motion) == ["trip 10:30.MP.jpg"], "exit \(converted.status): \(HostileInputs.left(motion)) \(converted.text)")
    }

    @Test("a configuration of 6 KB (a pattern of 6,000 stars, aliased 100 times) is refused at once, naming the limit; 1,000 patterns of 1,002 characters (aliases of one) over 300 files take under 5 s of CPU (matching is linear in the pattern and the name)")
    func globCost() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let jpg = try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg"))
        for index in 0..<300 { try jpg.write(to: folder.appendingPathComponent("IMG_\(String(repeating: "a", count: 60))_\(index).JPG")) }
        let bomb = "exclude:\n  - &p \"\(String(repeating: "*", count: 6_000))x\"\n" + (0..<100).map { _ in "  - *p\n" }.joined()
        try Data(bomb.utf8).write(to: scratch.appendingPathComponent("bomb.yml"))
        let refused = try HostileInputs.measured(["check", folder.path, "--config", scratch.appendingPathComponent("bomb.yml").path], in: scratch)
        #expect(refused.status == 2 && refused.stderr.contains("more than the 1024 lpcheck matches") && refused.cpu < 2, "exit \(refused.status), \(refused.cpu) s CPU: \(refused.stderr)")
        // 1,000 patterns of 1,002 characters in 7 KB: one anchored, 999 aliases of it.
        let wide = "exclude:\n  - &w \"*\(String(repeating: "*?", count: 500))z\"\n" + (0..<999).map { _ in "  - *w\n" }.joined()
        try Data(wide.utf8).write(to: scratch.appendingPathComponent("wide.yml"))
        let matched = try HostileInputs.measured(["check", folder.path, "--config", scratch.appendingPathComponent("wide.yml").path, "--fail-on", "never"], in: scratch)
        #expect(matched.status == 0 && matched.cpu < 5, "exit \(matched.status), \(matched.cpu) s CPU, \(matched.kilobytes) KB: \(matched.stderr.prefix(300))")
        // 60 distinct patterns of 1,002 characters (60 KB, near the 64 KiB a configuration may be).
        let distinct = "exclude:\n" + (0..<60).map { index in "  - \"*\(String(repeating: "*?", count: 499))\(index % 10)z\"\n" }.joined()
        try Data(distinct.utf8).write(to: scratch.appendingPathComponent("distinct.yml"))
        let each = try HostileInputs.measured(["check", folder.path, "--config", scratch.appendingPathComponent("distinct.yml").path, "--fail-on", "never"], in: scratch)
        #expect(each.status == 0 && each.cpu < 5, "exit \(each.status), \(each.cpu) s CPU, \(each.kilobytes) KB: \(each.stderr.prefix(300))")
    }

    @Test("under a file-size limit (ulimit -f 8: 8 KiB) every writer says which file failed and why, and none dies of SIGXFSZ; a report cut short is left empty, not half-written")
    func fileSizeLimit() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.cameraPair(into: scratch.appendingPathComponent("lib"))
        let binary = try #require(Locations.lpcheckBinary).path
        let runs: [([String], String)] = [
            (["export", folder.path, "--as", "loop", "-o", scratch.appendingPathComponent("out").path, "--no-progress"], "writing \(scratch.path)/out/camera-pair.loop.mov"),
            (["make", folder.appendingPathComponent("camera-pair.mov").path, "-o", scratch.appendingPathComponent("made").path], "writing \(scratch.path)/made/camera-pair."),
            (["check", folder.path, "-f", "json", "-o", scratch.appendingPathComponent("r.json").path], "cannot write \(scratch.path)/r.json: File too large"),
        ]
        for (arguments, words) in runs {
            let run = try ProcessResult.run("/bin/sh", ["-c", "ulimit -f 8; exec \"$@\"", "sh", binary] + arguments, timeout: 120)
            #expect(run.status > 0 && run.status < 128 && (run.text + run.stderr).contains(words) && (run.text + run.stderr).contains("File too large"),
                    "\(arguments[0]): exit \(run.status): \(run.text.suffix(300))\(run.stderr)")
        }
        let report = try FileManager.default.attributesOfItem(atPath: scratch.appendingPathComponent("r.json").path)[.size] as? Int
        #expect(report == 0, "the report is \(String(describing: report)) bytes")
    }

    @Test("dump on a FIFO says it is no regular file at once (it waited for a writer)")
    func dumpFIFO() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let binary = try #require(Locations.lpcheckBinary).path
        let run = try ProcessResult.run(binary, ["dump", fifo], timeout: 20)
        #expect(run.status == 1 && run.text.contains("not a regular file"), "exit \(run.status): \(run.text)")
    }

    @Test("a name of 240 bytes is written (the temporary's name is cut to fit 255), and its temporary never shows in a plan")
    func longName() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let name = String(repeating: "A", count: 236) + ".mov"
        let folder = scratch.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent("camera-pair.mov"), to: folder.appendingPathComponent(name))
        let output = scratch.appendingPathComponent("out")
        let make = try lpcheck(["make", folder.appendingPathComponent(name).path, "-o", output.path])
        #expect(make.status == 0 && HostileInputs.left(output).count == 2 && !make.text.contains("lpcheck-tmp"), "exit \(make.status): \(make.stderr) \(HostileInputs.left(output))")
    }

    @Test("every crafted input of issue 47 in one folder with two camera pairs: check finishes without a signal under 20 s of CPU and 500 MB, reports each crafted file in exactly one item, and both pairs pass")
    func hostileCorpus() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.folder(scratch, named: "corpus")
        try HostileInputs.cameraPair(into: folder)
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        for file in ["LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"] {
            let url = try #require(SharedSamples.url(file))
            try FileManager.default.copyItem(at: url, to: folder.appendingPathComponent(url.lastPathComponent))
        }
        let measured = try HostileInputs.measured(["check", folder.path, "--fail-on", "never"], in: scratch)
        #expect(measured.status == 0 && measured.cpu < 20 && measured.kilobytes < 500_000, "exit \(measured.status), \(measured.cpu) s CPU, \(measured.kilobytes) KB: \(measured.stderr.prefix(300))")
        let check = try lpcheck(["check", folder.path, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        for name in HostileInputs.crafted {
            let holding = items.filter { Self.paths($0).contains(name) }
            #expect(holding.count == 1, "\(name) is in \(holding.count) items")
        }
        for still in ["camera-pair.jpg", "train.jpg"] {
            let pair = items.first { Self.paths($0).contains(still) }
            let findings = (pair?["findings"] as? [[String: Any]] ?? []).filter { ($0["severity"] as? String) != "info" }
            #expect(pair?["kind"] as? String == "pair" && findings.isEmpty, "\(still): \(pair?["kind"] ?? "none") \(findings)")
        }
    }
}
