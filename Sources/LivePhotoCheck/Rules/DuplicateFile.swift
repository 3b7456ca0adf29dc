/// A hard link or a byte-identical copy of a file in another item.
enum DuplicateFile: Rule {
    static let description = RuleDescription(
        identifier: "duplicate-file", title: "Duplicate of another file", severity: .info, category: .pairing,
        confidence: .high, evidence: [.fileContent("device and inode, or every byte compared")],
        targets: [],
        rationale: "A hard link is one file under two names; a byte-identical copy holds the same photo twice. Neither is a conflict: both carry the identifier of the file they duplicate.",
        fix: "Nothing to fix. Remove the copy if it is not wanted; repair leaves duplicates alone.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .duplicate, let original = item.duplicateOf else { return [] }
        let what = item.hardLink ? "The same file as \(original) (a hard link: one file, two names)" : "A byte-identical copy of \(original)"
        return [finding(what + ".", item.primary)]
    }

    static let examples: [RuleExample] = [
        .triggers("a hard link", {
            var item = CheckItem(kind: .duplicate, still: Example.still("b/IMG_0001.JPG"))
            item.duplicateOf = "a/IMG_0001.JPG"
            item.hardLink = true
            return item
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
