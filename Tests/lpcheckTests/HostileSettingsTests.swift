import Foundation
import LivePhotoTestSupport
import Testing

/// Writers' output folders and configuration files set by a hostile user: a link in the output
/// folder is never written through, `make` never replaces its own inputs, a configuration that
/// expands without bound is refused before it is expanded.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct HostileSettingsTests {
    static func lpcheck(_ arguments: [String], in folder: URL? = nil, timeout: Double = 120) throws -> ProcessResult {
        let binary = try #require(Locations.lpcheckBinary).path
        guard let folder else { return try ProcessResult.run(binary, arguments, timeout: timeout) }
        // In `folder`, where a `.lpcheck.yml` is read from.
        return try ProcessResult.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, binary] + arguments, timeout: timeout)
    }

    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func sha256(_ url: URL) throws -> String {
        try ProcessResult.run("/usr/bin/sha256sum", [url.path]).text.split(separator: " ").first.map(String.init) ?? ""
    }

    static let still = Locations.samples.appendingPathComponent("camera-pair.jpg")
    static let movie = Locations.samples.appendingPathComponent("camera-pair.mov")

    @Test("make --force and convert --force with a symbolic link at an output's name: refused naming the link's target; the target and the link are unchanged")
    func linksNotWrittenThrough() throws {
        let root = try Self.folder("links")
        defer { try? FileManager.default.removeItem(at: root) }
        let victim = root.appendingPathComponent("victim.txt")
        try Data("precious, elsewhere on disk\n".utf8).write(to: victim)
        let before = try Self.sha256(victim)
        let output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for name in ["camera-pair.JPG", "camera-pair.MP.jpg"] {
            try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent(name).path, withDestinationPath: victim.path)
        }
        let made = try Self.lpcheck(["make", Self.still.path, Self.movie.path, "--output", output.path, "--force"])
        #expect(made.status == 2, "\(made.text)\(made.stderr)")
        #expect(made.stderr.contains("symbolic link (to \(victim.path))"), "\(made.stderr)")
        let converted = try Self.lpcheck(["convert", Self.still.path, Self.movie.path, "--to", "motion-photo", "--output", output.path, "--force"])
        #expect(converted.status != 0)
        #expect(converted.text.contains("symbolic link (to \(victim.path))"), "\(converted.text)")
        #expect(!converted.text.contains("wrote"))
        #expect(try Self.sha256(victim) == before)
        for name in ["camera-pair.JPG", "camera-pair.MP.jpg"] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output.appendingPathComponent(name).path) == victim.path)
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("camera-pair.MOV").path))
    }

    @Test("make --output beside its inputs, with and without --force: refused as the input, both inputs unchanged")
    func makeKeepsItsInputs() throws {
        let root = try Self.folder("make-inputs")
        defer { try? FileManager.default.removeItem(at: root) }
        let still = root.appendingPathComponent("camera-pair.JPG"), movie = root.appendingPathComponent("camera-pair.MOV")
        try FileManager.default.copyItem(at: Self.still, to: still)
        try FileManager.default.copyItem(at: Self.movie, to: movie)
        let sums = try [Self.sha256(still), Self.sha256(movie)]
        for force in [false, true] {
            let result = try Self.lpcheck(["make", still.path, movie.path, "--output", root.path] + (force ? ["--force"] : []))
            #expect(result.status == 2, "\(result.text)\(result.stderr)")
            #expect(result.stderr.contains("is the input"), "\(result.stderr)")
        }
        // The same files through another path (a hard link's name is another path, one inode).
        let relative = try Self.lpcheck(["make", still.path, movie.path, "--output", root.path + "/./", "--force"])
        #expect(relative.status == 2 && relative.stderr.contains("is the input"), "\(relative.stderr)")
        #expect(try [Self.sha256(still), Self.sha256(movie)] == sums)
    }

    static func measured(_ arguments: [String], in folder: URL) throws -> (status: Int, stderr: String, kilobytes: Int, cpu: Double) {
        try ProcessResult.measured(try #require(Locations.lpcheckBinary).path, arguments, in: folder)
    }

    @Test("a 352-byte .lpcheck.yml of anchors and aliases (10^9 values) exits 2 naming the reason, in under a second of CPU and 50 MB; deep nesting on a line or in brackets is refused the same way")
    func configurationBombs() throws {
        let root = try Self.folder("config-bomb")
        defer { try? FileManager.default.removeItem(at: root) }
        var lines = ["a: &a [\(Array(repeating: "\"x\"", count: 10).joined(separator: ","))]"]
        for (name, previous) in zip("bcdefghi", "abcdefgh") {
            lines.append("\(name): &\(name) [\(Array(repeating: "*\(previous)", count: 10).joined(separator: ","))]")
        }
        let bombs = [lines.joined(separator: "\n") + "\n",
                     String(repeating: "- ", count: 30_000) + "x\n",
                     "exclude: " + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "\n"]
        let reasons = ["more than 10000 values", "levels on a line", "brackets"]
        for (bomb, reason) in zip(bombs, reasons) {
            try Data(bomb.utf8).write(to: root.appendingPathComponent(".lpcheck.yml"))
            let run = try Self.measured(["check", Self.still.path], in: root)
            #expect(run.status == 2, "\(reason): \(run.stderr)")
            #expect(run.stderr.contains(reason), "\(run.stderr)")
            #expect(run.cpu < 1, "\(reason): \(run.cpu) s of CPU")
            #expect(run.kilobytes < 50_000, "\(reason): \(run.kilobytes) KiB")
        }
        // Anchors and aliases that do not multiply are still YAML lpcheck reads.
        try Data("settings: &s\n  maxMovieSeconds: 4\nexclude: [\"*.tmp\"]\n".utf8).write(to: root.appendingPathComponent(".lpcheck.yml"))
        #expect(try Self.lpcheck(["check", Self.still.path, Self.movie.path], in: root).status == 0)
    }

    @Test("contradictions and impossible settings are errors (exit 2): expect with unexpected-item off (in the file, or --expect on the command line), maxMovieSeconds .inf")
    func contradictionsRefused() throws {
        let root = try Self.folder("config-contradiction")
        defer { try? FileManager.default.removeItem(at: root) }
        let cases = [("expect: live-photo\nrules:\n  unexpected-item: off\n", [String](), "needs the rule unexpected-item"),
                     ("rules:\n  unexpected-item: off\n", ["--expect", "live-photo"], "needs the rule unexpected-item"),
                     ("settings:\n  maxMovieSeconds: .inf\n", [], "positive finite number"),
                     ("settings:\n  frameDurationRatio: .nan\n", [], "positive finite number")]
        for (text, arguments, reason) in cases {
            try Data(text.utf8).write(to: root.appendingPathComponent(".lpcheck.yml"))
            let result = try Self.lpcheck(["check", Locations.samples.appendingPathComponent("plain-frame.jpg").path] + arguments, in: root)
            #expect(result.status == 2, "\(text): \(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
        }
    }

    @Test("an output folder that cannot be made is said with the system's reason (exit 2), never a Foundation error; scan takes --no-progress as the other commands do")
    func outputFolderErrors() throws {
        let file = Locations.packageRoot.appendingPathComponent("README.md").path
        for (output, reason) in [(file + "/out", "is not a folder"), ("/proc/lpcheck-output", "No such file or directory")] {
            for command in [["make", Self.still.path, Self.movie.path], ["convert", Self.still.path, Self.movie.path, "--to", "motion-photo"]] {
                let result = try Self.lpcheck(command + ["--output", output])
                #expect(result.status == 2, "\(command[0]) \(output): \(result.text)\(result.stderr)")
                #expect(result.stderr.contains("cannot make the output folder") && result.stderr.contains(reason), "\(result.stderr)")
                #expect(!result.stderr.contains("NSCocoaErrorDomain"))
            }
        }
        let scan = try Self.lpcheck(["scan", Self.still.path, "--no-progress"])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    @Test("sidecar dates that are no time (1e308, NaN, year 10000, before year 1, an XMP date of 1899) give one info finding each naming the sidecar, never a silent drop or a year-0 date; a usable one gives none",
          arguments: [("{\"photoTakenTime\": {\"timestamp\": \"1e308\"}}", "camera-pair.jpg.json", true),
                      ("{\"photoTakenTime\": {\"timestamp\": \"NaN\"}}", "camera-pair.jpg.json", true),
                      ("{\"photoTakenTime\": {\"timestamp\": \"253402300800\"}}", "camera-pair.jpg.json", true),
                      ("{\"photoTakenTime\": {\"timestamp\": \"-62135596801\"}}", "camera-pair.jpg.json", true),
                      ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:DateTimeOriginal=\"1899:12:31 23:59:59\"/></rdf:RDF></x:xmpmeta>", "camera-pair.xmp", true),
                      ("{\"photoTakenTime\": {\"timestamp\": \"1700000000\"}}", "camera-pair.jpg.json", false)])
    func unusableSidecarDates(text: String, name: String, unusable: Bool) throws {
        let root = try Self.folder("sidecar-dates")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Self.still, to: root.appendingPathComponent("camera-pair.jpg"))
        try FileManager.default.copyItem(at: Self.movie, to: root.appendingPathComponent("camera-pair.mov"))
        try Data(text.utf8).write(to: root.appendingPathComponent(name))
        let result = try Self.lpcheck(["check", root.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let findings = (object["items"] as? [[String: Any]] ?? []).flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        let unusableFindings = findings.filter { $0["rule"] as? String == "sidecar-time-unusable" }
        #expect(unusableFindings.count == (unusable ? 1 : 0), "\(findings)")
        if unusable {
            #expect(unusableFindings.first?["severity"] as? String == "info")
            #expect((unusableFindings.first?["message"] as? String)?.contains(name) == true)
            #expect(!findings.contains { $0["rule"] as? String == "sidecar-time-mismatch" })
        }
        #expect(!result.text.contains("0-12-31"))
    }

    @Test("a file named with a right-to-left override (IMG_\\u202EGPJ.exe.jpg) and a Make holding one: no raw U+202E and no ESC in the terminal summary or the HTML report")
    func bidiOverridesEscaped() throws {
        let root = try Self.folder("bidi")
        defer { try? FileManager.default.removeItem(at: root) }
        let name = "IMG_\u{202E}GPJ.exe.jpg"
        try FileManager.default.copyItem(at: Self.still, to: root.appendingPathComponent(name))
        let exiftool = try #require(Locations.tool("exiftool"), "exiftool")
        let tagged = try ProcessResult.run(exiftool, ["-overwrite_original", "-Make=Apple\u{202E}\u{1B}[2Jevil", root.appendingPathComponent(name).path])
        try #require(tagged.status == 0, "\(tagged.stderr)")
        let terminal = try Self.lpcheck(["check", root.path, "--verbose"])
        let html = root.appendingPathComponent("report.html").path
        let page = try Self.lpcheck(["check", root.path, "--format", "html", "--output", html])
        let pageText = try String(contentsOfFile: html, encoding: .utf8)
        for (what, text) in [("terminal", terminal.text + terminal.stderr), ("html", pageText + page.stderr)] {
            #expect(!text.unicodeScalars.contains("\u{202E}"), "\(what) holds a raw U+202E")
            #expect(!text.unicodeScalars.contains("\u{1B}"), "\(what) holds an ESC")
            #expect(text.contains("GPJ.exe.jpg"), "\(what) does not name the file")
        }
        #expect(pageText.contains("U+202E"))
    }

    @Test("keys that are no plain names (YAML's `? [a]: b`, at the top or in rules or settings; Yams' constructor trapped on them, found by the configuration fuzz target) exit 2 naming the reason", arguments: [
        "? [a]: b\n", "rules:\n  ? [movie-absent]: off\n", "settings:\n  ? {a: 1}: 3\n",
        String(decoding: (try? Data(contentsOf: Locations.samples.appendingPathComponent("corrupt/fuzz/configuration-complex-key-trapped-yams.yml"))) ?? Data(), as: UTF8.self),
    ])
    func complexKeysRefused(_ text: String) throws {
        try #require(!text.isEmpty, "the saved fuzz crash is missing")
        let root = try Self.folder("config-key")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(text.utf8).write(to: root.appendingPathComponent(".lpcheck.yml"))
        let result = try Self.lpcheck(["check", Self.still.path], in: root)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("a key that is not a plain name"), "\(result.stderr)")
    }
}
