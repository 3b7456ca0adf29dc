import Foundation
import LivePhotoTestSupport
import Testing

/// `.livp` archives (a zip of a Live Photo's still and movie, stored, as iCloud.com hands one
/// out) read by check, scan and dump in place: built here by Python's zipfile from the real
/// IMG_3853 (HEIC) and train (JPEG) pairs, in both naming styles.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil && Locations.tool("python3") != nil, "needs lpcheck and python3"))
struct LivpTests {
    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, timeout: 300)
    }

    static let pairs = [("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV", "IMG_3853.livp", "IMG_3853.HEIC", "IMG_3853.MOV"),
                        ("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov", "train.livp", "train.JPG.jpeg", "train.JPG.mov")]
    /// The names unpacked members take: iCloud.com's doubled extensions become the camera's names.
    static let unpackedNames = ["IMG_3853.HEIC": "IMG_3853.HEIC", "IMG_3853.MOV": "IMG_3853.MOV", "train.JPG.jpeg": "train.JPG", "train.JPG.mov": "train.MOV"]

    /// A folder of .livp archives, and beside it a folder of the same pairs loose.
    func folders() throws -> (archives: URL, loose: URL) { try Self.folders() }

    static func folders() throws -> (archives: URL, loose: URL) {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-livp-\(UUID().uuidString)")
        let archives = root.appendingPathComponent("archives"), loose = root.appendingPathComponent("loose")
        for folder in [archives, loose] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for (still, movie, archive, stillName, movieName) in Self.pairs {
            let stillURL = try #require(SharedSamples.url(still)), movieURL = try #require(SharedSamples.url(movie))
            let made = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
                z.write(sys.argv[2], sys.argv[3]); z.write(sys.argv[4], sys.argv[5])
            """, archives.appendingPathComponent(archive).path, stillURL.path, stillName, movieURL.path, movieName])
            #expect(made.status == 0, "\(made.stderr)")
            try FileManager.default.copyItem(at: stillURL, to: loose.appendingPathComponent(stillName))
            try FileManager.default.copyItem(at: movieURL, to: loose.appendingPathComponent(movieName))
        }
        return (archives, loose)
    }

    func report(_ arguments: [String]) throws -> [String: Any] {
        let result = try lpcheck(arguments + ["--format", "json", "--fail-on", "never", "--no-progress"])
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
    }

    /// Each item's kind, files (names only), archive, findings and verdicts, by still name.
    func items(_ report: [String: Any]) -> [String: String] {
        var described: [String: String] = [:]
        for item in report["items"] as? [[String: Any]] ?? [] {
            let files = [item["still"], item["movie"]].compactMap { ($0 as? String).map { ($0 as NSString).lastPathComponent } }
            let findings = (item["findings"] as? [[String: Any]] ?? []).map { "\($0["severity"] ?? "") \($0["rule"] ?? "")" }.sorted()
            let verdicts = (item["verdicts"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let name = files.first.map { $0.split(separator: ":").last.map(String.init) ?? $0 } ?? "?"
            described[name] = "\(item["kind"] ?? "") \(findings) \(verdicts)"
        }
        return described
    }

    @Test("a folder of .livp archives checks as one pair each, named ARCHIVE:MEMBER with the archive on the item, with the findings and verdicts of the same pairs loose (photos: pass, no error or warning)")
    func checkedAsPairs() throws {
        let (archives, loose) = try folders()
        defer { try? FileManager.default.removeItem(at: archives.deletingLastPathComponent()) }
        let archived = try report(["check", archives.path])
        let itemsList = archived["items"] as? [[String: Any]] ?? []
        #expect(itemsList.count == 2)
        for item in itemsList {
            #expect(item["kind"] as? String == "pair")
            let archive = try #require(item["archive"] as? String)
            let paths = [item["still"], item["movie"]].compactMap { $0 as? String }
            #expect(paths.count == 2 && paths.allSatisfy { $0.hasPrefix(archive + ":") }, "\(paths)")
            #expect((item["verdicts"] as? [String: String])?["photos"] == "pass")
            let severities = (item["findings"] as? [[String: Any]] ?? []).compactMap { $0["severity"] as? String }
            #expect(!severities.contains("error") && !severities.contains("warning"), "\(item)")
        }
        #expect(items(archived) == items(try report(["check", loose.path])))
        let leftOut = ((archived["summary"] as? [String: Any])?["leftOut"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        #expect(leftOut.count == 2 && leftOut.allSatisfy { $0.contains("zip archive (.livp)") })
    }

    @Test("dump shows both members of a .livp; scan then check --facts, and a second --cache run, give the same report as check")
    func dumpScanCache() throws {
        let (archives, _) = try folders()
        defer { try? FileManager.default.removeItem(at: archives.deletingLastPathComponent()) }
        let dump = try lpcheck(["dump", archives.appendingPathComponent("train.livp").path])
        #expect(dump.status == 0 && dump.text.contains("train.livp:train.JPG.jpeg: still, JPEG") && dump.text.contains("train.livp:train.JPG.mov: movie, QuickTime"), "\(dump.text.prefix(400))")
        let direct = items(try report(["check", archives.path]))
        let records = archives.deletingLastPathComponent().appendingPathComponent("facts.ndjson")
        let scan = try lpcheck(["scan", archives.path, "--output", records.path, "--no-progress"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(items(try report(["check", "--facts", records.path])) == direct)
        let cache = archives.deletingLastPathComponent().appendingPathComponent("cache.sqlite")
        #expect(items(try report(["check", archives.path, "--cache", cache.path])) == direct)
        #expect(items(try report(["check", archives.path, "--cache", cache.path])) == direct)
    }

    @Test("convert --to live-photo unpacks each .livp into two files byte-identical to its members, named as the camera named them (train.JPG.jpeg and train.JPG.mov become train.JPG and train.MOV); --to motion-photo makes a motion photo from it directly, which passes every motion-photo rule")
    func converted() throws {
        let (archives, _) = try folders()
        let root = archives.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let unpacked = root.appendingPathComponent("unpacked")
        let convert = try lpcheck(["convert", archives.path, "--to", "live-photo", "--output", unpacked.path])
        #expect(convert.status == 0, "\(convert.text)\(convert.stderr)")
        for (still, movie, _, stillName, movieName) in Self.pairs {
            for (source, member) in [(still, stillName), (movie, movieName)] {
                let original = try Data(contentsOf: try #require(SharedSamples.url(source)))
                let name = try #require(Self.unpackedNames[member])
                #expect(try Data(contentsOf: unpacked.appendingPathComponent(name)) == original, "\(name)")
            }
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: unpacked.path)) ?? []).sorted() == Self.unpackedNames.values.sorted())
        let motion = root.appendingPathComponent("motion")
        let made = try lpcheck(["convert", archives.path, "--to", "motion-photo", "--output", motion.path])
        #expect(made.status == 0, "\(made.text)\(made.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: motion.path)) ?? []).sorted() == ["IMG_3853.MP.heic", "train.MP.jpg"])
        let check = try lpcheck(["check", motion.path, "--profile", "google-photos", "--fail-on", "info", "--no-progress"])
        #expect(check.status == 0 && check.text.contains("2 motion-photo"), "\(check.text)")
    }

    @Test("in object storage: check s3://BUCKET/PREFIX of the archives gives the local report, members read through ranged GETs of each archive", .enabled(if: S3Fixture.available, "needs moto (PyPI)"))
    func objectStorage() throws {
        let (archives, _) = try folders()
        defer { try? FileManager.default.removeItem(at: archives.deletingLastPathComponent()) }
        let fixture = try S3Fixture(uploads: [(archives.path, "livp")])
        let remote = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["check", "s3://\(fixture.bucket)/livp", "--format", "json", "--fail-on", "never",
                                                                                          "--endpoint-url", fixture.endpoint], environment: fixture.environment(secret: nil), timeout: 300)
        #expect(remote.status == 0, "\(remote.stderr)")
        let local = try lpcheck(["check", archives.path, "--format", "json", "--fail-on", "never"])
        #expect(fixture.original(remote.text) == local.text.replacingOccurrences(of: archives.path, with: "s3://\(fixture.bucket)/livp"))
        #expect(remote.text.contains(":IMG_3853.HEIC"))
    }

    @Test("a .livp lpcheck does not read is an unreadable item saying why and where: a compressed member, a member claiming past the end, an archive inside an archive")
    func unreadArchives() throws {
        let (archives, _) = try folders()
        defer { try? FileManager.default.removeItem(at: archives.deletingLastPathComponent()) }
        let folder = archives.deletingLastPathComponent().appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", """
        import struct, sys, zipfile
        folder, still, movie = sys.argv[1], sys.argv[2], sys.argv[3]
        with zipfile.ZipFile(folder + '/deflated.livp', 'w', zipfile.ZIP_DEFLATED) as z:
            z.write(still, 'IMG_1.JPG.jpeg'); z.write(movie, 'IMG_1.JPG.mov')
        with zipfile.ZipFile(folder + '/huge.livp', 'w', zipfile.ZIP_STORED) as z:
            z.write(still, 'IMG_2.JPG.jpeg'); z.write(movie, 'IMG_2.JPG.mov')
        data = bytearray(open(folder + '/huge.livp', 'rb').read())
        central = data.find(b'PK\\x01\\x02')
        data[central + 20:central + 28] = struct.pack('<II', 0xFFFFFFF0, 0xFFFFFFF0)
        data[18:26] = struct.pack('<II', 0xFFFFFFF0, 0xFFFFFFF0)
        open(folder + '/huge.livp', 'wb').write(data)
        with zipfile.ZipFile(folder + '/nested.livp', 'w', zipfile.ZIP_STORED) as z:
            z.write(folder + '/huge.livp', 'inner.livp')
        """, folder.path, Locations.samples.appendingPathComponent("camera-pair.jpg").path, Locations.samples.appendingPathComponent("camera-pair.mov").path])
        #expect(made.status == 0, "\(made.stderr)")
        let checked = try report(["check", folder.path])
        let messages = (checked["items"] as? [[String: Any]] ?? []).flatMap { item in
            (item["findings"] as? [[String: Any]] ?? []).map { "\(item["kind"] ?? "") \($0["rule"] ?? "") \($0["message"] ?? "")" }
        }
        #expect(messages.contains { $0.hasPrefix("unreadable unreadable-file") && $0.contains("IMG_1.JPG.jpeg") && $0.contains("compressed") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("unreadable unreadable-file") && $0.contains("IMG_2.JPG.jpeg") && $0.contains("past the archive") }, "\(messages)")
        // An archive inside one is named, never opened.
        #expect(messages.contains { $0.hasPrefix("unreadable unreadable-file") && $0.contains("an archive inside an archive") }, "\(messages)")
    }
}
