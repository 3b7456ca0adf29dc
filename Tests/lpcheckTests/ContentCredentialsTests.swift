import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// `dump` on Content Credentials, held to c2pa-python (C2PA's reference implementation) on
/// every file of `../shared/samples/c2pa`: the manifests, the active one, its claim generator
/// and signer, and the binding verdict against its `assertion.dataHash.mismatch`.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ContentCredentialsTests {
    /// c2pa-python's reading of each file, as JSON: its manifests' labels (the active last),
    /// claim generators, signers' common name and issuer, and its validation codes.
    static let oracle = """
    import json, sys, c2pa
    out = {}
    for path in sys.argv[1:]:
        try:
            store = json.loads(c2pa.Reader(path).json())
        except Exception as error:
            out[path] = {'error': str(error)}
            continue
        manifests = store.get('manifests', {})
        active = store.get('active_manifest')
        info = manifests.get(active, {})
        signature = info.get('signature_info') or {}
        out[path] = {'count': len(manifests), 'active': active, 'generator': info.get('claim_generator'),
                     'commonName': signature.get('common_name'), 'issuer': signature.get('issuer'),
                     'codes': [status['code'] for status in store.get('validation_status') or []]}
    print(json.dumps(out))
    """

    @Test("every file of ../shared/samples/c2pa: lpcheck's manifests, active label, claim generator and signer are c2pa-python's; the binding fails exactly where c2pa-python reports assertion.dataHash.mismatch or assertion.bmffHash.mismatch and holds where it reports neither (a data hash and a BMFF hash v2 alike); files without a store have none; dump's JSON follows its schema")
    func againstC2PAPython() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let folder = try #require(Locations.sharedSamples).appendingPathComponent("c2pa")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".tsv") }.sorted().map { folder.appendingPathComponent($0).path }
        #expect(files.count >= 8, "\(files)")
        let python = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle] + files)
        #expect(python.status == 0, "\(python.stderr)")
        let oracle = try #require(try JSONSerialization.jsonObject(with: python.stdout) as? [String: [String: Any]])
        let dump = try ProcessResult.run(try #require(Locations.lpcheckBinary).path, ["dump", "--format", "json"] + files)
        #expect(dump.status == 0, "\(dump.stderr)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("dump.schema.json"))
        #expect(try validator.validate(json: dump.stdout).isEmpty)
        let read = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]])
        #expect(read.count == files.count)
        var mismatches = 0, holds = 0, bmff = 0, none = 0
        for file in read {
            let path = try #require(file["path"] as? String)
            let name = (path as NSString).lastPathComponent
            let expected = try #require(oracle[path], "c2pa-python did not read \(name)")
            guard let credentials = file["contentCredentials"] as? [String: Any] else {
                #expect((expected["error"] as? String ?? "").contains("ManifestNotFound"), "\(name): lpcheck finds no store, c2pa-python: \(expected)")
                none += 1
                continue
            }
            let manifests = credentials["manifests"] as? [[String: Any]] ?? []
            #expect(manifests.count == expected["count"] as? Int, "\(name): \(manifests.count) manifests, c2pa-python \(expected["count"] ?? "?")")
            #expect(credentials["activeManifest"] as? String == expected["active"] as? String, "\(name)")
            let active = try #require(manifests.last)
            #expect(active["claimGenerator"] as? String == expected["generator"] as? String, "\(name): \(active["claimGenerator"] ?? "none") against \(expected["generator"] ?? "none")")
            let signer = active["signer"] as? String ?? ""
            if let commonName = expected["commonName"] as? String { #expect(signer.contains("CN=\(commonName)"), "\(name): \(signer)") }
            if let issuer = expected["issuer"] as? String { #expect(signer.contains("O=\(issuer)"), "\(name): \(signer)") }
            let codes = expected["codes"] as? [String] ?? []
            let binding = credentials["binding"] as? [String: Any] ?? [:]
            let hard = active["hardBinding"] as? [String: Any] ?? [:]
            let isBMFF = (hard["label"] as? String ?? "").hasPrefix("c2pa.hash.bmff")
            let mismatch = codes.contains(isBMFF ? "assertion.bmffHash.mismatch" : "assertion.dataHash.mismatch")
            #expect(binding["holds"] as? Bool == !mismatch, "\(name): lpcheck \(binding), c2pa-python \(codes)")
            if isBMFF { bmff += 1 } else if mismatch { mismatches += 1 } else { holds += 1 }
        }
        // Each verdict was met: the set is no blanket.
        #expect(mismatches >= 1 && holds >= 2 && bmff >= 1 && none >= 3, "mismatch \(mismatches), holds \(holds), bmff \(bmff), none \(none)")
    }

    @Test("a store's bytes damaged anywhere (each of 400 seeded single-byte changes and 100 cuts of C.jpg's APP11 payload) give a reading, a problem or an error, never a crash and never silence where a store is labelled")
    func hostileStores() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let path = try #require(Locations.sharedSamples).appendingPathComponent("c2pa/contentauth__c2pa-rs__C.jpg").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The APP11 segment at byte 20: marker, length, then the payload.
        let length = Int(bytes[22]) << 8 | Int(bytes[23])
        #expect(bytes[20] == 0xFF && bytes[21] == 0xEB && length > 100)
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var read = 0, refused = 0
        for round in 0..<500 {
            var copy = bytes
            if round < 400 {
                let at = 24 + Int(next() % UInt64(length - 2))
                copy[at] = UInt8(truncatingIfNeeded: next())
            } else {
                // Cut inside the store: the segment's length kept, the file ending there.
                copy = Array(copy.prefix(24 + Int(next() % UInt64(length - 2))))
            }
            let file = MediaFile.inspect(source: MemorySource(copy), path: "C.jpg", options: .full)
            if file.credentials != nil { read += 1 } else { refused += 1 }
            // A store that is there and cannot be read is said, never passed over as none.
            #expect(file.credentials != nil || file.credentialsProblem != nil || file.credentialsContainer == nil || file.error != nil,
                    "round \(round): a C2PA store labelled and neither read nor said")
        }
        #expect(read + refused == 500 && read > 0 && refused > 0, "read \(read), refused \(refused)")
        // The store's first manifest claiming more bytes than the store holds (its superbox's
        // size, after the APP11 header, the store's header and its description): the file reads,
        // the store is said not to.
        var broken = bytes
        #expect(broken[74..<78].elementsEqual("jumb".utf8), "C.jpg's first manifest is not where this test expects it")
        broken.replaceSubrange(70..<74, with: [0x7F, 0xFF, 0xFF, 0xFF])
        let file = MediaFile.inspect(source: MemorySource(broken), path: "C.jpg", options: .full)
        #expect(file.error == nil && file.credentials == nil && (file.credentialsProblem ?? "").contains("JUMBF at byte"), "\(file.credentialsProblem ?? "no problem said")")
    }
}

