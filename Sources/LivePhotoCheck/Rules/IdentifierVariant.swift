/// Another rendition of a Live Photo: it shares the identifier by design.
enum IdentifierVariant: Rule {
    static let description = RuleDescription(
        identifier: "identifier-variant", title: "Another rendition of a Live Photo", severity: .info, category: .identifier,
        confidence: .high, evidence: [.measured(Evidence.samples), .practitioners("Photos exports of edits (IMG_E1234) carrying the original's identifier")],
        rationale: "Photos and other exporters write edits (`IMG_E1234`, `-edited`), re-exports (`IMG_1234 (1)`) and downsized copies with the original's identifier. They belong to that Live Photo; nothing is wrong, but a library importer may show them as separate photos.",
        fix: "Nothing to fix. Keep or drop the rendition; repair never changes its identifier.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let original = item.variantOf else { return [] }
        let target = [original.still, original.movie].compactMap { $0 }.joined(separator: " + ")
        let marks = item.variantMarks.isEmpty ? "" : " (name marks: \(item.variantMarks.map(\.rawValue).joined(separator: ", ")))"
        let what = item.kind == .pair ? "This pair is another rendition" : "This file is another rendition"
        return [finding("\(what) of the Live Photo \(target)\(marks); it shares the identifier \(item.contentIdentifier ?? "") by design.", item.primary)]
    }

    static let examples: [RuleExample] = [
        .triggers("an edit without its movie", {
            var item = CheckItem(kind: .variant, still: Example.still("a/IMG_0001-edited.JPG"))
            item.variantOf = ItemReference(still: "a/IMG_0001.JPG", movie: "a/IMG_0001.MOV")
            item.variantMarks = [.edited]
            return item
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
