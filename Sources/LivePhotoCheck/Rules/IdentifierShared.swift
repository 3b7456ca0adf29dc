/// One identifier on several stills or movies.
enum IdentifierShared: Rule {
    static let description = RuleDescription(
        identifier: "identifier-shared", title: "Identifier shared by several files", severity: .error, category: "identifier",
        rationale: "Each Live Photo needs its own identifier. When several stills or movies carry one, Photos pairs them unpredictably or merges different shots.",
        fix: "Give each pair its own identifier: `lpcheck repair --prefer new` on all but one of them.",
        autofixable: true)

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.sharingCount > 0, let identifier = item.contentIdentifier else { return [] }
        let others = item.sharingIdentifier.prefix(5).joined(separator: ", ") + (item.sharingCount > 5 ? ", …" : "")
        return [finding("The identifier \(identifier) is also carried by \(item.sharingCount) other file(s): \(others).", item.primary)]
    }

    static let examples: [RuleExample] = [
        .triggers("a second still with the same identifier", {
            var item = Example.pair()
            item.sharingIdentifier = ["IMG_0002.JPG"]
            item.sharingCount = 1
            return item
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
