import Foundation
import LivePhotoFormats
import LivePhotoObjectStore
import LivePhotoTestSupport
import Testing

/// SHA-256, HMAC-SHA256 and Signature Version 4 held to published vectors, Python's hashlib and
/// hmac, and botocore's signer.
struct SignerTests {
    @Test("SHA-256: FIPS 180-2 examples (empty, abc, the 448-bit message, a million a's)")
    func sha256Vectors() {
        #expect(SHA256.hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA256: RFC 4231 cases 1, 2 and 6 (a key longer than a block)")
    func hmacVectors() {
        #expect(SHA256.hex(SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(SHA256.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("SHA-256 and HMAC equal Python's hashlib and hmac on every length from 0 to 300 bytes", .enabled(if: Locations.tool("python3") != nil))
    func sha256AgainstPython() throws {
        let script = """
        import hashlib, hmac
        for n in range(301):
            m = bytes((i * 7 + n) % 256 for i in range(n))
            print(hashlib.sha256(m).hexdigest(), hmac.new(bytes(range(n % 97)), m, hashlib.sha256).hexdigest())
        """
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", script])
        let lines = result.text.split(separator: "\n")
        #expect(lines.count == 301)
        for (n, line) in lines.enumerated() {
            let message = (0..<n).map { UInt8(($0 * 7 + n) % 256) }
            let key = (0..<(n % 97)).map { UInt8($0) }
            #expect(line == "\(SHA256.hex(SHA256.hash(message))) \(SHA256.hex(SHA256.hmac(key: key, message)))", "length \(n)")
        }
    }

    /// Signs with botocore's S3SigV4Auth at a fixed time and prints its canonical request, string
    /// to sign and signature, separated by lines of `----`.
    static let botocoreScript = """
    import sys, json
    from botocore.auth import S3SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    case = json.loads(sys.argv[1])
    request = AWSRequest(method="GET", url=case["url"], headers=case["headers"])
    request.context["timestamp"] = case["time"]
    auth = S3SigV4Auth(Credentials(case["key"], case["secret"], case.get("token")), "s3", case["region"])
    canonical = auth.canonical_request(request)
    to_sign = auth.string_to_sign(request, canonical)
    print(canonical); print("----"); print(to_sign); print("----"); print(auth.signature(to_sign, request))
    """

    struct Case {
        var host: String
        var path: String
        var query: [(name: String, value: String)]
        var range: String?
        var token: String?
    }

    @Test("Signature Version 4: canonical request, string to sign and signature equal botocore's for fixed inputs",
          .enabled(if: Locations.tool("python3") != nil && (try? ProcessResult.run(Locations.tool("python3") ?? "", ["-c", "import botocore"]).status) == 0))
    func signatureAgainstBotocore() throws {
        let cases = [
            Case(host: "127.0.0.1:9000", path: "/photos/IMG_3853.HEIC", query: [], range: "bytes=0-16383", token: nil),
            Case(host: "photos.s3.eu-west-1.amazonaws.com", path: "/2024/a%20b%2Bc/%C3%A9t%C3%A9.MOV", query: [], range: "bytes=3430587-3436800", token: "FQoGZXIvYXdzEJr//token+/="),
            Case(host: "127.0.0.1:9000", path: "/photos", query: [("list-type", "2"), ("encoding-type", "url"), ("prefix", "2024/a b+c/"), ("continuation-token", "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")], range: nil, token: nil),
        ]
        let date = Date(timeIntervalSince1970: 1_795_758_563)  // 2026-11-27T05:49:23Z
        let (time, day) = SignatureV4.stamps(date)
        #expect(time == "20261127T054923Z" && day == "20261127")
        for (index, testCase) in cases.enumerated() {
            let credentials = S3Credentials(accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", sessionToken: testCase.token)
            let region = index == 1 ? "eu-west-1" : "us-east-1"
            let signer = SignatureV4(credentials: credentials, region: region)
            var headers: [(name: String, value: String)] = testCase.range.map { [("range", $0)] } ?? []
            headers += [("host", testCase.host), ("x-amz-date", time), ("x-amz-content-sha256", SignatureV4.emptyPayloadHash)]
            if let token = testCase.token { headers.append(("x-amz-security-token", token)) }
            let request = SignatureV4.Request(method: "GET", path: testCase.path, query: testCase.query, headers: headers)
            let query = testCase.query.isEmpty ? "" : "?" + SignatureV4.canonicalQuery(testCase.query)
            var caseJSON: [String: Any] = ["url": "http://\(testCase.host)\(testCase.path)\(query)", "time": time, "key": credentials.accessKey,
                                           "secret": credentials.secretKey, "region": region,
                                           "headers": Dictionary(uniqueKeysWithValues: headers.filter { $0.name != "host" }.map { ($0.name, $0.value) })]
            if let token = testCase.token { caseJSON["token"] = token }
            let argument = String(decoding: try JSONSerialization.data(withJSONObject: caseJSON), as: UTF8.self)
            let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.botocoreScript, argument])
            try #require(result.status == 0, "\(result.stderr)")
            let parts = result.text.components(separatedBy: "\n----\n")
            try #require(parts.count == 3, "\(result.text)")
            #expect(parts[0] == signer.canonicalRequest(request), "case \(index)")
            #expect(parts[1] == signer.stringToSign(request, time: time, day: day), "case \(index)")
            #expect(parts[2].trimmingCharacters(in: .newlines) == signer.signature(request, time: time, day: day), "case \(index)")
        }
    }

    @Test("credentials: the environment first, then the profile of the shared file; regions from the environment or the config file")
    func credentials() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key = secret1\n\n# a comment\n[work]\naws_access_key_id=AKWORK\naws_secret_access_key = s=2\naws_session_token = tok\n"
            .write(to: folder.appendingPathComponent(".aws/credentials"), atomically: true, encoding: .utf8)
        try "[default]\nregion = eu-central-1\n[profile work]\nregion = ap-south-1\n".write(to: folder.appendingPathComponent(".aws/config"), atomically: true, encoding: .utf8)
        let home = ["HOME": folder.path]
        #expect(S3Credentials.find(environment: home) == S3Credentials(accessKey: "AKDEFAULT", secretKey: "secret1"))
        #expect(S3Credentials.find(environment: home.merging(["AWS_PROFILE": "work"]) { $1 }) == S3Credentials(accessKey: "AKWORK", secretKey: "s=2", sessionToken: "tok"))
        #expect(S3Credentials.find(environment: home.merging(["AWS_ACCESS_KEY_ID": "AKENV", "AWS_SECRET_ACCESS_KEY": "x"]) { $1 }) == S3Credentials(accessKey: "AKENV", secretKey: "x"))
        #expect(S3Credentials.find(environment: ["HOME": "/nonexistent"]) == nil)
        #expect(S3Credentials.region(environment: home) == "eu-central-1")
        #expect(S3Credentials.region(environment: home.merging(["AWS_PROFILE": "work"]) { $1 }) == "ap-south-1")
        #expect(S3Credentials.region(environment: home.merging(["AWS_REGION": "us-west-2"]) { $1 }) == "us-west-2")
        #expect(S3Credentials.region(environment: [:]) == "us-east-1")
    }
}