extension ContentCredentialsTests {
    @Test("make from a signed still (C2PA's C.jpg) and a movie: the plan names the credentials that will no longer bind (text, and the ledger's credentialsLost in make's schema), c2pa-python finds the written still's data hash broken, and --keep-credentials refuses the write with exit 1, writing nothing")
    func writersSayCredentialsStopBinding() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let shared = try #require(Locations.sharedSamples)
        let still = shared.appendingPathComponent("c2pa/contentauth__c2pa-rs__C.jpg"), movie = shared.appendingPathComponent("LycheeOrg__Lychee/train.mov")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-c2pa-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let lpcheck = try #require(Locations.lpcheckBinary).path
        let made = try ProcessResult.run(lpcheck, ["make", still.path, movie.path, "-o", work.appendingPathComponent("made").path, "--format", "json"])
        #expect(made.status == 0, "\(made.stderr)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("make.schema.json"))
        #expect(try validator.validate(json: made.stdout).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: Any])
        let outputs = document["outputs"] as? [[String: Any]] ?? []
        let stillOutput = try #require(outputs.first { ($0["path"] as? String ?? "").hasSuffix(".JPG") })
        let lost = (stillOutput["ledger"] as? [String: Any])?["credentialsLost"] as? String ?? ""
        #expect(lost.contains("will no longer bind") && lost.contains("CN=C2PA Signer"), "\(stillOutput)")
        // The movie carried no credentials: nothing said of it.
        #expect(outputs.filter { ($0["ledger"] as? [String: Any])?["credentialsLost"] != nil }.count == 1)
        // c2pa-python agrees: the written still's data hash no longer matches.
        let written = try #require(stillOutput["path"] as? String)
        let oracle = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle, written])
        #expect(oracle.text.contains("assertion.dataHash.mismatch"), "\(oracle.text)\(oracle.stderr)")
        // The text plan says it too; --keep-credentials refuses.
        let refused = work.appendingPathComponent("refused")
        let kept = try ProcessResult.run(lpcheck, ["make", still.path, movie.path, "-o", refused.path, "--keep-credentials"])
        #expect(kept.status == 1 && kept.text.contains("CONTENT CREDENTIALS:") && kept.stderr.contains("--keep-credentials"), "\(kept.text)\(kept.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: refused.path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}

