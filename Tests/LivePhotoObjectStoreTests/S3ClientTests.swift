import Foundation
import LivePhotoFormats
import LivePhotoObjectStore
import LivePhotoTestSupport
import Testing

/// The client and `S3Source` against moto on loopback (IAM authentication on) behind the
/// fixture's proxy: listings page by page, reads served from held bytes, timeouts, and servers
/// that answer other bytes than asked for.
@Suite(.serialized, .enabled(if: S3Fixture.available, "needs moto (PyPI)"))
struct S3ClientTests {
    static func client(_ fixture: S3Fixture, configure: (inout S3Client.Settings) -> Void = { _ in }) throws -> S3Client {
        var settings = S3Client.Settings(endpoint: URL(string: fixture.endpoint), region: "us-east-1",
                                         credentials: S3Credentials(accessKey: fixture.accessKey, secretKey: fixture.secretKey))
        configure(&settings)
        return S3Client(settings)
    }

    static func localFiles() -> [String] {
        let root = Locations.samples
        let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        return (walk?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { String($0.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)) }.sorted()
    }

    @Test("ListObjectsV2 page by page: 5 keys a page lists every object once, in as many pages as it takes, sizes and ETags as uploaded")
    func listingPages() throws {
        let fixture = try S3Fixture(uploads: [(Locations.samples.path, "s"), (Locations.samples.appendingPathComponent("corrupt").path, "sx")])
        let files = S3Files(client: try Self.client(fixture) { $0.pageSize = 5 })
        try fixture.clearLog()
        let listed = try files.list("s3://\(fixture.bucket)/s")
        let expected = Self.localFiles()
        #expect(listed.map { String($0.path.dropFirst("s3://\(fixture.bucket)/s/".count)) }.sorted() == expected)
        let pages = try fixture.requests().filter { $0.path.contains("list-type=2") }
        // S3 lists every key starting with "s" (sx/ too) and may end with an empty page.
        let keys = expected.count + expected.filter { $0.hasPrefix("corrupt/") }.count
        #expect(pages.count == (keys + 4) / 5 || pages.count == (keys + 4) / 5 + 1, "\(pages.count) pages for \(keys) keys")
        for entry in listed {
            let local = Locations.samples.appendingPathComponent(String(entry.path.dropFirst("s3://\(fixture.bucket)/s/".count)))
            let bytes = try Data(contentsOf: local)
            #expect(entry.object.size == Int64(bytes.count))
            // A single-part upload's ETag is the MD5 of its bytes: 32 hex digits in quotes.
            #expect(entry.object.etag.count == 34 && entry.object.etag.hasPrefix("\""))
        }
        // A prefix names a folder: s3://bucket/s lists what is below s/, not sx/ (listed by S3 for
        // the prefix "s" too).
        #expect(listed.allSatisfy { $0.path.hasPrefix("s3://\(fixture.bucket)/s/") })
        #expect(try files.list("s3://\(fixture.bucket)/sx").count == Self.localFiles().filter { $0.hasPrefix("corrupt/") }.count)
    }

    @Test("S3Source: reads inside held bytes cost no GET; every GET is ranged and within the object; the bytes equal the file's")
    func sourceServesHeldBytes() throws {
        let fixture = try S3Fixture(uploads: [(Locations.samples.path, "s")])
        let client = try Self.client(fixture)
        let local = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let source = try S3Source(client: client, bucket: fixture.bucket, key: "s/camera-pair.mov")
        #expect(source.size == Int64(local.count) && source.gets == 1 && source.fetchedBytes == 4096)
        #expect(try source.read(at: 8, count: 100) == Array(local[8..<108]))
        #expect(source.gets == 1)
        let tail = local.count - 500
        #expect(try source.read(at: Int64(tail), count: 8) == Array(local[tail..<(tail + 8)]))
        // The read was within 64 KiB after the held head, and less than 64 KiB remained with
        // nothing after held: the gap and the rest of the object came in that one GET.
        #expect(source.gets == 2 && source.fetchedBytes == Int64(local.count))
        #expect(try source.read(at: 4000, count: local.count - 4000) == Array(local[4000...]))
        #expect(source.gets == 2)
        #expect(throws: ParseError.self) { try source.read(at: Int64(local.count - 4), count: 8) }
        let ranges = try fixture.requests().filter { $0.path.hasSuffix("camera-pair.mov") }.map(\.range)
        #expect(ranges == ["bytes=0-4095", "bytes=4096-\(local.count - 1)"])
    }

