import Foundation
import LivePhotoTestSupport
import Testing

/// The conventions people already type (issue 52): include and exclude globs on the command
/// line, a quoted glob as a path, scan's help without the options that do nothing there, and the
/// first run on `Samples/` telling the truth about the good samples.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct TerminalConventionsTests {
    func lpcheck(_ arguments: [String], in folder: URL? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, currentDirectory: folder)
    }

    /// The paths of every file of a JSON check report's items.
    func checkedPaths(_ result: ProcessResult) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        return (report["items"] as? [[String: Any]] ?? []).flatMap { item in [item["still"], item["movie"]].compactMap { $0 as? String } }
    }

    /// The media files below `Samples/` as the file system lists them (relative, not hidden).
    func samples(_ keep: (String) -> Bool) throws -> Set<String> {
        let walker = try #require(FileManager.default.enumerator(atPath: Locations.samples.path))
        var found = Set<String>()
        for case let path as String in walker where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: Locations.samples.appendingPathComponent(path).path, isDirectory: &folder), !folder.boolValue, keep(path) {
                found.insert("Samples/" + path)
            }
        }
        return found
    }

    @Test("--include and --exclude on the command line, and a quoted glob as a path, choose the files the file system's own listing says they match; without them the broken samples are checked")
    func includeAndExclude() throws {
        let root = Locations.samples.deletingLastPathComponent()
        let all = Set(try checkedPaths(try lpcheck(["check", "Samples", "--format", "json", "--no-progress"], in: root)))
        #expect(all.contains { $0.hasPrefix("Samples/corrupt/") }, "\(all)")
        let excluded = Set(try checkedPaths(try lpcheck(["check", "Samples", "--exclude", "corrupt/**", "--format", "json", "--no-progress"], in: root)))
        #expect(!excluded.isEmpty && excluded == all.filter { !$0.hasPrefix("Samples/corrupt/") }, "\(excluded)")
        let movies = Set(try checkedPaths(try lpcheck(["check", "Samples", "--include", "*.mov", "--format", "json", "--no-progress"], in: root)))
        #expect(movies == (try samples { $0.hasSuffix(".mov") }), "\(movies)")
        // A quoted glob: the folder before its wildcard walked, the files the pattern names kept.
        let stills = Set(try checkedPaths(try lpcheck(["check", "Samples/*.jpg", "--format", "json", "--no-progress"], in: root)))
        #expect(stills == (try samples { !$0.contains("/") && $0.hasSuffix(".jpg") }) && stills.count >= 3, "\(stills)")
        // Beside a glob, a folder keeps all it holds.
        let mixed = Set(try checkedPaths(try lpcheck(["check", "Samples/*.jpg", "Samples/corrupt/fuzz", "--format", "json", "--no-progress"], in: root)))
        #expect(mixed == stills.union(try samples { $0.hasPrefix("corrupt/fuzz/") }.filter { all.contains($0) }), "\(mixed.subtracting(stills))")
    }

    @Test("scan's help leaves out the options that do nothing there (--fail-on, --expect, --baseline, --profile, --no-progress), and convert's, strip's and export's the gate's, which they still accept; they list --include and --exclude; repair, which gates, lists --fail-on")
    func scanHelp() throws {
        let help = try lpcheck(["scan", "--help"])
        for option in ["--fail-on", "--expect", "--baseline", "--profile", "--no-progress"] {
            #expect(!help.text.contains(option), "scan --help lists \(option)")
        }
        #expect(help.text.contains("--include") && help.text.contains("--exclude"))
        let root = Locations.samples.deletingLastPathComponent()
        let scanned = try lpcheck(["scan", "Samples/camera-pair.jpg", "--fail-on", "warning", "--no-progress", "--expect", "live-photo"], in: root)
        #expect(scanned.status == 0 && scanned.text.contains("camera-pair.jpg"), "\(scanned.stderr)")
        // convert, strip and export gate on nothing: their help leaves out the gate's options,
        // which they still take; repair gates, and lists them.
        for command in ["convert", "strip", "export"] {
            let text = try lpcheck([command, "--help"]).text
            #expect(!text.contains("--fail-on") && !text.contains("--baseline") && !text.contains("--expect") && text.contains("--profile") && text.contains("--include"), "\(command)")
        }
        #expect(try lpcheck(["repair", "--help"]).text.contains("--fail-on"))
        let stripped = try lpcheck(["strip", "Samples/camera-pair.jpg", "-o", FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-unused-\(UUID().uuidString)").path,
                                    "--dry-run", "--fail-on", "warning", "--expect", "live-photo"], in: root)
        #expect(stripped.status == 0 && stripped.text.contains("would be stripped"), "\(stripped.text)\(stripped.stderr)")
    }

    @Test("the first run on Samples/ passes the good pairs: no finding on camera-pair or software-pair (the broken copies carry an identifier of their own), every failing item is under corrupt/ or the hostile sample, none is a variant of a good one or names one in a finding")
    func firstRunTellsTheTruth() throws {
        let root = Locations.samples.deletingLastPathComponent()
        let result = try lpcheck(["check", "Samples", "--format", "json", "--no-progress"], in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var good = 0
        for item in report["items"] as? [[String: Any]] ?? [] {
            let paths = [item["still"], item["movie"]].compactMap { $0 as? String }
            let findings = (item["findings"] as? [[String: Any]] ?? []).filter { ($0["severity"] as? String) != "info" }
            // No broken item is taken for a rendition of a good one, nor names one as sharing its identifier.
            #expect(item["variantOf"] == nil, "\(paths) is called a variant of \(item["variantOf"] ?? "")")
            for finding in findings {
                let message = finding["message"] as? String ?? ""
                #expect(!message.contains("camera-pair") && !message.contains("software-pair"), "\(paths): \(message)")
            }
            if paths.contains(where: { $0.contains("corrupt/") || $0.contains("hostile-metadata") }) { continue }
            #expect(findings.isEmpty, "\(paths): \(findings)")
            good += 1
        }
        #expect(good >= 4, "\(good) good items")
    }

    @Test("--json is --format json (check's report on standard output follows its schema and has the same items; dump's and rules' are the same bytes); -q prints no summary and -v lists every item; --color always colours under NO_COLOR, never and auto (not a terminal) do not; rules ID shows one rule, rules --json follows its schema, a misspelt ID exits 2 naming the nearest")
    func commonOptions() throws {
        let pair = [Locations.samples.appendingPathComponent("camera-pair.jpg").path, Locations.samples.appendingPathComponent("camera-pair.mov").path]
        let json = try lpcheck(["check", "--json", "--no-progress"] + pair)
        let format = try lpcheck(["check", "--format", "json", "--no-progress"] + pair)
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        let violations = try validator.validate(json: json.stdout)
        let (aliasedPaths, spelledPaths) = (try checkedPaths(json), try checkedPaths(format))
        #expect(json.status == 0 && violations.isEmpty, "\(violations)")
        #expect(aliasedPaths == spelledPaths && !aliasedPaths.isEmpty)
        for command in [["dump", pair[0]], ["rules"]] {
            let (aliased, spelled) = (try lpcheck(command + ["--json"]), try lpcheck(command + ["--format", "json"]))
            #expect(aliased.status == 0 && aliased.stdout == spelled.stdout && (aliased.text.hasPrefix("[") || aliased.text.hasPrefix("{")), "\(command)")
        }
        let quiet = try lpcheck(["check", "-q", "--no-progress"] + pair)
        #expect(quiet.status == 0 && quiet.text.isEmpty, "\(quiet.text)")
        let plain = try lpcheck(["check", "--no-progress"] + pair), verbose = try lpcheck(["check", "-v", "--no-progress"] + pair)
        #expect(!plain.text.contains("pair \(pair[0])") && verbose.text.contains("pair \(pair[0])"), "\(verbose.text)")
        let escape = "\u{1B}["
        let always = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["check", "--color", "always", "--no-progress"] + pair, environment: ["NO_COLOR": "1"])
        let never = try lpcheck(["check", "--color", "never", "--no-progress"] + pair), auto = try lpcheck(["check", "--no-progress"] + pair)
        #expect(always.text.contains(escape) && !never.text.contains(escape) && !auto.text.contains(escape), "\(always.text)")
        let sometimes = try lpcheck(["check", "--color", "sometimes"] + pair)
        #expect(sometimes.status == 2)
        // rules ID, rules --json, and a misspelt identifier.
        let one = try lpcheck(["rules", "movie-absent", "--json"])
        let rules = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("rules.schema.json"))
        let ruleViolations = try rules.validate(json: one.stdout)
        #expect(one.status == 0 && ruleViolations.isEmpty, "\(ruleViolations)")
        let listed = (try JSONSerialization.jsonObject(with: one.stdout) as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["identifier"] as? String } == ["movie-absent"] && listed.first?["rationale"] != nil, "\(listed)")
        let text = try lpcheck(["rules", "movie-absent"])
        #expect(text.text.hasPrefix("movie-absent") && text.text.contains("why:") && text.text.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count == 1, "\(text.text)")
        let misspelt = try lpcheck(["rules", "movie-absnt"])
        #expect(misspelt.status == 2 && misspelt.stderr.contains("did you mean movie-absent"), "\(misspelt.stderr)")
    }

    @Test("NO_COLOR turns colour off and leaves make's progress bar on a terminal (script(1) gives it one): a 60-frame GIF draws its frames")
    func noColorKeepsTheBar() throws {
        let script = try #require(Locations.tool("script"), "script (util-linux)")
        let ffmpeg = try #require(Locations.tool("ffmpeg"), "ffmpeg")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-bar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let gif = work.appendingPathComponent("sixty.gif")
        let made = try ProcessResult.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=20", "-t", "3", gif.path])
        #expect(made.status == 0, "\(made.stderr)")
        let binary = try #require(Locations.lpcheckBinary).path
        let run = try ProcessResult.run(script, ["-q", "-e", "-c", "'\(binary)' make '\(gif.path)' -o '\(work.appendingPathComponent("out").path)'", "/dev/null"],
                                        environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "TERM": "dumb"], timeout: 300)
        #expect(run.status == 0, "\(run.text)\(run.stderr)")
        #expect(run.text.contains("/60 frames"), "\(run.text)")
    }

    /// Runs lpcheck with a file on its standard input.
    func lpcheck(_ arguments: [String], input: URL) throws -> ProcessResult {
        let binary = try #require(Locations.lpcheckBinary).path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try ProcessResult.run("/bin/sh", ["-c", quoted + " < '\(input.path)'"])
    }

    @Test("- reads one file from standard input: dump - gives what dump FILE gives (but the path), check - checks it alone (a plain photo passes, a still alone is still-only), and - beside another path, or twice, exits 2")
    func standardInput() throws {
        let still = Locations.samples.appendingPathComponent("camera-pair.jpg"), plain = Locations.samples.appendingPathComponent("plain-frame.jpg")
        func withoutPath(_ data: Data) throws -> [Data] {
            let files = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            return try files.map { file in try JSONSerialization.data(withJSONObject: file.filter { $0.key != "path" }, options: [.sortedKeys]) }
        }
        let piped = try lpcheck(["dump", "--json", "-"], input: still), named = try lpcheck(["dump", "--json", still.path])
        let (pipedFiles, namedFiles) = (try withoutPath(piped.stdout), try withoutPath(named.stdout))
        #expect(piped.status == 0 && pipedFiles == namedFiles && !namedFiles.isEmpty, "\(piped.stderr)")
        let passes = try lpcheck(["check", "-", "--no-progress"], input: plain)
        #expect(passes.status == 0 && passes.text.contains("1 not-live-photo"), "\(passes.text)\(passes.stderr)")
        let alone = try lpcheck(["check", "-", "--json"], input: still)
        let items = (try JSONSerialization.jsonObject(with: alone.stdout) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(alone.status == 1 && items.count == 1 && items.first?["kind"] as? String == "still-only" && items.first?["still"] as? String == "-", "\(items)")
        let mixed = try lpcheck(["check", "-", Locations.samples.path], input: plain)
        let twice = try lpcheck(["dump", "-", "-"], input: plain)
        #expect(mixed.status == 2 && twice.status == 2 && mixed.stderr.contains("standard input") && twice.stderr.contains("once"), "\(mixed.stderr)\(twice.stderr)")
    }

    @Test("exit codes are the same everywhere and said in --help: an input that cannot be made as asked (--frame past the movie, pair or clip) and an existing output exit 2 with nothing made; a report that cannot be written exits 2 before anything is read (no --stats line)")
    func exitCodes() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-exit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let (still, movie) = (Locations.samples.appendingPathComponent("camera-pair.jpg").path, Locations.samples.appendingPathComponent("camera-pair.mov").path)
        let pastPair = try lpcheck(["make", still, movie, "--frame", "1000", "-o", work.appendingPathComponent("pair").path])
        let pastClip = try lpcheck(["make", movie, "--frame", "1000", "-o", work.appendingPathComponent("clip").path])
        #expect(pastPair.status == 2 && pastClip.status == 2, "\(pastPair.stderr)\(pastClip.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("pair").path), "a refused make left its folder")
        let made = try lpcheck(["make", still, movie, "-o", work.appendingPathComponent("twice").path])
        let again = try lpcheck(["make", still, movie, "-o", work.appendingPathComponent("twice").path])
        #expect(made.status == 0 && again.status == 2 && again.stderr.contains("--force"), "\(again.stderr)")
        let unwritable = try lpcheck(["check", Locations.samples.path, "-f", "json", "-o", "/nonexistent-lpcheck-folder/x.json", "--stats", "--no-progress"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("nothing was checked") && !unwritable.stderr.contains("stats:"), "\(unwritable.stderr)")
        // Previews go beside a page in a file: asked without one, usage (2) before anything is read.
        for format in [["-f", "json", "-o", work.appendingPathComponent("r.json").path], ["-f", "html"]] {
            let previews = try lpcheck(["check", Locations.samples.path, "--previews", "--stats"] + format)
            #expect(previews.status == 2 && previews.stderr.contains("--previews makes movies beside an HTML report written to a file") && !previews.stderr.contains("stats:"), "\(previews.stderr)")
        }
        let folder = try lpcheck(["check", Locations.samples.path, "-f", "json", "-o", work.path])
        #expect(folder.status == 2 && folder.stderr.contains("it is a folder"), "\(folder.stderr)")
        let help = try lpcheck(["--help"])
        #expect(help.text.contains("Exit status, the same for every command"), "\(help.text)")
        for command in ["check", "scan", "dump", "repair", "make", "convert", "export", "keyphoto", "strip", "rules"] {
            #expect(try lpcheck([command, "--help"]).text.contains("Exit status"), "\(command) --help says no exit status")
        }
    }

    @Test("messages say why: a verdict that is not pass names the rules that decided it (text and JSON); repair with nothing to do names the findings --align-dates would fix (a camera pair whose still ExifTool dated a day early); a configuration's problems are listed at once, each with the nearest rule, key or value; counts take the right number (1 file in 1 item, 1 warning)")
    func messagesSayWhy() throws {
        let pair = [Locations.samples.appendingPathComponent("camera-pair.jpg").path, Locations.samples.appendingPathComponent("camera-pair.mov").path]
        let text = try lpcheck(["check", "-v", "--no-progress"] + pair)
        #expect(text.text.contains("wallpaper uncertain because of") && text.text.contains("wallpaper-still-not-heic") && text.text.contains("--profile wallpaper lists them"), "\(text.text)")
        let report = try #require(try JSONSerialization.jsonObject(with: try lpcheck(["check", "--json"] + pair).stdout) as? [String: Any])
        let reasons = ((report["items"] as? [[String: Any]])?.first?["verdictReasons"] as? [String: Any])?["wallpaper"] as? [[String: Any]] ?? []
        #expect(reasons.contains { $0["rule"] as? String == "wallpaper-still-not-heic" && $0["reported"] as? Bool == false }, "\(reasons)")
        // repair: the date it leaves alone, and why.
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-why-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(at: try #require(Locations.sharedSamples).appendingPathComponent("LycheeOrg__Lychee/" + name), to: work.appendingPathComponent(name))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: work.appendingPathComponent(name).path)
        }
        let dated = try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-q", "-AllDates-=24", "-overwrite_original", work.appendingPathComponent("train.jpg").path])
        #expect(dated.status == 0, "\(dated.stderr)")
        let repair = try lpcheck(["repair", work.path, "--dry-run", "--no-progress"])
        #expect(repair.text.contains("Nothing to repair in 2 files") && repair.text.contains("1 finding that repair --align-dates would fix (capture-time-mismatch: 1)"), "\(repair.text)")
        let aligned = try lpcheck(["repair", work.path, "--dry-run", "--align-dates", "--no-progress"])
        #expect(!aligned.text.contains("would fix (") && aligned.text.contains("fixes capture-time-mismatch"), "\(aligned.text)")
        // A configuration with four mistakes: all four said, each with its nearest name.
        let config = work.appendingPathComponent("bad.yml")
        try "rules:\n  movie-absnt: off\n  capture-time-mismach: warning\nexclud:\n  - x\nfailOn: eror\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try lpcheck(["check", "--config", config.path] + pair)
        for expected in ["4 problems", "did you mean movie-absent?", "did you mean capture-time-mismatch?", "did you mean exclude?", "did you mean error?"] {
            #expect(configured.status == 2 && configured.stderr.contains(expected), "\(expected): \(configured.stderr)")
        }
        // Plurals.
        let one = try lpcheck(["check", "--no-progress", work.appendingPathComponent("train.jpg").path, work.appendingPathComponent("train.mov").path])
        #expect(one.text.contains("2 files in 1 item (1 pair)") && one.text.contains("0 errors, 1 warning, 0 infos"), "\(one.text)")
        let single = try lpcheck(["check", "--no-progress", pair[0]])
        #expect(single.text.contains("1 file in 1 item (1 still-only)") && single.text.contains("1 error, 0 warnings"), "\(single.text)")
    }

    @Test("make from a GIF of one frame (Pillow's transparent.gif, one frame by its inventory and by ffprobe) says first that nothing moves, and still makes the pair; a GIF of many frames does not say it; neither plan names a writer's temporary")
    func oneFrameGIF() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let gifs = try #require(Locations.sharedSamples).appendingPathComponent("gifs")
        let single = gifs.appendingPathComponent("python-pillow__Pillow__Tests_images_transparent.gif")
        let frames = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", single.path])
        #expect(frames.text.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(frames.text)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-gif1-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let made = try lpcheck(["make", single.path, "-o", work.appendingPathComponent("one").path, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: Any], "\(made.stderr)")
        let reasons = document["reasons"] as? [String] ?? []
        #expect(made.status == 0 && reasons.first?.hasPrefix("NOTHING MOVES") == true && (document["outputs"] as? [Any])?.count == 2, "\(reasons)")
        // No writer's temporary is named (the GIF's movie is named by the GIF).
        #expect(!made.text.contains("lpcheck-tmp") && made.text.contains("the movie made from"), "\(made.text)")
        let moving = try lpcheck(["make", gifs.appendingPathComponent("image-rs__image-gif__tests_samples_moon_impact.gif").path, "-o", work.appendingPathComponent("many").path])
        #expect(moving.status == 0 && !moving.text.contains("NOTHING MOVES") && moving.text.contains("14 frames") && !moving.text.contains("lpcheck-tmp"), "\(moving.text)")
    }

    @Test("a re-encoding export (--as bounce) and make from a GIF say what they will do before the work: stopped at their first write (LPCHECK_FAULT_STEP=1, an _exit that flushes nothing), their standard output already holds the plan")
    func planBeforeWork() throws {
        let binary = try #require(Locations.lpcheckBinary).path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_FAULT_STEP"] = "1"
        let bounce = try ProcessResult.run(binary, ["export", Locations.samples.appendingPathComponent("camera-pair.mov").path, "--as", "bounce", "-o", work.appendingPathComponent("bounce").path],
                                           environment: environment, timeout: 300)
        #expect(bounce.status == 86 && bounce.text.contains("camera-pair.bounce.mov") && bounce.text.contains("re-encoded"), "\(bounce.status): \(bounce.text)")
        let gif = work.appendingPathComponent("sixty.gif")
        let made = try ProcessResult.run(try #require(Locations.tool("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=20", "-t", "3", gif.path])
        #expect(made.status == 0)
        let fromGIF = try ProcessResult.run(binary, ["make", gif.path, "-o", work.appendingPathComponent("made").path], environment: environment, timeout: 300)
        #expect(fromGIF.status == 86 && fromGIF.text.contains("making") && fromGIF.text.contains("60 frames"), "\(fromGIF.status): \(fromGIF.text)")
    }

    @Test("--force and accepting a loss are two things: a Pixel motion photo whose conversion loses its vendor MakerNote is blocked naming --allow-loss, converts with --allow-loss alone, and a second run with --allow-loss is refused for the existing output, which --force replaces")
    func allowLossIsNotForce() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let pixel = try #require(Locations.sharedSamples).appendingPathComponent("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-loss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out").path
        let blocked = try lpcheck(["convert", pixel, "--to", "live-photo", "-o", out])
        #expect(blocked.status == 1 && blocked.text.contains("vendor MakerNote") && blocked.text.contains("(needs --allow-loss)"), "\(blocked.text)")
        let accepted = try lpcheck(["convert", pixel, "--to", "live-photo", "-o", out, "--allow-loss"])
        #expect(accepted.status == 0 && accepted.text.contains("wrote"), "\(accepted.text)\(accepted.stderr)")
        let again = try lpcheck(["convert", pixel, "--to", "live-photo", "-o", out, "--allow-loss"])
        #expect(again.status == 1 && again.text.contains("exists"), "\(again.text)")
        let forced = try lpcheck(["convert", pixel, "--to", "live-photo", "-o", out, "--force"])
        #expect(forced.status == 0, "\(forced.text)")
    }
}

