import LivePhotoFormats

/// One identifier on files that cannot be told apart: a true conflict.
enum IdentifierShared: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "identifier-shared", title: "Identifier shared by files that cannot be told apart", severity: .error, category: .identifier,
        confidence: .medium, evidence: [.vendor("Apple Developer, AVMetadataIdentifier.quickTimeMetadataContentIdentifier and .quickTimeMetadataStillImageTime"), .practitioners("immich-app/immich issues on Live Photos matched to the wrong movie")],
        rationale: "Each Live Photo needs its own identifier. An original and its edits, re-exports, copies and downsized movies share one by design (see identifier-variant and duplicate-file); but when stills or movies that are named like none of the others carry one identifier, Photos pairs them unpredictably or merges different shots.",
        fix: "`lpcheck repair` keeps the identifier on the camera original and on every pair that works, and gives the conflicting files a new one.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.identifierConflict, item.sharingCount > 0, let identifier = item.contentIdentifier else { return [] }
        let others = item.sharingIdentifier.prefix(5).joined(separator: ", ") + (item.sharingCount > 5 ? ", …" : "")
        if item.sharingCount + item.fileCount > Pairing.largeGroup {
            return [finding("The identifier \(identifier) is carried by \(item.sharingCount + item.fileCount) files (more than \(Pairing.largeGroup): only files of one folder and name were paired, the rest are not told apart), among them \(others).", item.primary)]
        }
        return [finding("The identifier \(identifier) is also carried by \(Plural.count(item.sharingCount, "other file")) named like none of this item's files: \(others).", item.primary)]
    }

    static let examples: [RuleExample] = [
        .triggers("a still named like none of the pair", {
            var item = CheckItem(kind: .stillOnly, still: Example.still("a/DSC_0002.JPG"))
            item.sharingIdentifier = ["a/IMG_0001.JPG", "a/IMG_0001.MOV"]
            item.sharingCount = 2
            item.identifierConflict = true
            return item
        }()),
        .passes("an edit of the pair (a variant)", {
            var item = CheckItem(kind: .variant, still: Example.still("a/IMG_0001-edited.JPG"))
            item.sharingIdentifier = ["a/IMG_0001.JPG", "a/IMG_0001.MOV"]
            item.sharingCount = 2
            item.variantOf = ItemReference(still: "a/IMG_0001.JPG", movie: "a/IMG_0001.MOV")
            return item
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