    @Test("an object replaced after it was listed is refused (If-Match), never read as the listing's")
    func replacedObjectRefused() throws {
        let fixture = try S3Fixture(uploads: [(Locations.samples.path, "s")])
        let client = try Self.client(fixture)
        #expect {
            _ = try S3Source(client: client, bucket: fixture.bucket, key: "s/camera-pair.mov", etag: "\"0123456789abcdef0123456789abcdef\"")
        } throws: { error in
            (error as? S3Error)?.status == 412 && "\(error)".contains("changed since it was listed")
        }
    }

    @Test("a server that does not answer in time: the request times out, is tried again, and fails with the object named")
    func timeouts() throws {
        let fixture = try S3Fixture(uploads: [(Locations.samples.path, "s")], arguments: ["--fault", "hang:1"])
        let client = try Self.client(fixture) { $0.timeout = 1; $0.attempts = 2; $0.backoff = 0.05 }
        let started = Date()
        #expect {
            _ = try S3Source(client: client, bucket: fixture.bucket, key: "s/camera-pair.mov")
        } throws: { error in
            "\(error)".contains("s3://\(fixture.bucket)/s/camera-pair.mov") && (error as? S3Error)?.status == nil
        }
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(client.counters.retries == 1)
    }

    @Test("a server that ignores Range (the whole object, 200) or shifts Content-Range: small objects are read whole, large ones refused, nothing misread")
    func serversAnsweringOtherBytes() throws {
        let shared = Locations.sharedSamples
        var uploads = [(Locations.samples.path, "s")]
        if let shared { uploads.append((shared.appendingPathComponent("LycheeOrg__Lychee").path, "l")) }
        let whole = try S3Fixture(uploads: uploads, arguments: ["--fault", "whole:1"])
        let client = try Self.client(whole)
        let small = try S3Source(client: client, bucket: whole.bucket, key: "s/camera-pair.jpg")
        let local = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg")))
        let read = try small.read(at: 0, count: local.count)
        #expect(small.size == Int64(local.count) && read == local)
        if shared != nil {
            // 3.4 MB sent for 16 KiB asked: the body is cut at the limit and the object named.
            #expect { _ = try S3Source(client: client, bucket: whole.bucket, key: "l/train.jpg") } throws: { "\($0)".contains("more than the 16384 bytes asked for") }
        }
        whole.stop()
        // A server that claims an object of Int64.max bytes: read-ahead stops at the claimed end
        // without overflowing; the reading ends in a clear error or a record, never a trap.
        let huge = try S3Fixture(uploads: [(Locations.samples.path, "s")], arguments: ["--fault", "hugesize:1"])
        for key in ["s/camera-pair.mov", "s/camera-pair.jpg"] {
            let source = try S3Source(client: try Self.client(huge), bucket: huge.bucket, key: key)
            #expect(source.size == Int64.max)
            let file = MediaFile.inspect(source: source, path: "s3://x/\(key)", options: .check)
            // The readers ask for bytes past the object's real end: the server sends fewer than
            // asked (the movie's read-ahead) or refuses them (416, the JPEG's tail), so the file
            // is unread with that answer, never parsed from bytes it did not send.
            let answer = key.hasSuffix(".mov") ? "asked for" : "416"
            #expect(file.error?.code == .io && file.error?.message.contains(answer) == true, "\(key): \(String(describing: file.error)) \(file.warnings)")
            #expect(throws: ParseError.self) { try source.read(at: Int64.max - 10, count: 8) }
        }
        huge.stop()
        let shifted = try S3Fixture(uploads: [(Locations.samples.path, "s")], arguments: ["--fault", "shifted:2"])
        let file = MediaFile.inspect(source: try S3Source(client: try Self.client(shifted), bucket: shifted.bucket, key: "s/camera-pair.mov"), path: "s3://x/s/camera-pair.mov", options: .check)
        #expect(file.error?.code == .io && file.movie == nil, "\(String(describing: file.error))")
    }
}