extension ContentCredentialsTests {
    @Test("check names the credentials of exactly the files c2pa-python finds a manifest in (content-credentials, from headers alone: the store is not read); with --verify-credentials, content-credentials-unbound fires on exactly those c2pa-python reports assertion.dataHash.mismatch or bmffHash.mismatch for, and the gate fails on it")
    func checkNamesAndVerifies() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let folder = try #require(Locations.sharedSamples).appendingPathComponent("c2pa")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".tsv") }.sorted().map { folder.appendingPathComponent($0).path }
        let python = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle] + files)
        let oracle = try #require(try JSONSerialization.jsonObject(with: python.stdout) as? [String: [String: Any]])
        let signed = Set(oracle.filter { $0.value["count"] != nil }.map(\.key))
        let broken = Set(oracle.filter { ($0.value["codes"] as? [String] ?? []).contains { $0 == "assertion.dataHash.mismatch" || $0 == "assertion.bmffHash.mismatch" } }.map(\.key))
        #expect(signed.count >= 4 && broken.count >= 1, "\(signed) \(broken)")
        let lpcheck = try #require(Locations.lpcheckBinary).path
        func findings(_ extra: [String]) throws -> (status: Int32, byRule: [String: Set<String>], bytesRead: Int) {
            let run = try ProcessResult.run(lpcheck, ["check", folder.path, "--format", "json", "--no-progress", "--fail-on", "warning"] + extra)
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
            var byRule: [String: Set<String>] = [:]
            for item in report["items"] as? [[String: Any]] ?? [] {
                for finding in item["findings"] as? [[String: Any]] ?? [] {
                    if let rule = finding["rule"] as? String, let path = finding["path"] as? String { byRule[rule, default: []].insert(path) }
                }
            }
            let read = (report["summary"] as? [String: Any])?["bytesRead"] as? Int ?? -1
            return (run.status, byRule, read)
        }
        let plain = try findings([])
        #expect(plain.byRule["content-credentials"] == signed && plain.byRule["content-credentials-unbound"] == nil, "\(plain.byRule)")
        #expect(plain.status == 0)
        let verified = try findings(["--verify-credentials"])
        #expect(verified.byRule["content-credentials-unbound"] == broken, "\(verified.byRule)")
        #expect(verified.byRule["content-credentials"] == signed.subtracting(broken), "\(verified.byRule)")
        #expect(verified.status == 1)
        // The plain check read less than the verifying one, which read every signed file whole
        // (but the bytes its exclusions leave out).
        let sizes = try signed.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }.reduce(0, +)
        #expect(plain.bytesRead >= 0 && verified.bytesRead - plain.bytesRead >= sizes * 9 / 10, "read \(plain.bytesRead) plain, \(verified.bytesRead) verifying; the signed files hold \(sizes)")
    }
}

extension ContentCredentialsTests {
    @Test("export of a signed MP4 (C2PA's video1.mp4, --as movie): the plan and the JSON say its credentials will no longer bind (the BMFF hash recomputed over the planned bytes), c2pa-python finds them broken, and --keep-credentials refuses with exit 1, writing nothing")
    func exportSaysCredentialsAreLeft() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("c2pa"), "c2pa-python (PyPI)")
        let movie = try #require(Locations.sharedSamples).appendingPathComponent("c2pa/contentauth__c2pa-rs__video1.mp4")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-c2pa-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let lpcheck = try #require(Locations.lpcheckBinary).path
        let exported = try ProcessResult.run(lpcheck, ["export", movie.path, "--as", "movie", "-o", work.appendingPathComponent("out").path, "--format", "json"])
        #expect(exported.status == 0, "\(exported.text)\(exported.stderr)")
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("export.schema.json"))
        #expect(try validator.validate(json: exported.stdout).isEmpty)
        let item = try #require(((try JSONSerialization.jsonObject(with: exported.stdout) as? [String: Any])?["items"] as? [[String: Any]])?.first)
        // The loop writer copies the uuid box with the rest; the BMFF hash recomputed over the
        // planned bytes no longer matches, and c2pa-python finds the hash broken too.
        #expect((item["credentialsLost"] as? String ?? "").contains("will no longer bind: c2pa.hash.bmff.v2"), "\(item)")
        let output = try #require(item["output"] as? String)
        let oracle = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", Self.oracle, output])
        #expect(oracle.text.contains("assertion.bmffHash.mismatch"), "\(oracle.text)")
        let refused = work.appendingPathComponent("refused")
        let kept = try ProcessResult.run(lpcheck, ["export", movie.path, "--as", "movie", "-o", refused.path, "--keep-credentials"])
        #expect(kept.status == 1 && kept.text.contains("CONTENT CREDENTIALS:") && kept.text.contains("--keep-credentials"), "\(kept.text)\(kept.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: refused.path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
