import LivePhotoFormats

/// Content Credentials whose hard binding no longer holds: the file changed after it was signed.
enum ContentCredentialsUnbound: Rule {
    static let description = RuleDescription(
        identifier: "content-credentials-unbound", title: "Content Credentials no longer bind", severity: .warning, category: .structure,
        confidence: .high, evidence: [.specification("C2PA Technical Specification 2.1, 9.2.2 (c2pa.hash.data: a hash of every byte but the exclusions) and 9.2.3 (c2pa.hash.bmff: boxes chosen by path, top-level offsets hashed from v2)"),
                                      .reference("c2pa-python 0.38: assertion.dataHash.mismatch or assertion.bmffHash.mismatch on exactly these files of ../shared/samples/c2pa and on changed copies of video1.mp4 (ContentCredentialsTests, BMFFHashTests)")],
        targets: [],
        rationale: "The active manifest's hard binding (a data hash, or a BMFF hash over the file's boxes) does not match the file's bytes: the file was changed after it was signed, so C2PA's readers report the credentials invalid (assertion.dataHash.mismatch, assertion.bmffHash.mismatch) and nothing they say can be trusted of this file.",
        fix: "Restore the signed original, or sign the edited file again with a manifest that names the original as its ingredient.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard let credentials = file.credentials, credentials.binding == false else { return nil }
            let manifest = credentials.activeManifest.map { "active manifest \($0)" } ?? "the active manifest"
            return finding("The Content Credentials no longer bind (\(manifest)): \(credentials.detail ?? "its hash does not match the file"); the file changed after it was signed.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("a signed JPEG changed after signing", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: true, binding: false))),
        .passes("a signed JPEG whose binding holds", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: true, binding: true))),
        .passes("a signed JPEG, not verified", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: false, binding: nil))),
    ]
}
