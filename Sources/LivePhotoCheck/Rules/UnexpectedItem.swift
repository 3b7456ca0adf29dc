/// With `--expect` (or `expect:`), an item that is not what the generator should have written.
enum UnexpectedItem: Rule {
    static let description = RuleDescription(
        identifier: "unexpected-item", title: "Not what the run expects (--expect)", severity: .error, category: .pairing,
        confidence: .high, evidence: [.fileContent("the item's kind as lpcheck pairs the files: its markers and partners")],
        targets: [],
        rationale: "A generator's output is gated on what it should be, not only on what is wrong with it: a plain JPEG and a one-frame GIF break no Live Photo rule, since they are no Live Photo at all, and a check without an expectation passes them. With `--expect live-photo` every item must be a still paired with its movie; with `--expect motion-photo`, a still with its movie inside. Copies and other renditions of an expected item (duplicate, variant) pass; every other item is an error naming what it is instead.",
        fix: "Make the generator write what is expected (`lpcheck make STILL MOVIE` pairs a still with a movie; `lpcheck convert --to motion-photo` makes a motion photo of a pair), or leave the item out of the checked folder.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let expect = context.expect, let reason = reason(item, expect) else { return [] }
        let wanted = expect == .livePhoto ? "a Live Photo (a still paired with its movie)" : "a motion photo (a still with its movie inside)"
        return [finding("Expected \(wanted) (--expect \(expect.rawValue)); this is \(reason).", item.still ?? item.movie)]
    }

    /// What the item is instead, in words; nil when it is what is expected.
    static func reason(_ item: CheckItem, _ expect: Expectation) -> String? {
        let file = item.still ?? item.movie
        let format = file.map { $0.format == .unknown ? "file" : $0.format.rawValue.uppercased() } ?? "file"
        switch (item.kind, expect) {
        case (.pair, .livePhoto), (.motionPhoto, .motionPhoto), (.duplicate, _), (.variant, _): return nil
        case (.pair, .motionPhoto): return "a Live Photo pair (a still and a separate movie)"
        case (.motionPhoto, .livePhoto): return "an Android motion photo (its movie inside the still), not a Live Photo pair"
        case (.stillOnly, _): return "a Live Photo still (\(format)) whose movie is absent"
        case (.movieOnly, _): return "a Live Photo movie whose still is absent"
        case (.notLivePhoto, _):
            let markers = expect == .livePhoto ? "no content identifier, no still-image-time track and no partner" : "no motion-photo XMP and no movie inside"
            return "a \(item.movie != nil && item.still == nil ? "movie" : "still") (\(format)) with \(markers)"
        case (.unreadable, _): return "a \(format) lpcheck cannot read"
        }
    }

    static let live = RuleContext(expect: .livePhoto), motion = RuleContext(expect: .motionPhoto)

    static let examples: [RuleExample] = [
        .triggers("a plain still, expecting Live Photos", CheckItem(kind: .notLivePhoto, still: Example.still(identifier: nil)), context: live),
        .triggers("a GIF, expecting Live Photos", CheckItem(kind: .notLivePhoto, still: Example.still("frame.gif", identifier: nil, format: .gif)), context: live),
        .triggers("a Live Photo still alone", CheckItem(kind: .stillOnly, still: Example.still()), context: live),
        .triggers("a pair, expecting motion photos", Example.pair(), context: motion),
        .triggers("a motion photo, expecting Live Photos", Example.motionPhotoItem(), context: live),
        .passes("a pair, expecting Live Photos", Example.pair(), context: live),
        .passes("a motion photo, expecting motion photos", Example.motionPhotoItem(), context: motion),
        .passes("a plain still, expecting nothing", CheckItem(kind: .notLivePhoto, still: Example.still(identifier: nil))),
    ]
}
