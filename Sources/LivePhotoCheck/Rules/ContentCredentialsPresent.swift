import LivePhotoFormats

/// A file that carries Content Credentials (C2PA): named, with what is known of their binding.
enum ContentCredentialsPresent: Rule {
    static let description = RuleDescription(
        identifier: "content-credentials", title: "Carries Content Credentials (C2PA)", severity: .info, category: .structure,
        confidence: .high, evidence: [.specification("C2PA Technical Specification 2.1, 11.3 (embedding: JPEG APP11 JUMBF, ISO BMFF uuid box) and 9.2 (hard bindings)"),
                                      .reference("c2pa-python 0.38 (c2pa-rs): the same stores and binding verdicts on ../shared/samples/c2pa (ContentCredentialsTests)")],
        targets: [],
        rationale: "A signed photo's credentials bind it to its bytes: any rewrite of the file (an identifier written, a motion photo converted, a trailer cut) breaks the binding, and every converter does so silently. Knowing which files carry them tells a library what a writer would cost.",
        fix: "Nothing to fix. Writers say when an output's credentials will no longer bind (--keep-credentials refuses such a write); check --verify-credentials or dump says whether they hold now.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard let credentials = file.credentials, credentials.binding != false else { return nil }
            let place = credentials.container == "jpeg-app11" ? "in its APP11 JUMBF segments" : credentials.container == "bmff-uuid" ? "in its C2PA uuid box" : "in the file"
            guard credentials.verified else {
                return finding("The file carries Content Credentials (C2PA) \(place); their binding was not checked (check --verify-credentials, or dump, reads them).", file)
            }
            let manifest = credentials.activeManifest.map { " (active manifest \($0)\(credentials.signer.map { ", signed by \($0)" } ?? ""))" } ?? ""
            let binding = credentials.binding == true ? "their binding holds" : "their binding is not known"
            return finding("The file carries Content Credentials (C2PA) \(place)\(manifest): \(binding)\(credentials.detail.map { ": \($0)" } ?? ""). The signature is not verified.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("a signed JPEG, not verified", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: false, binding: nil))),
        .triggers("a signed JPEG whose binding holds", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: true, binding: true))),
        .passes("a signed JPEG whose binding is broken (content-credentials-unbound says it)", CheckItem(kind: .notLivePhoto, still: Example.signed(verified: true, binding: false))),
        .passes("camera pair", Example.pair()),
    ]
}
