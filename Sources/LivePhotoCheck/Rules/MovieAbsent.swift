import LivePhotoFormats

/// A Live Photo still whose movie is not there.
enum MovieAbsent: Rule {
    static let description = RuleDescription(
        identifier: "movie-absent", title: "Live Photo still without its movie", severity: .error, category: .pairing,
        confidence: .high, evidence: [.fileContent("no movie of the scan carries the identifier or shares the name")],
        rationale: "The still carries a content identifier, so it was part of a Live Photo, but no movie of the scan pairs with it: none carries that identifier, and none with its folder and name could pair.",
        fix: "Put the movie beside the still, or make one: `lpcheck make STILL MOVIE --output DIR`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .stillOnly, let still = item.still else { return [] }
        return [finding("No movie pairs with this still: " + Absence.describe(item, identifier: still.contentIdentifier, other: "movie"), still)]
    }

    static let examples: [RuleExample] = [
        .triggers("still alone", CheckItem(kind: .stillOnly, still: Example.still())),
        .passes("camera pair", Example.pair()),
    ]
}

/// The true reasons a single file did not pair, from the whole scan's facts.
enum Absence {
    static func describe(_ item: CheckItem, identifier: String?, other: String) -> String {
        var parts: [String] = []
        let carriers = other == "movie" ? item.carriers.movies : item.carriers.stills
        if let identifier {
            parts.append(carriers == 0 ? "no \(other) of the scan carries its identifier \(identifier)"
                         : "the \(Plural.count(carriers, other)) carrying its identifier \(identifier) \(carriers == 1 ? "belongs to another item" : "belong to other items") (paired, duplicates or variants)")
        } else {
            parts.append("it has no identifier")
        }
        if item.nameMates.isEmpty {
            parts.append("no \(other) has its folder and name")
        } else {
            for mate in item.nameMates.prefix(3) { parts.append("\(mate.path) has its name but \(mate.reason)") }
        }
        return parts.joined(separator: "; ") + "."
    }
}
