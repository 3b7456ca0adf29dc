import Foundation
import LivePhotoTestSupport
import Testing

/// `lpcheck check` as CI runs it: exit codes, reports, configuration, baseline.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct CheckCommandTests {
    func lpcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, environment: environment)
    }

    /// A scratch folder with links to some of our samples.
    func folder(_ names: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(at: url.appendingPathComponent(name), withDestinationURL: Locations.samples.appendingPathComponent(name))
        }
        return url
    }

    @Test("a good pair exits 0; `lpcheck DIR` is `lpcheck check DIR`")
    func passes() throws {
        let dir = try folder(["camera-pair.jpg", "camera-pair.mov", "software-pair.jpg", "software-pair.mov", "plain-frame.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try lpcheck([dir.path])
        #expect(result.status == 0, "\(result.text)")
        #expect(result.text.contains("PASS"))
        #expect(try lpcheck(["check", dir.path]).status == 0)
    }

    @Test("findings at or above --fail-on exit 1; --fail-on never exits 0")
    func failOn() throws {
        let dir = try folder(["camera-pair.jpg", "hostile-metadata.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = try lpcheck([dir.path])
        #expect(failing.status == 1)
        #expect(failing.text.contains("movie-absent"))
        #expect(try lpcheck(["--fail-on", "never", dir.path]).status == 0)
    }

    @Test("several reports in one run; JSON on standard output validates against the schema")
    func reports() throws {
        let dir = try folder(["camera-pair.jpg", "camera-pair.mov", "hostile-metadata.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = dir.appendingPathComponent("report.html").path
        let sarif = dir.appendingPathComponent("report.sarif").path
        let result = try lpcheck(["check", "--format", "html", "--output", html, "--format", "sarif", "--output", sarif, "--format", "json", dir.path])
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: html))
        #expect(FileManager.default.fileExists(atPath: sarif))
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        #expect(try validator.validate(json: result.stdout).isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(Set(items.compactMap { $0["kind"] as? String }) == ["pair", "still-only"])
    }

    @Test("a report file written in 64 KiB pieces holds exactly the report standard output gets")
    func outputInPieces() throws {
        let dir = try folder([])
        defer { try? FileManager.default.removeItem(at: dir) }
        // 400 pairs (symbolic links to one sample pair): a JSON report of several hundred KiB.
        for index in 0..<400 {
            for (name, suffix) in [("camera-pair.jpg", "jpg"), ("camera-pair.mov", "mov")] {
                try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("IMG_\(index).\(suffix)"),
                                                           withDestinationURL: Locations.samples.appendingPathComponent(name))
            }
        }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        for format in ["json", "html", "sarif"] {
            let file = reports.appendingPathComponent("report.\(format)")
            _ = try lpcheck(["check", "--format", format, "--output", file.path, "--jobs", "2", dir.path])
            let standard = try lpcheck(["check", "--format", format, "--jobs", "2", dir.path])
            let written = try Data(contentsOf: file)
            #expect(written.count > 3 << 16, "\(format): \(written.count) bytes")
            #expect(written == standard.stdout, "\(format)")
        }
    }

    @Test("--output writes where the path points: a symbolic link stays a link (no atomic replace, which would also replace /dev/null)")
    func outputInPlace() throws {
        let dir = try folder(["camera-pair.jpg", "camera-pair.mov"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let target = reports.appendingPathComponent("kept.json")
        try Data(repeating: 0x20, count: 1 << 20).write(to: target)
        let link = reports.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(try lpcheck(["check", "--format", "json", "--output", link.path, dir.path]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        // The target holds the new report alone (truncated first, not overwritten in part).
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: target)) as? [String: Any]
        #expect(written?["items"] != nil)
    }

    @Test("bad usage, a bad configuration, or nothing readable exit 2")
    func usage() throws {
        #expect(try lpcheck(["check"]).status == 2)
        #expect(try lpcheck(["check", "--fail-on", "sometimes", "."]).status == 2)
        #expect(try lpcheck(["check", "--output", "x.json", "."]).status == 2)
        let empty = try folder([])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try lpcheck([empty.path]).status == 2)
        let config = empty.appendingPathComponent("bad.yml")
        try Data("rules:\n  not-a-rule: off\n".utf8).write(to: config)
        let bad = try lpcheck(["check", "--config", config.path, Locations.samples.path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("not-a-rule"))
    }

    @Test("a configuration disables a rule; a baseline accepts known findings")
    func configAndBaseline() throws {
        let dir = try folder(["camera-pair.jpg", "hostile-metadata.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("lpcheck.yml")
        try Data("rules:\n  movie-absent: off\n".utf8).write(to: config)
        #expect(try lpcheck(["check", "--config", config.path, dir.path]).status == 0)

        let baseline = dir.appendingPathComponent("baseline.json").path
        _ = try lpcheck(["check", "--format", "json", "--output", baseline, dir.path])
        let accepted = try lpcheck(["check", "--baseline", baseline, dir.path])
        #expect(accepted.status == 0, "\(accepted.text)")
        #expect(accepted.text.contains("accepted by the baseline"))
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("new.jpg"), withDestinationURL: Locations.samples.appendingPathComponent("software-pair.jpg"))
        #expect(try lpcheck(["check", "--baseline", baseline, dir.path]).status == 1)
    }

    @Test("no colour when NO_COLOR is set or output is not a terminal")
    func noColor() throws {
        let dir = try folder(["hostile-metadata.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let result = try lpcheck([dir.path], environment: environment)
        #expect(!result.text.contains("\u{1B}["))
        #expect(!result.stderr.contains("\u{1B}[") || result.stderr.isEmpty)
    }

    @Test("check --format json on ../shared/samples: exit 1, every file classified, valid JSON", .enabled(if: Locations.hasSharedSamples))
    func sharedSamples() throws {
        let root = try #require(Locations.sharedSamples)
        let result = try lpcheck(["check", "--format", "json", root.path])
        #expect(result.status == 1)
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("check.schema.json"))
        #expect(try validator.validate(json: result.stdout).isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        let placed = items.flatMap { [$0["still"] as? String, $0["movie"] as? String].compactMap { $0 } }
        #expect(placed.count == SharedSamples.mediaFiles().count)
        let kinds = (json["summary"] as? [String: Any])?["kinds"] as? [String: Int]
        #expect(kinds?["pair"] == 4)
        #expect(kinds?["still-only"] == 10)
    }

    @Test("`lpcheck rules` lists every rule")
    func rules() throws {
        let result = try lpcheck(["rules"])
        #expect(result.status == 0)
        for id in ["still-missing-identifier", "identifier-mismatch", "still-image-time-missing", "still-image-time-outside-movie", "motion-photo-video-missing", "truncated-file"] {
            #expect(result.text.contains(id))
        }
    }

    @Test("the camera pair train.jpg + train.mov with its web copy: the still stripped of its MakerNote by ExifTool, the movie copied byte for byte under the copy's name; the copy pairs by name as a variant with still-missing-identifier, the original passes",
          .enabled(if: Locations.hasSharedSamples && Locations.tool("exiftool") != nil, "needs ../shared/samples and exiftool"))
    func webCopyOfRealPair() throws {
        let original = try #require(SharedSamples.url("LycheeOrg__Lychee/train.jpg")), movie = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-webcopy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: original, to: dir.appendingPathComponent("train.jpg"))
        try FileManager.default.copyItem(at: movie, to: dir.appendingPathComponent("train.mov"))
        try FileManager.default.copyItem(at: movie, to: dir.appendingPathComponent("train_sm.mov"))
        let stripped = try ProcessResult.run(try #require(Locations.tool("exiftool")),
                                             ["-q", "-MakerNotes=", "-o", dir.appendingPathComponent("train_sm.jpg").path, original.path])
        try #require(stripped.status == 0, "\(stripped.stderr)")
        let result = try lpcheck(["check", dir.path, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.count == 2, "\(items)")
        let camera = try #require(items.first { ($0["still"] as? String)?.hasSuffix("/train.jpg") == true })
        #expect(camera["kind"] as? String == "pair" && (camera["verdicts"] as? [String: String])?["photos"] == "pass")
        let web = try #require(items.first { ($0["still"] as? String)?.hasSuffix("/train_sm.jpg") == true })
        #expect(web["kind"] as? String == "pair" && web["pairedBy"] as? String == "name" && (web["movie"] as? String)?.hasSuffix("/train_sm.mov") == true)
        #expect(web["variantOf"] != nil && web["duplicateOf"] == nil)
        let rules = (web["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }.sorted()
        #expect(rules == ["identifier-variant", "still-missing-identifier"], "\(rules)")
    }
}
