import Foundation
import LivePhotoTestSupport
import Testing

/// Issue 47: the codec helper's work is priced before it starts (`CodecBudget`: pixels of
/// work, pictures held, output size; each with a default and a flag), it runs under an
/// address-space limit, a deadline on its silence and caps on what it sends, it dies with
/// lpcheck, its progress channel cannot be forged by file data, and its failures are one line
/// naming the input. Stand-in helpers (shell and Python scripts given as `LPCHECK_CODEC`) play
/// the hostile ones. Writers refuse movies whose sample tables contradict each other.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct CodecBudgetTests {
    let exports = ExportTests()

    func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult { try exports.lpcheck(arguments, environment: environment) }

    /// The codec helper beside the lpcheck the tests run.
    var helper: String {
        get throws { (try #require(Locations.lpcheckBinary)).deletingLastPathComponent().appendingPathComponent("lpcheck-codec").path }
    }

    /// A stand-in helper: `body` as a script, executable.
    func standIn(_ scratch: URL, _ name: String, _ body: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(body.utf8).write(to: url)
        #expect(chmod(url.path, 0o755) == 0)
        return url.path
    }

    /// Our camera pair copied into `scratch/name`.
    func cameraPair(_ scratch: URL, _ name: String = "pair") throws -> URL {
        try HostileInputs.cameraPair(into: scratch.appendingPathComponent(name))
    }

    @Test("a 230 KB GIF (a 6000×6000 screen, 10,000 frames of 1×1) is refused by make before any frame is composited: exit 2 naming --max-total-pixels, under 5 s of CPU and 300 MB, nothing written; the flag lowers the budget for a small GIF too")
    func gifWorkBomb() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.folder(scratch, only: ["gif-6000-square-10000-frames.gif"])
        let output = scratch.appendingPathComponent("out")
        let run = try HostileInputs.measured(["make", folder.appendingPathComponent("gif-6000-square-10000-frames.gif").path, "-o", output.path], in: scratch)
        #expect(run.status == 2 && run.stderr.contains("10000 pictures of 6000×6000") && run.stderr.contains("--max-total-pixels") && run.cpu < 5 && run.kilobytes < 300_000,
                "exit \(run.status), \(run.cpu) s CPU, \(run.kilobytes) KB: \(run.stderr)")
        #expect(HostileInputs.left(output).isEmpty, "\(HostileInputs.left(output))")
        let small = try #require(SharedSamples.url("gifs/python-pillow__Pillow__Tests_images_dispose_prev.gif"))
        let lowered = try lpcheck(["make", small.path, "-o", scratch.appendingPathComponent("small").path, "--max-total-pixels", "100"])
        #expect(lowered.status == 2 && lowered.stderr.contains("more than the 100 allowed (--max-total-pixels)"), "\(lowered.stderr)")
        let made = try lpcheck(["make", small.path, "-o", scratch.appendingPathComponent("made").path])
        // What it will encode is said first, then the plan, whose header names the GIF, never the
        // writer's temporary its movie is made in.
        #expect(made.status == 0 && made.text.hasPrefix("making \(small.path)'s movie") && made.text.contains("\nmovie-only \(small.path)\n") && !made.text.contains("lpcheck-tmp"),
                "\(made.text.prefix(300))\(made.stderr)")
    }

    @Test("a 1280×1280 H.264 movie of one sync sample then 1,199 frames is refused by export --as reverse before decoding (its group of pictures would hold 2.9 GB): exit 1 naming --max-memory, under 10 s of CPU and 500 MB, nothing written; the helper holds the same budget by itself")
    func reverseGroupBomb() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let movie = folder.appendingPathComponent("one-group.mov")
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:size=1280x1280:rate=30", "-frames:v", "1200",
                                                                       "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=1200:min-keyint=1200:scenecut=0", "-bf", "0",
                                                                       "-y", movie.path], timeout: 300)
        #expect(made.status == 0, "\(made.stderr)")
        let output = scratch.appendingPathComponent("out")
        let run = try HostileInputs.measured(["export", folder.path, "--as", "reverse", "-o", output.path, "--no-progress"], in: scratch)
        let export = try lpcheck(["export", folder.path, "--as", "reverse", "-o", output.path, "--no-progress"])
        #expect(run.status == 1 && export.text.contains("1200 decoded pictures of 1280×1280") && export.text.contains("--max-memory") && run.cpu < 10 && run.kilobytes < 500_000,
                "exit \(run.status), \(run.cpu) s CPU, \(run.kilobytes) KB: \(export.text)")
        #expect(HostileInputs.left(output).isEmpty, "\(HostileInputs.left(output))")
        // The helper alone (no plan before it) refuses it too, before a picture is decoded.
        let direct = try ProcessResult.run(try helper, ["frames", movie.path, "reverse", "h264", "--max-memory", String(2 << 30)], timeout: 60)
        #expect(direct.status == 2 && direct.stderr.contains("--max-memory") && direct.stdout.isEmpty, "exit \(direct.status): \(direct.stderr)")
    }

    @Test("a movie listing two 1024×1024 noise frames 1,000 times each (an export --as loop of a 2-frame movie: samples listed again, not stored) is refused as a GIF at 1024 px before encoding, its worst case 3 GB over --max-output's 1 GiB: exit 1 under 10 s of CPU, nothing written")
    func gifOutputBomb() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = scratch.appendingPathComponent("two")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "nullsrc=s=1024x1024:r=30,geq=random(1)*255:128:128", "-frames:v", "2",
                                                                       "-c:v", "libx264", "-preset", "ultrafast", "-y", source.appendingPathComponent("noise.mov").path], timeout: 120)
        #expect(made.status == 0, "\(made.stderr)")
        let looped = scratch.appendingPathComponent("looped")
        let loop = try lpcheck(["export", source.path, "--as", "loop", "--count", "1000", "-o", looped.path, "--no-progress"])
        #expect(loop.status == 0, "\(loop.text)")
        let output = scratch.appendingPathComponent("out")
        let run = try HostileInputs.measured(["export", looped.path, "--as", "gif", "--width", "1024", "-o", output.path, "--no-progress"], in: scratch)
        let export = try lpcheck(["export", looped.path, "--as", "gif", "--width", "1024", "-o", output.path, "--no-progress"])
        #expect(run.status == 1 && export.text.contains("a GIF of 2000 frames of 1024×1024 may take up to") && export.text.contains("--max-output") && run.cpu < 10,
                "exit \(run.status), \(run.cpu) s CPU, \(run.kilobytes) KB: \(export.text)")
        #expect(HostileInputs.left(output).isEmpty, "\(HostileInputs.left(output))")
    }

    @Test("the helper runs under an address-space limit of its memory budget, 2 GiB and 640 bytes a pixel (probe reports it), and lpcheck passes the budget it was given (--max-memory 100 MiB: 104857600 bytes)")
    func addressSpace() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let probe = try ProcessResult.run(try helper, ["probe", "--max-memory", "1000000", "--max-pixels", "1000000"])
        #expect(probe.status == 0 && probe.text.contains("address space limited to \(1_000_000 + (2 << 30) + 640 * 1_000_000) bytes"), "\(probe.text)\(probe.stderr)")
        let record = scratch.appendingPathComponent("arguments.txt")
        let stand = try standIn(scratch, "record.sh", "#!/bin/sh\necho \"$@\" > '\(record.path)'\nexit 1\n")
        _ = try lpcheck(["make", Locations.samples.appendingPathComponent("camera-pair.mov").path, "-o", scratch.appendingPathComponent("out").path, "--still", "jpeg",
                         "--max-memory", "100", "--max-total-pixels", "123456789"], environment: ["LPCHECK_CODEC": stand])
        let said = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
        #expect(said.contains("--max-memory 104857600") && said.contains("--max-total-pixels 123456789"), "\(said)")
    }

    @Test("stand-in helpers that never answer, flood standard error, send one 256 MiB part or crash: each stops in seconds with one line naming the input, the stage and what happened, exit 2, no crash dump, nothing written")
    func hostileHelpers() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pair = try cameraPair(scratch)
        let cases: [(name: String, body: String, words: String)] = [
            ("silent.sh", "#!/bin/sh\nsleep 600\n", "gave no sign of progress for 2 s (--codec-deadline): stopped"),
            ("flood.sh", "#!/bin/sh\nwhile true; do echo 'noise noise noise noise noise noise noise noise noise noise' >&2; done\n", "wrote more than 1 MiB of messages: stopped"),
            ("box.py", "#!/usr/bin/env python3\nimport sys, time\nsys.stdout.buffer.write(b'\\x10\\x00\\x00\\x00smpl' + bytes(1 << 20)); sys.stdout.flush(); time.sleep(600)\n",
             "holds a part of 268435456 bytes"),
            ("crash.sh", "#!/bin/sh\nkill -SEGV $$\n", "the codec helper crashed (signal 11, SIGSEGV)"),
        ]
        for (name, body, words) in cases {
            let stand = try standIn(scratch, name, body)
            let output = scratch.appendingPathComponent("out-\(name)")
            let run = try HostileInputs.measured(["export", pair.path, "--as", "reverse", "-o", output.path, "--no-progress", "--codec-deadline", "2"], in: scratch,
                                                 environment: ["LPCHECK_CODEC": stand], timeout: 60)
            let export = try lpcheck(["export", pair.path, "--as", "reverse", "-o", output.path, "--no-progress", "--codec-deadline", "2"], environment: ["LPCHECK_CODEC": stand])
            let failed = export.text.split(separator: "\n").filter { $0.contains("FAILED") }
            #expect(run.status == 1 && failed.count == 1 && failed[0].contains(pair.appendingPathComponent("camera-pair.mov").path) && failed[0].contains("re-timing")
                    && failed[0].contains(words) && run.cpu < 10, "\(name): exit \(run.status), \(run.cpu) s CPU: \(export.text)")
            #expect(!export.text.contains("Backtrac") && !export.stderr.contains("Backtrac"))
            #expect(HostileInputs.left(output).isEmpty, "\(name): \(HostileInputs.left(output))")
        }
        // A helper that is a folder, or whose interpreter is missing: one line, no Foundation error code.
        let folder = scratch.appendingPathComponent("helper-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let badInterpreter = try standIn(scratch, "bad.sh", "#!/nonexistent/interpreter\n")
        for (stand, words) in [(folder.path, "is not there or is no program"), (badInterpreter, "does not start: No such file or directory")] {
            let make = try lpcheck(["make", pair.appendingPathComponent("camera-pair.mov").path, "-o", scratch.appendingPathComponent("m").path, "--still", "jpeg"],
                                   environment: ["LPCHECK_CODEC": stand])
            #expect(make.status == 2 && make.stderr.contains(words) && !make.stderr.contains("NSCocoaErrorDomain") && make.stderr.split(separator: "\n").count == 1, "\(make.stderr)")
        }
    }

    /// The process ids whose command line holds `marker`.
    func processes(holding marker: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
            guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") Z ") else { return false }
            return String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(marker)
        }
    }

    @Test("the real helper dies with lpcheck: lpcheck killed (TERM, then KILL) while a reverse decodes one long group of pictures (1,200 frames of 1280×720, 1.7 GB, nothing written meanwhile), its helper is gone within 1 s (it lived on until it next wrote: 39–50 s holding 5.9 GB on a GIF)",
          arguments: [SIGTERM, SIGKILL])
    func helperDiesWithLpcheck(_ signal: Int32) throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("in-\(signal)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=30", "-frames:v", "1200", "-c:v", "libx264",
                                                                       "-preset", "ultrafast", "-x264-params", "keyint=1200:min-keyint=1200:scenecut=0", "-bf", "0",
                                                                       "-y", folder.appendingPathComponent("long.mov").path], timeout: 300)
        #expect(made.status == 0, "\(made.stderr)")
        let process = Process()
        guard let binary = Locations.lpcheckBinary else { throw FixtureError(message: "lpcheck is not built") }
        process.executableURL = binary
        process.arguments = ["export", folder.path, "--as", "reverse", "-o", scratch.appendingPathComponent("out").path, "--no-progress"]
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        try process.run()
        var helpers: [Int32] = []
        for _ in 0..<200 where helpers.isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
            helpers = processes(holding: "lpcheck-codec frames \(folder.path)")
        }
        #expect(!helpers.isEmpty, "no helper started")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        var alive = helpers
        for _ in 0..<20 where !alive.isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
            alive = processes(holding: "lpcheck-codec frames \(folder.path)")
        }
        #expect(alive.isEmpty, "signal \(signal): helper \(alive) still runs 1 s after lpcheck ended")
        for pid in alive { kill(pid, SIGKILL) }
    }

    @Test("the helper's progress channel cannot be forged: a GIF named with newlines and a progress line, whose LZW data breaks, and a stand-in printing forged and negative progress lines: under a terminal (the bar drawn) lpcheck ends without a signal, its message one line")
    func unforgeableProgress() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let python = try #require(Locations.tool("python3"))
        let name = "x\nprogress 200 100\ny.gif"
        let gif = scratch.appendingPathComponent(name)
        // 60 frames of 2×2; the 40th's LZW data is a code past the table.
        let made = try ProcessResult.run(python, ["-c", """
            import struct, sys
            good = bytes([0x21, 0xF9, 4, 0, 5, 0, 0, 0, 0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 3, 0x44, 0x02, 0x05, 0])
            bad = bytes([0x21, 0xF9, 4, 0, 5, 0, 0, 0, 0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 3, 0xFF, 0xFF, 0xFF, 0])
            frames = b''.join(bad if i == 39 else good for i in range(60))
            open(sys.argv[1], 'wb').write(b'GIF89a' + struct.pack('<HH', 2, 2) + bytes([0x80, 0, 0, 0, 0, 0, 255, 255, 255]) + frames + b';')
            """, gif.path])
        #expect(made.status == 0, "\(made.stderr)")
        let binary = try #require(Locations.lpcheckBinary).path
        let spawn = "import pty, os, sys\nstatus = pty.spawn(sys.argv[1:])\nsys.exit(os.waitstatus_to_exitcode(status) & 0xFF if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))"
        let terminal = try ProcessResult.run(python, ["-c", spawn, binary, "make", gif.path, "-o", scratch.appendingPathComponent("out").path], timeout: 120)
        #expect(terminal.status == 2 && terminal.text.contains("nothing written"), "exit \(terminal.status): \(terminal.text)")
        let messages = terminal.text.split(separator: "\n").filter { $0.contains("nothing written") }
        #expect(messages.count == 1 && messages[0].contains("\\nprogress 200 100\\ny.gif"), "\(messages)")
        let stand = try standIn(scratch, "forger.sh", "#!/bin/sh\nprintf 'progress 200 100\\nprogress -5 100\\nprogress 7 -3\\nprogress abc 100 x\\n' >&2\necho 'lpcheck-codec: it broke' >&2\nexit 1\n")
        let pair = try cameraPair(scratch)
        let forged = try ProcessResult.run("/usr/bin/env", ["LPCHECK_CODEC=\(stand)", python, "-c", spawn, binary, "export", pair.path, "--as", "reverse", "-o", scratch.appendingPathComponent("o2").path],
                                           timeout: 120)
        #expect(forged.status == 1 && forged.text.contains("it broke") && !forged.text.contains("200/100"), "exit \(forged.status): \(forged.text)")
    }

    @Test("movies whose sample tables contradict each other: check reports sample-tables-inconsistent (an error, damage) with the numbers, and export refuses them in every form (movie, loop, reverse, bounce, gif) without --force, nothing written; with --force the helper never crashes",
          arguments: HostileInputs.brokenTables.map(\.name))
    func brokenTables(_ name: String) throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.folder(scratch, only: [name])
        let words = try #require(HostileInputs.brokenTables.first { $0.name == name }?.words)
        let check = try lpcheck(["check", folder.path, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let findings = ((report["items"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        let finding = findings.first { $0["rule"] as? String == "sample-tables-inconsistent" }
        #expect(finding?["severity"] as? String == "error" && (finding?["message"] as? String ?? "").contains(words), "\(name): \(findings)")
        for form in ["movie", "loop", "reverse", "bounce", "gif"] {
            let output = scratch.appendingPathComponent("out-\(form)")
            let export = try lpcheck(["export", folder.path, "--as", form, "-o", output.path, "--no-progress"])
            #expect(export.status == 1 && export.text.contains("is damaged (sample-tables-inconsistent") && export.text.contains("without --force"), "\(name) \(form): \(export.text)")
            #expect(HostileInputs.left(output).isEmpty, "\(name) \(form): \(HostileInputs.left(output))")
        }
        for form in ["reverse", "gif"] {
            let forced = try lpcheck(["export", folder.path, "--as", form, "-o", scratch.appendingPathComponent("forced-\(form)").path, "--no-progress", "--force"])
            #expect(forced.status < 128 && !forced.text.contains("crashed") && !forced.stderr.contains("Fatal error"), "\(name) \(form) --force: exit \(forced.status): \(forced.text)")
        }
    }

    @Test("an HEVC movie without stss (every sample sync by the format's rule; only the first is an IRAP picture): make's HEIC still is the frame at the moment within 38 dB of ffmpeg's (it was a P picture decoded flat grey), and the plan says the still is decoded, not copied")
    func hevcWithoutSyncTable() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Locations.require(Locations.pythonHas("pillow_heif"), "pillow-heif")
        let encoded = scratch.appendingPathComponent("encoded.mov"), movie = scratch.appendingPathComponent("nostss.mov")
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=2", "-c:v", "libx265", "-x265-params", "log-level=error:keyint=60",
                                                                       "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-y", encoded.path], timeout: 120)
        #expect(made.status == 0, "\(made.stderr)")
        var bytes = [UInt8](try Data(contentsOf: encoded))
        let walk = BoxWalk(bytes: bytes)
        var range = 0..<bytes.count
        for type in ["moov", "trak", "mdia", "minf", "stbl"] { range = try #require(walk.children(range).first { $0.type == type }).body }
        let stss = try #require(walk.children(range).first { $0.type == "stss" })
        bytes.replaceSubrange((stss.body.lowerBound - 4)..<stss.body.lowerBound, with: Array("free".utf8))
        try Data(bytes).write(to: movie)
        let output = scratch.appendingPathComponent("out")
        let make = try lpcheck(["make", movie.path, "-o", output.path])
        #expect(make.status == 0 && make.text.contains("is marked sync (the track has no stss") && make.text.contains("decoded and encoded, not copied"), "exit \(make.status): \(make.text)\(make.stderr)")
        let reference = scratch.appendingPathComponent("reference.png")
        let frame = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-ss", "1.0", "-i", encoded.path, "-frames:v", "1", "-y", reference.path])
        #expect(frame.status == 0, "\(frame.stderr)")
        let python = try #require(Locations.tool("python3"))
        let compare = try ProcessResult.run(python, ["-c", """
            import math, sys
            from pillow_heif import register_heif_opener
            from PIL import Image
            register_heif_opener()
            a = Image.open(sys.argv[1]).convert('RGB'); b = Image.open(sys.argv[2]).convert('RGB')
            assert a.size == b.size, (a.size, b.size)
            pa, pb = a.tobytes(), b.tobytes()
            mse = sum((x - y) ** 2 for x, y in zip(pa, pb)) / len(pa)
            print(99 if mse == 0 else 10 * math.log10(255 * 255 / mse))
            """, output.appendingPathComponent("nostss.HEIC").path, reference.path], timeout: 120)
        let decibels = Double(compare.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(decibels >= 38, "\(decibels) dB: \(compare.stderr)")
    }

    @Test("make's failures are one line naming the input: a garbage avcC (the codec's reason, no context address), an odd-sided 4:4:4 movie (--still jpeg suggested, and it works), a movie showing no frame, a 0×0 GIF, a GIF padded past 40 Mpx (refused before encoding, never naming the temporary); --movie-seconds 1e-300 is a usage error; a 33° matrix is said in the plan")
    func makeMessages() throws {
        let scratch = try exports.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = try HostileInputs.folder(scratch, only: ["tables-avcC-garbage.mov", "no-frame-shown.mov", "gif-0x0.gif", "gif-padded-past-limit.gif", "matrix-33-degrees.mov"])
        let odd = folder.appendingPathComponent("odd-444.mov")
        let made = try ProcessResult.run(try exports.tool("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=321x241:rate=30:duration=1", "-c:v", "libx264", "-pix_fmt", "yuv444p", "-y", odd.path])
        #expect(made.status == 0, "\(made.stderr)")
        let cases: [(String, [String], [String])] = [
            ("tables-avcC-garbage.mov", [], ["decoding and encoding the still", "h264"]),
            ("odd-444.mov", [], ["321×241", "--still jpeg makes a JPEG still of it"]),
            ("no-frame-shown.mov", [], ["shows no frame within the movie's duration"]),
            ("gif-0x0.gif", [], ["a logical screen of 0×0: the GIF has no picture to show"]),
            ("gif-padded-past-limit.gif", [], ["6326×6324 frames (4:2:0 needs even sides), more than the 40000000 pixels"]),
        ]
        for (name, options, words) in cases {
            let output = scratch.appendingPathComponent("out-\(name)")
            let run = try lpcheck(["make", folder.appendingPathComponent(name).path, "-o", output.path] + options)
            let lines = run.stderr.split(separator: "\n")
            #expect(run.status == 2 && lines.count == 1 && lines[0].contains(folder.appendingPathComponent(name).path) && words.allSatisfy { lines[0].contains($0) }
                    && !run.stderr.contains(" @ 0x") && !run.stderr.contains("lpcheck-tmp"), "\(name): exit \(run.status): \(run.stderr)")
            #expect(HostileInputs.left(output).isEmpty, "\(name): \(HostileInputs.left(output))")
        }
        let jpeg = try lpcheck(["make", odd.path, "-o", scratch.appendingPathComponent("jpeg").path, "--still", "jpeg"])
        #expect(jpeg.status == 0, "\(jpeg.stderr)")
        let tiny = try lpcheck(["make", folder.appendingPathComponent("matrix-33-degrees.mov").path, "-o", scratch.appendingPathComponent("tiny").path, "--movie-seconds", "1e-300"])
        #expect(tiny.status == 2 && tiny.stderr.contains("--movie-seconds takes 0 (the whole clip) or 0.5 to 86400 seconds"), "\(tiny.stderr)")
        let turned = try lpcheck(["make", folder.appendingPathComponent("matrix-33-degrees.mov").path, "-o", scratch.appendingPathComponent("turned").path])
        #expect(turned.status == 0 && turned.text.contains("turns by 33°") && turned.text.contains("will not look alike"), "\(turned.text)")
    }
}
