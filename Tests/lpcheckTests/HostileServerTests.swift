import Foundation
import LivePhotoTestSupport
import Testing

/// `check` and `scan` of s3:// paths against servers that redirect, loop, stall, fail, lie about
/// sizes and tags or send escape sequences (Scripts/hostile_s3.py on 127.0.0.1, a sink beside it):
/// no credential leaves the endpoint, nothing hangs, a failure is never a finding about the file.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil && HostileS3.available, "needs the lpcheck binary and python3"))
struct HostileServerTests {
    static func lpcheck(_ arguments: [String], server: HostileS3, timeout: Double = 120) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments + ["--endpoint-url", server.endpoint],
                              environment: HostileS3.environment(), timeout: timeout)
    }

    /// The camera pair alone, below `lib/`.
    static var cameraPair: [(key: String, file: String)] {
        ["camera-pair.jpg", "camera-pair.mov"].map { ("lib/\($0)", Locations.samples.appendingPathComponent($0).path) }
    }

    static func items(_ result: ProcessResult) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        return try #require(object["items"] as? [[String: Any]])
    }

    static func rules(_ item: [String: Any]) -> [String] {
        (item["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }.sorted()
    }

    @Test("a 307 from the endpoint (listing or object) is not followed: the sink gets no request, nothing carries credentials off the endpoint, the error names the redirect")
    func redirectsNotFollowed() throws {
        let server = try HostileS3(mode: "redirect", objects: Self.cameraPair)
        let listed = try Self.lpcheck(["check", "s3://photos/lib"], server: server)
        #expect(listed.status == 2)
        #expect(listed.stderr.contains("redirected") && listed.stderr.contains("did not follow"), "\(listed.stderr)")
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-redirect-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: files) }
        try "s3://photos/lib/camera-pair.jpg\ns3://photos/lib/camera-pair.mov\n".write(to: files, atomically: true, encoding: .utf8)
        let read = try Self.lpcheck(["check", "--files-from", files.path, "--format", "json"], server: server)
        // Nothing readable: status 2, and every file named with the cause.
        #expect(read.status == 2, "\(read.stderr)")
        let items = try Self.items(read)
        #expect(items.count == 2 && items.allSatisfy { $0["kind"] as? String == "unreadable" })
        #expect(read.text.contains("did not follow"))
        let requests = try server.requests()
        #expect(requests.filter { $0.server == "bucket" }.count >= 3)
        #expect(requests.filter { $0.server == "sink" }.isEmpty, "\(requests.filter { $0.server == "sink" })")
        #expect(!requests.contains { $0.server != "bucket" && $0.credentials })
    }

    @Test("S3's PermanentRedirect (a bucket in another region) is an error naming the region to use")
    func permanentRedirectNamesRegion() throws {
        let server = try HostileS3(mode: "permanent", objects: Self.cameraPair)
        let result = try Self.lpcheck(["check", "s3://photos/lib"], server: server)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--region eu-west-1"), "\(result.stderr)")
        #expect(try server.requests().allSatisfy { $0.server == "bucket" })
    }

    @Test("a listing whose continuation token repeats ends with an error at the second page; --max-list-pages caps a listing that goes on")
    func listingLoopEnds() throws {
        let server = try HostileS3(mode: "token-loop", objects: Self.cameraPair)
        for command in ["check", "scan"] {
            let result = try Self.lpcheck([command, "s3://photos/lib"], server: server, timeout: 30)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("continuation token of an earlier page"), "\(result.stderr)")
        }
        // Two listings of two pages each: the repeated token is seen on the second page.
        #expect(try server.requests().count == 4)
        // The cap is met before the token could repeat: one page, then the error.
        let capped = try Self.lpcheck(["check", "s3://photos/lib", "--max-list-pages", "1"], server: server, timeout: 30)
        #expect(capped.status == 2)
        #expect(capped.stderr.contains("past 1 pages (--max-list-pages)"), "\(capped.stderr)")
        #expect(try server.requests().count == 5)
    }

    @Test("a server sending a byte a second is abandoned at the request's deadline (--timeout), each try of it")
    func slowServerAbandoned() throws {
        let server = try HostileS3(mode: "slow", objects: Self.cameraPair)
        let started = Date()
        let result = try Self.lpcheck(["check", "s3://photos/lib", "--timeout", "2", "--format", "json"], server: server, timeout: 100)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 2, "\(result.stderr)")
        let items = try Self.items(result)
        #expect(items.count == 2 && items.allSatisfy { $0["kind"] as? String == "unreadable" })
        #expect(result.text.contains("2 s deadline"))
        // Two objects read at once, 4 tries of 2 s each with backoff between: far below the
        // 20,000 s a byte a second would take for the movie's head, and below the watchdog.
        #expect(elapsed < 60, "\(elapsed) s")
    }

    @Test("waiting on a server that answers after 2 s costs under a tenth of the wall time in CPU")
    func waitingDoesNotSpin() throws {
        let server = try HostileS3(mode: "latency", objects: Self.cameraPair)
        let binary = try #require(Locations.lpcheckBinary).path
        // bash's `times` gives the children's user and system seconds after the run.
        let script = "\"$0\" check s3://photos/lib --endpoint-url \"$1\" --jobs 1 >/dev/null 2>&1; times"
        let started = Date()
        let result = try ProcessResult.run("/bin/bash", ["-c", script, binary, server.endpoint], environment: HostileS3.environment(), timeout: 120)
        let wall = Date().timeIntervalSince(started)
        let lines = result.text.split(separator: "\n")
        let children = try #require(lines.last).split(separator: " ").map { field -> Double in
            let parts = field.dropLast().split(separator: "m")
            return (Double(parts.first ?? "0") ?? 0) * 60 + (Double(parts.last ?? "0") ?? 0)
        }
        let cpu = children.reduce(0, +)
        // A listing and at least two GETs, each answered after 2 s.
        #expect(wall >= 6, "\(wall) s")
        #expect(cpu < wall / 10, "\(cpu) s of CPU for \(wall) s of wall")
    }

    @Test("503s that outlast the retries on a movie's later reads make the files unreadable with the cause, never a finding about the movie; nothing is cached, and the recovered server gives a passing pair")
    func transientFailureNotDamage() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-hostile-cache-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: cache) }
        let failing = try HostileS3(mode: "fail-tail", objects: Self.cameraPair)
        let first = try Self.lpcheck(["check", "s3://photos/lib", "--cache", cache.path, "--format", "json"], server: failing)
        // The movie's read failed; the still beside it is not judged as a still without a movie.
        #expect(first.status == 2, "\(first.stderr)")
        // One item for the two files: the still and the movie whose read failed.
        let broken = try Self.items(first)
        #expect(broken.count == 1 && broken[0]["kind"] as? String == "unreadable", "\(broken)")
        #expect(broken.first?["still"] as? String == "s3://photos/lib/camera-pair.jpg" && broken.first?["movie"] as? String == "s3://photos/lib/camera-pair.mov", "\(broken)")
        let findings = broken.flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        #expect(findings.map { $0["rule"] as? String } == ["unreadable-file"])
        #expect((findings.first?["message"] as? String)?.contains("SlowDown") == true, "\(findings)")
        failing.stop()
        // The same objects (same ETags, sizes and times) from a server that recovered.
        let recovered = try HostileS3(mode: "plain", objects: Self.cameraPair)
        let second = try Self.lpcheck(["check", "s3://photos/lib", "--cache", cache.path, "--format", "json"], server: recovered)
        #expect(second.status == 0, "\(second.stderr)")
        let items = try Self.items(second)
        #expect(items.count == 1 && items[0]["kind"] as? String == "pair" && Self.rules(items[0]).isEmpty)
        #expect((items[0]["verdicts"] as? [String: String])?["photos"] == "pass")
    }

    @Test("a key with dot segments is requested as listed, byte for byte, and read as that object, not the one the segments would name")
    func dottedKeysAsListed() throws {
        let jpeg = Locations.samples.appendingPathComponent("camera-pair.jpg").path
        let other = Locations.samples.appendingPathComponent("plain-frame.jpg").path
        let server = try HostileS3(mode: "plain", objects: [("lib/a/../train.jpg", jpeg), ("lib/train.jpg", other), ("lib/a/./b.jpg", jpeg)])
        let result = try Self.lpcheck(["scan", "s3://photos/lib/a"], server: server)
        #expect(result.status == 0, "\(result.stderr)")
        let gets = try server.requests().filter { !$0.path.contains("list-type") }.map(\.path)
        #expect(Set(gets) == ["/photos/lib/a/../train.jpg", "/photos/lib/a/./b.jpg"], "\(gets)")
        // The record is the camera still's (its identifier), not plain-frame.jpg's.
        #expect(result.text.contains("\"path\":\"s3://photos/lib/a/../train.jpg\""))
        let records = result.text.split(separator: "\n").filter { $0.contains("\"type\":\"file\"") }
        #expect(records.count == 2 && records.allSatisfy { $0.contains("contentIdentifier") }, "\(records)")
    }

    @Test("misread answers: a 416 for a listed object, a size below the listing's, ETags that change are the server's errors on the item; a key that is no URL encoding is refused by name (the rest read, the run failing with exit 2: one object was not read); keys listed twice and a prefix given twice count once")
    func misreadAnswers() throws {
        for (mode, cause) in [("range-416", "refused byte 0 (416)"), ("short-total", "its listing said"), ("etag-drift", "ETag")] {
            let server = try HostileS3(mode: mode, objects: Self.cameraPair)
            let result = try Self.lpcheck(["check", "s3://photos/lib", "--format", "json"], server: server)
            let items = try Self.items(result)
            #expect(items.count == 2 && items.allSatisfy { $0["kind"] as? String == "unreadable" }, "\(mode)")
            #expect(Set(items.flatMap(Self.rules)) == ["unreadable-file"], "\(mode)")
            let messages = items.flatMap { $0["findings"] as? [[String: Any]] ?? [] }.compactMap { $0["message"] as? String }
            #expect(messages.count == 2 && messages.allSatisfy { $0.contains(cause) && !$0.contains("empty file") }, "\(mode): \(messages)")
        }
        let badKey = try HostileS3(mode: "bad-key", objects: Self.cameraPair)
        let listed = try Self.lpcheck(["check", "s3://photos/lib/", "--format", "json"], server: badKey)
        // A listed object that cannot be read fails the gate (exit 2): a gate never passes what it did not read.
        #expect(listed.status == 2 && listed.stderr.contains("could not open s3://photos/lib/IMG%zz.HEIC"), "\(listed.stderr)")
        #expect(try Self.items(listed).count == 1)
        #expect(listed.text.contains("IMG%zz.HEIC") && listed.text.contains("no URL encoding"))
        let duplicate = try HostileS3(mode: "duplicate", objects: Self.cameraPair)
        let twice = try Self.lpcheck(["check", "s3://photos/lib", "s3://photos/lib", "--format", "json"], server: duplicate)
        #expect(twice.status == 0, "\(twice.stderr)")
        let items = try Self.items(twice)
        #expect(items.count == 1 && items[0]["kind"] as? String == "pair" && Self.rules(items[0]).isEmpty, "\(items)")
    }

    @Test("a listing's error message goes to the terminal escaped: no ESC byte, no raw U+202E")
    func listingErrorEscaped() throws {
        let server = try HostileS3(mode: "list-error", objects: Self.cameraPair)
        let result = try Self.lpcheck(["check", "s3://photos/lib"], server: server)
        #expect(result.status == 2)
        #expect(result.stderr.contains("AccessDenied"), "\(result.stderr)")
        #expect(!result.stderr.utf8.contains(0x1B) && !result.stderr.utf8.contains(0x07))
        #expect(!result.stderr.unicodeScalars.contains("\u{202E}"))
        #expect(result.stderr.contains("\\u{202E}") || result.stderr.contains("\\u202E") || result.stderr.contains("\\u{202e}"), "\(result.stderr)")
    }

    @Test("requests name lpcheck and its version in User-Agent")
    func userAgent() throws {
        let server = try HostileS3(mode: "plain", objects: Self.cameraPair)
        let version = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["--version"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try Self.lpcheck(["check", "s3://photos/lib"], server: server)
        let agents = Set(try server.requests().compactMap(\.userAgent))
        #expect(agents == ["lpcheck/\(version)"], "\(agents)")
    }

    @Test("a server that sends 200 KB of headers: each file is unread, the header block named, after one try (no retry of a server that will do it again)")
    func headerFlood() throws {
        let server = try HostileS3(mode: "header-flood", objects: Self.cameraPair)
        let result = try Self.lpcheck(["check", "s3://photos/lib", "--format", "json"], server: server)
        #expect(result.status == 2, "\(result.stderr)")
        let messages = try Self.items(result).flatMap { $0["findings"] as? [[String: Any]] ?? [] }.compactMap { $0["message"] as? String }
        #expect(messages.count == 2 && messages.allSatisfy { $0.contains("header block passed 64 KiB") }, "\(messages)")
        // A listing and one GET a file.
        #expect(try server.requests().count == 3)
    }
}
