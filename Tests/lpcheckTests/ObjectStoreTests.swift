import Foundation
import LivePhotoTestSupport
import Testing

/// `scan` and `check` of s3:// prefixes against a real S3 implementation on loopback (moto, with
/// IAM authentication on, behind a proxy that logs every request): the same records and reports
/// as for the local files, the GETs and bytes per pair docs/scale.md plans, signatures checked,
/// faults retried or named.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil && S3Fixture.available && Locations.hasSharedSamples, "needs the lpcheck binary, moto (PyPI) and ../shared/samples"))
struct ObjectStoreTests {
    static func lpcheck(_ arguments: [String], fixture: S3Fixture, secret: String? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments + ["--endpoint-url", fixture.endpoint],
                              environment: fixture.environment(secret: secret), timeout: 300)
    }

    /// The shared samples in a bucket below `lib`, and one folder of them below `lychee`, once
    /// for the suite. (moto checks a signature over the decoded query, so a listing whose prefix
    /// holds a `/` is refused there for every client, boto3 included: a prefix of one name.)
    static let library: S3Fixture? = {
        guard let shared = Locations.sharedSamples else { return nil }
        return try? S3Fixture(uploads: [(shared.path, "lib"), (shared.appendingPathComponent("LycheeOrg__Lychee").path, "lychee")])
    }()

    /// Records without what only a local file has (device and inode), paths made relative.
    static func records(_ text: String, root: String) throws -> [String: String] {
        var records: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["type"] as? String == "file",
                  var facts = object["facts"] as? [String: Any], let path = facts["path"] as? String else { continue }
            facts["identity"] = nil
            let relative = String(path.dropFirst(root.count))
            facts["path"] = relative
            object["facts"] = facts
            records[relative] = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        return records
    }

    @Test("scan s3://bucket/lib gives every shared sample's record as scan gives it for the local file (without device and inode); check gives the same report")
    func recordsAndReportsEqualLocal() throws {
        let fixture = try #require(Self.library)
        let shared = try #require(Locations.sharedSamples).path
        let binary = try #require(Locations.lpcheckBinary).path
        let remote = try Self.lpcheck(["scan", "s3://\(fixture.bucket)/lib"], fixture: fixture)
        #expect(remote.status == 0, "\(remote.stderr)")
        let local = try ProcessResult.run(binary, ["scan", shared])
        let remoteRecords = try Self.records(fixture.original(remote.text), root: "s3://\(fixture.bucket)/lib")
        let localRecords = try Self.records(local.text, root: shared)
        #expect(localRecords.count >= 60)
        #expect(Set(remoteRecords.keys) == Set(localRecords.keys))
        for (path, record) in localRecords { #expect(remoteRecords[path] == record, "\(path)") }

        let remoteReport = try Self.lpcheck(["check", "s3://\(fixture.bucket)/lib", "--format", "json"], fixture: fixture)
        let localReport = try ProcessResult.run(binary, ["check", shared, "--format", "json"])
        #expect(remoteReport.status == localReport.status, "\(remoteReport.stderr)")
        #expect(fixture.original(remoteReport.text) == localReport.text.replacingOccurrences(of: shared, with: "s3://\(fixture.bucket)/lib"))
    }

    @Test("library layouts (Takeout's album copy and sidecars, an empty movie, hidden names, an identifier conflict, a downsized variant): the report equals the local one; copies are confirmed by comparing the objects' bytes")
    func layoutsEqualLocal() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-s3-layouts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Hard links have no counterpart in a bucket (each is an object of its own), and the
        // fixture must rename "IMG_3853 (1).HEIC" for moto (whose signature check fails on keys
        // with parentheses), which takes its export mark away: not those two layouts.
        for layout in LibraryLayout.all where !["links-and-odd-names", "icloud-export"].contains(layout.name) {
            try layout.build(in: scratch.appendingPathComponent(layout.name).path)
        }
        let fixture = try S3Fixture(uploads: [(scratch.path, "layouts")])
        let binary = try #require(Locations.lpcheckBinary).path
        try fixture.clearLog()
        let remote = try Self.lpcheck(["check", "s3://\(fixture.bucket)/layouts", "--format", "json"], fixture: fixture)
        let local = try ProcessResult.run(binary, ["check", scratch.path, "--format", "json"])
        #expect(remote.status == local.status, "\(remote.stderr)")
        #expect(local.text.contains("\"duplicateOf\""))
        #expect(fixture.original(remote.text) == local.text.replacingOccurrences(of: scratch.path, with: "s3://\(fixture.bucket)/layouts"))
        // The album copy was read whole to be called a copy (more bytes than the readers take).
        let copy = try fixture.requests().filter { $0.path.hasSuffix("/Trip/IMG_1234.JPG") }
        #expect(copy.reduce(0) { $0 + $1.bytes } >= 3_478_530, "\(copy.map(\.range))")
    }

    @Test("a camera pair costs at most 5 GETs and at most twice the bytes the local readers read (the proxy's log)")
    func getsAndBytesPerPair() throws {
        let fixture = try #require(Self.library)
        let shared = try #require(Locations.sharedSamples)
        let pairs = ["Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV", "LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov",
                     "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV",
                     "henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"]
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-s3-list-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: list) }
        try pairs.map { "s3://\(fixture.bucket)/lib/\($0)" }.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        try fixture.clearLog()
        let remote = try Self.lpcheck(["scan", "--files-from", list.path], fixture: fixture)
        #expect(remote.status == 0, "\(remote.stderr)")
        let requests = try fixture.requests()
        #expect(requests.allSatisfy { $0.method == "GET" && $0.range != nil }, "only ranged GETs, no listing for listed keys")
        let binary = try #require(Locations.lpcheckBinary).path
        let local = try ProcessResult.run(binary, ["scan"] + pairs.map { shared.appendingPathComponent($0).path })
        let localBytes = try Self.records(local.text, root: shared.path + "/").mapValues { record -> Int in
            ((try? JSONSerialization.jsonObject(with: Data(record.utf8))) as? [String: Any]).flatMap { ($0["facts"] as? [String: Any])?["bytesRead"] as? Int } ?? 0
        }
        for pair in stride(from: 0, to: pairs.count, by: 2) {
            let files = [pairs[pair], pairs[pair + 1]]
            let mine = requests.filter { request in files.contains { request.path == "/\(fixture.bucket)/lib/\($0)" } }
            let fetched = mine.reduce(0) { $0 + $1.bytes }
            let read = files.reduce(0) { $0 + (localBytes[$1] ?? 0) }
            #expect(mine.count <= 5, "\(files): \(mine.count) GETs")
            #expect(read > 0 && fetched <= 2 * read, "\(files): \(fetched) bytes fetched, \(read) read locally")
        }
    }

    @Test("the signer is checked: a wrong secret is refused with a clear error (exit 2), naming the status and S3's code")
    func wrongSecretRefused() throws {
        let fixture = try #require(Self.library)
        let result = try Self.lpcheck(["scan", "s3://\(fixture.bucket)/lib"], fixture: fixture, secret: "not-the-secret")
        #expect(result.status == 2)
        #expect(result.stderr.contains("access denied (403") && result.stderr.contains("SignatureDoesNotMatch"), "\(result.stderr)")
        let missing = try Self.lpcheck(["scan", "s3://no-such-bucket/lib"], fixture: fixture)
        #expect(missing.status == 2 && missing.stderr.contains("not found (404 NoSuchBucket"), "\(missing.stderr)")
    }

    @Test("check --files-from with s3:// keys gives the items of the prefix's listing for those files; a second --cache run reads no byte")
    func filesFromAndCache() throws {
        let fixture = try #require(Self.library)
        let prefix = "s3://\(fixture.bucket)/lychee"
        let listed = try Self.lpcheck(["check", prefix, "--format", "json"], fixture: fixture)
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-s3-keys-\(UUID().uuidString)")
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-s3-cache-\(UUID().uuidString).sqlite")
        defer { for url in [keys, cache] { try? FileManager.default.removeItem(at: url) } }
        let paths = (try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        let files = paths.flatMap { [$0["still"] as? String, $0["movie"] as? String].compactMap { $0 } }
        #expect(files.count >= 3)
        try files.joined(separator: "\n").write(to: keys, atomically: true, encoding: .utf8)
        let fromList = try Self.lpcheck(["check", "--files-from", keys.path, "--format", "json"], fixture: fixture)
        let items = { (result: ProcessResult) in ((try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any])?["items"] as? NSArray }
        #expect(items(fromList) == items(listed) && items(listed) != nil)
        let first = try Self.lpcheck(["check", prefix, "--cache", cache.path, "--stats", "--quiet"], fixture: fixture)
        let second = try Self.lpcheck(["check", prefix, "--cache", cache.path, "--stats", "--quiet"], fixture: fixture)
        #expect(first.status == listed.status && second.status == listed.status)
        #expect(!first.stderr.contains(" 0 bytes read") && second.stderr.contains(" 0 bytes read") && second.stderr.contains("\(files.count) files from the cache"), "\(first.stderr) / \(second.stderr)")
    }

    @Test("faults: 500s, 503 SlowDown, dropped connections and cut bodies are retried and the records equal a clean scan's; a server that always fails gives each file a clear error, never a record that claims more")
    func faultsRetriedOrNamed() throws {
        let samples = Locations.samples.path
        let clean = try S3Fixture(uploads: [(samples, "s")])
        let expected = try Self.lpcheck(["scan", "s3://\(clean.bucket)/s"], fixture: clean)
        clean.stop()
        // Every fourth to tenth GET fails, never two in a row (all even), so one file's reads in
        // turn (--jobs 1) meet every kind and each retry succeeds.
        let faulty = try S3Fixture(uploads: [(samples, "s")], arguments: ["--fault", "drop:8", "--fault", "500:6", "--fault", "503:10", "--fault", "truncate:4"])
        let retried = try Self.lpcheck(["scan", "s3://\(faulty.bucket)/s", "--jobs", "1"], fixture: faulty)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(try Self.records(retried.text, root: "s3://\(faulty.bucket)/s") == Self.records(expected.text, root: "s3://\(clean.bucket)/s"))
        let log = try faulty.requests()
        #expect(log.count > 30, "faults were injected into \(log.count) requests")
        faulty.stop()

        let broken = try S3Fixture(uploads: [(samples, "s")], arguments: ["--fault", "500:1"])
        let failed = try Self.lpcheck(["scan", "s3://\(broken.bucket)/s"], fixture: broken)
        let records = try Self.records(failed.text, root: "s3://\(broken.bucket)/s")
        #expect(records.count == (try Self.records(expected.text, root: "s3://\(clean.bucket)/s")).count)
        for (path, record) in records {
            #expect(record.contains("\"code\":\"io\"") && record.contains("HTTP 500 (InternalError: injected)") && !record.contains("\"kind\":\"movie\",\"movie\""), "\(path): \(record)")
        }
    }

    @Test("repair, convert and make write local files only: an s3:// path is refused by name (exit 2)")
    func writersRefuseObjects() throws {
        let binary = try #require(Locations.lpcheckBinary).path
        for arguments in [["repair", "s3://photos/lib"], ["convert", "s3://photos/lib", "--to", "live-photo", "--output", "/tmp/lpcheck-unused"],
                          ["make", "s3://photos/a.jpg", "s3://photos/a.mov", "--output", "/tmp/lpcheck-unused"]] {
            let result = try ProcessResult.run(binary, arguments)
            #expect(result.status == 2 && result.stderr.contains("writes local files only: s3://photos/"), "\(arguments): \(result.stderr)")
        }
    }
}
