import Foundation
@testable import LivePhotoObjectStore
import LivePhotoTestSupport
import Testing

/// What a server answers is input like a file's bytes: listings and error bodies, cut and
/// flipped, are read or refused, never trapped on.
struct HostileAnswerTests {
    static let listing = Array("""
    <?xml version="1.0" encoding="UTF-8"?>
    <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>photos</Name><Prefix>lib</Prefix>\
    <KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>\
    <Contents><Key>lib/IMG%201.HEIC</Key><LastModified>2026-11-27T05:49:23.000Z</LastModified>\
    <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>3198524</Size><StorageClass>STANDARD</StorageClass></Contents>\
    <Contents><Key>lib/caf%C3%A9+%26+co.MOV</Key><LastModified>2026-11-27T05:49:24Z</LastModified>\
    <ETag>&#34;abc&#x22;</ETag><Size>0</Size></Contents>\
    <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken></ListBucketResult>
    """.utf8)

    @Test("a listing's keys are URL-decoded, entities and character references read, sizes and times kept, the next page's token taken")
    func listingRead() throws {
        let page = try ListPage(xml: Self.listing, bucket: "photos")
        #expect(page.objects.map(\.key) == ["lib/IMG 1.HEIC", "lib/café & co.MOV"])
        #expect(page.objects.map(\.etag) == ["\"9b2cf535f27731c974343645a3985328\"", "\"abc\""])
        #expect(page.objects.map(\.size) == [3_198_524, 0])
        #expect(page.objects[0].lastModified == 1_795_758_563 && page.objects[1].lastModified == 1_795_758_564)
        #expect(page.nextToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
    }

    @Test("a truncated listing without a token or a negative size are refused by name; a key that is no URL encoding is refused alone, the other keys read")
    func badListingsRefused() throws {
        for (from, to) in [("<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>", ""), ("<Size>0</Size>", "<Size>-1</Size>")] {
            let xml = Array(String(decoding: Self.listing, as: UTF8.self).replacingOccurrences(of: from, with: to).utf8)
            #expect(throws: S3Error.self) { try ListPage(xml: xml, bucket: "photos") }
        }
        let xml = Array(String(decoding: Self.listing, as: UTF8.self).replacingOccurrences(of: "lib/IMG%201.HEIC", with: "lib/IMG%2.HEIC").utf8)
        let page = try ListPage(xml: xml, bucket: "photos")
        #expect(page.refusedKeys == ["lib/IMG%2.HEIC"])
        #expect(page.objects.map(\.key) == ["lib/café & co.MOV"])
    }

    @Test("20,000 listings and error bodies cut short or with bytes changed are read or refused, never trapped on")
    func mutatedAnswers() {
        let seed = SeededGenerator.seed(0x5E7A_11CE)
        var generator = SeededGenerator(seed: seed)
        let error = Array("<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Reduce your request rate &amp; retry.</Message></Error>".utf8)
        var read = 0
        for round in 0..<20_000 {
            var bytes = round % 2 == 0 ? Self.listing : error
            switch round % 3 {
            case 0: bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator))
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &generator) { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            default:
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.insert(contentsOf: Array("&#x110000;<Contents><Key>".utf8), at: at)
            }
            if (try? ListPage(xml: bytes, bucket: "photos")) != nil { read += 1 }
            _ = S3Error(response: S3Client.Response(status: 503, headers: ["retry-after": "x"], body: bytes), what: "s3://photos/lib")
        }
        #expect(read > 0, "LPCHECK_TEST_SEED=\(seed)")
    }

    @Test("ETags name one version whether quoted or not, weak or not; other tags differ")
    func etagsCompared() {
        #expect(S3Source.sameETag("\"9b2cf535\"", "9b2cf535") && S3Source.sameETag("W/\"abc\"", "\"abc\""))
        #expect(!S3Source.sameETag("\"abc\"", "\"abd\"") && !S3Source.sameETag("\"\"", "\"a\""))
    }
}
