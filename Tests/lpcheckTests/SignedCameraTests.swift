import Foundation
import LivePhotoTestSupport
import Testing

/// A camera pair's still signed in the test (a test CA made by openssl, c2pa-python's Builder),
/// then run through each writer that rewrites a still: lpcheck's binding verdict equals
/// c2pa-python's before and after, and every plan says the credentials will not bind.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct SignedCameraTests {
    /// Signs argv[2] into argv[3] (of media type argv[4]) with the chain and key in folder argv[1]; prints nothing.
    static let signer = """
    import c2pa, json, sys
    folder, source, target, kind = sys.argv[1:5]
    info = c2pa.C2paSignerInfo(b"es256", open(folder + "/chain.pem", "rb").read(), open(folder + "/leaf.p8", "rb").read(), None)
    manifest = {"claim_generator_info": [{"name": "lpcheck-tests", "version": "1"}], "title": "signed camera still",
                "assertions": [{"label": "c2pa.actions", "data": {"actions": [{"action": "c2pa.created", "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}}]}
    with open(source, "rb") as s, open(target, "wb") as d:
        c2pa.Builder(json.dumps(manifest)).sign(c2pa.Signer.from_info(info), kind, s, d)
    """

    /// c2pa-python's verdict on a file: "none" (no manifest), "mismatch" (its data or BMFF hash), or "holds".
    static let verdict = """
    import c2pa, json, sys
    try:
        store = json.loads(c2pa.Reader(sys.argv[1]).json())
    except Exception as error:
        print("none" if "ManifestNotFound" in str(error) or "JumbfNotFound" in str(error) else "error: " + str(error))
        sys.exit(0)
    codes = [status["code"] for status in store.get("validation_status") or []]
    print("mismatch" if "assertion.dataHash.mismatch" in codes or "assertion.bmffHash.mismatch" in codes else "holds")
    """

    func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.tool(tool)), arguments, timeout: 300)
    }

    /// A test CA and a leaf certificate it signs (ES256, digitalSignature, emailProtection).
    func makeCA(_ folder: URL) throws {
        let config = folder.appendingPathComponent("ca.cnf")
        try """
        [req]
        distinguished_name=dn
        [dn]
        [ca]
        basicConstraints=critical,CA:TRUE
        keyUsage=critical,keyCertSign,cRLSign
        subjectKeyIdentifier=hash
        [leaf]
        basicConstraints=critical,CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=emailProtection
        subjectKeyIdentifier=hash
        authorityKeyIdentifier=keyid
        """.write(to: config, atomically: true, encoding: .utf8)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let steps: [[String]] = [
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path("ca.key")],
            ["req", "-new", "-x509", "-key", path("ca.key"), "-subj", "/CN=lpcheck test CA/O=lpcheck tests", "-days", "30", "-config", config.path, "-extensions", "ca", "-out", path("ca.pem")],
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path("leaf.key")],
            ["pkcs8", "-topk8", "-nocrypt", "-in", path("leaf.key"), "-out", path("leaf.p8")],
            ["req", "-new", "-key", path("leaf.key"), "-subj", "/CN=lpcheck test signer/O=lpcheck tests", "-config", config.path, "-out", path("leaf.csr")],
            ["x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial", "-days", "30",
             "-extfile", config.path, "-extensions", "leaf", "-out", path("leaf.pem")],
        ]
        for step in steps {
            let result = try run("openssl", step)
            #expect(result.status == 0, "openssl \(step.first ?? ""): \(result.stderr)")
        }
        try (Data(contentsOf: URL(fileURLWithPath: path("leaf.pem"))) + Data(contentsOf: URL(fileURLWithPath: path("ca.pem")))).write(to: folder.appendingPathComponent("chain.pem"))
    }

    /// lpcheck's verdict, as c2pa-python's is said: none, mismatch or holds.
    func lpcheckVerdict(_ file: URL) throws -> String {
        let dump = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["dump", "--format", "json", file.path])
        let read = try #require((try JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]])?.first)
        guard let credentials = read["contentCredentials"] as? [String: Any] else { return "none" }
        let holds = (credentials["binding"] as? [String: Any])?["holds"] as? Bool
        return holds == true ? "holds" : holds == false ? "mismatch" : "not computed"
    }

    func oracleVerdict(_ file: URL) throws -> String {
        try run("python3", ["-c", Self.verdict, file.path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a signed camera still (train.jpg, signed by c2pa-python with a test CA): its binding holds by lpcheck and c2pa-python alike; strip, convert --to motion-photo, keyphoto and repair each say in the plan that the credentials will not bind, and on every output lpcheck's verdict is c2pa-python's; --keep-credentials refuses")
    func everyWriter() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let shared = try #require(Locations.sharedSamples)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-signed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try makeCA(work)
        let lpcheck = try #require(Locations.lpcheckBinary).path
        func lp(_ arguments: [String]) throws -> ProcessResult { try ProcessResult.run(lpcheck, arguments, timeout: 300) }
        func sign(_ source: URL, into target: URL) throws {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let signed = try run("python3", ["-c", Self.signer, work.path, source.path, target.path, "image/jpeg"])
            #expect(signed.status == 0, "\(signed.stderr)")
        }
        func expectSame(_ file: URL, _ expected: String, _ what: String) throws {
            let (ours, theirs) = (try lpcheckVerdict(file), try oracleVerdict(file))
            #expect(ours == theirs && theirs == expected, "\(what): lpcheck \(ours), c2pa-python \(theirs), expected \(expected)")
        }
        // The signed pair.
        let pair = work.appendingPathComponent("pair")
        try sign(shared.appendingPathComponent("LycheeOrg__Lychee/train.jpg"), into: pair.appendingPathComponent("train.jpg"))
        try FileManager.default.copyItem(at: shared.appendingPathComponent("LycheeOrg__Lychee/train.mov"), to: pair.appendingPathComponent("train.mov"))
        try expectSame(pair.appendingPathComponent("train.jpg"), "holds", "the signed still")
        let check = try lp(["check", pair.path, "--no-progress", "--verbose"])
        #expect(check.status == 0 && check.text.contains("1 pair") && check.text.contains("content-credentials"), "\(check.text)")
        // Each writer: the plan says it, and the verdicts agree on the output.
        let writers: [(String, [String], String, String)] = [
            ("strip", ["strip", pair.path, "-o", work.appendingPathComponent("stripped").path], "stripped/train.jpg", "mismatch"),
            ("convert", ["convert", pair.path, "--to", "motion-photo", "-o", work.appendingPathComponent("motion").path], "motion/train.MP.jpg", "mismatch"),
            ("keyphoto", ["keyphoto", pair.appendingPathComponent("train.jpg").path, pair.appendingPathComponent("train.mov").path, "--time", "0.5",
                          "-o", work.appendingPathComponent("key").path], "key/train.JPG", "none"),
        ]
        for (name, arguments, output, expected) in writers {
            let result = try lp(arguments)
            #expect(result.status == 0 && result.text.contains("CONTENT CREDENTIALS:") && result.text.contains("CN=lpcheck test signer"), "\(name): \(result.text)\(result.stderr)")
            try expectSame(work.appendingPathComponent(output), expected, name)
        }
        // repair: a signed still without an identifier beside its movie gets the movie's.
        let plain = work.appendingPathComponent("plain"), library = work.appendingPathComponent("library")
        let stripped = try lp(["strip", shared.appendingPathComponent("LycheeOrg__Lychee/train.jpg").path, shared.appendingPathComponent("LycheeOrg__Lychee/train.mov").path,
                               "-o", plain.path])
        #expect(stripped.status == 0, "\(stripped.text)\(stripped.stderr)")
        try sign(plain.appendingPathComponent("train.jpg"), into: library.appendingPathComponent("train.jpg"))
        try FileManager.default.copyItem(at: shared.appendingPathComponent("LycheeOrg__Lychee/train.mov"), to: library.appendingPathComponent("train.mov"))
        // --keep-credentials refuses, and leaves the signed still as it was.
        let before = try Data(contentsOf: library.appendingPathComponent("train.jpg"))
        let kept = try lp(["repair", library.path, "--keep-credentials", "--no-backup"])
        #expect(kept.status != 0 && kept.text.contains("CONTENT CREDENTIALS:"), "\(kept.text)\(kept.stderr)")
        #expect(try Data(contentsOf: library.appendingPathComponent("train.jpg")) == before)
        let repaired = try lp(["repair", library.path, "--no-backup"])
        #expect(repaired.status == 0 && repaired.text.contains("CONTENT CREDENTIALS:") && repaired.text.contains("will no longer bind"), "\(repaired.text)\(repaired.stderr)")
        try expectSame(library.appendingPathComponent("train.jpg"), "mismatch", "repair")
    }
}

extension SignedCameraTests {
    @Test("a signed iPhone pair in HEIC and MOV (apple.HEIC + apple.MOV, each signed by c2pa-python: c2pa.hash.bmff.v3): both bind by lpcheck and c2pa-python and check --verify-credentials passes; strip --keep-movie and keyphoto say in their plans which credentials stop binding, and on every output lpcheck's verdict is c2pa-python's")
    func heicAndMovie() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let camera = try #require(Locations.sharedSamples).appendingPathComponent("Bai-Mirror__pyheic_struct")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-signed-bmff-\(UUID().uuidString)")
        let pair = work.appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try makeCA(work)
        for (name, kind) in [("apple.HEIC", "image/heic"), ("apple.MOV", "video/quicktime")] {
            let signed = try run("python3", ["-c", Self.signer, work.path, camera.appendingPathComponent(name).path, pair.appendingPathComponent(name).path, kind])
            #expect(signed.status == 0, "\(signed.stderr)")
            let (ours, theirs) = (try lpcheckVerdict(pair.appendingPathComponent(name)), try oracleVerdict(pair.appendingPathComponent(name)))
            #expect(ours == "holds" && theirs == "holds", "\(name): lpcheck \(ours), c2pa-python \(theirs)")
        }
        let lpcheck = try #require(Locations.lpcheckBinary).path
        func lp(_ arguments: [String]) throws -> ProcessResult { try ProcessResult.run(lpcheck, arguments, timeout: 300) }
        let check = try lp(["check", pair.path, "--verify-credentials", "--fail-on", "warning", "--no-progress", "--verbose"])
        #expect(check.status == 0 && check.text.contains("1 pair") && !check.text.contains("content-credentials-unbound"), "\(check.text)")
        // Each writer: every output whose input was signed is named in the plan, and the verdicts agree.
        let writers: [(String, [String], [(String, String)])] = [
            ("strip", ["strip", pair.path, "--keep-movie", "-o", work.appendingPathComponent("stripped").path],
             [("stripped/apple.HEIC", "mismatch"), ("stripped/apple.MOV", "mismatch")]),
            ("keyphoto", ["keyphoto", pair.appendingPathComponent("apple.HEIC").path, pair.appendingPathComponent("apple.MOV").path, "--percent", "30",
                          "-o", work.appendingPathComponent("key").path], [("key/apple.HEIC", "none"), ("key/apple.MOV", "mismatch")]),
        ]
        for (name, arguments, outputs) in writers {
            let result = try lp(arguments)
            #expect(result.status == 0, "\(name): \(result.text)\(result.stderr)")
            let said = result.text.components(separatedBy: "\n").filter { $0.contains("CONTENT CREDENTIALS:") }
            for (output, expected) in outputs {
                let file = work.appendingPathComponent(output)
                let (ours, theirs) = (try lpcheckVerdict(file), try oracleVerdict(file))
                #expect(ours == theirs && theirs == expected, "\(name) \(output): lpcheck \(ours), c2pa-python \(theirs), expected \(expected)")
                let shown = file.path
                #expect(said.contains { $0.contains(expected == "none" ? "\(shown) will not carry them" : "in \(shown) they will no longer bind: c2pa.hash.bmff.v3") },
                        "\(name) \(output): \(said)")
            }
        }
    }
}
