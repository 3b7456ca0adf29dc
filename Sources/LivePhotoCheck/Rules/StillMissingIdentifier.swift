/// A paired still without MakerApple tag 0x0011.
enum StillMissingIdentifier: FixableRule {
    static let fixKind = FixKind.identifier

    static let description = RuleDescription(
        identifier: "still-missing-identifier", title: "Still has no content identifier", severity: .error, category: .identifier,
        confidence: .high, evidence: [.measured(Evidence.samples), .vendor("Apple Developer, AVMetadataIdentifier.quickTimeMetadataContentIdentifier and .quickTimeMetadataStillImageTime"), .practitioners("makelive (RhetTbull/makelive) and LimitPoint LivePhoto, which write these markers to make pairs Photos accepts"), .practitioners("ExifTool Apple tags: 0x0011 ContentIdentifier (MediaGroupUUID in older versions)")],
        rationale: "Photos pairs a still with its movie through the Apple MakerNote's content identifier (tag 0x0011). Without it the still shows as a plain photo.",
        fix: "Write the movie's identifier into the still's MakerNote: `lpcheck repair` (the MakerNote is added if absent).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let still = item.still, still.contentIdentifier == nil else { return [] }
        let detail = still.hasAppleMakerNote ? "its Apple MakerNote has no tag 0x0011" : "it has no Apple MakerNote"
        return [finding("The still has no content identifier (\(detail)); paired with \(item.movie?.fileName ?? "its movie") by file name.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("still stripped of its MakerNote", Example.pair(still: Example.still(identifier: nil), by: .name)),
        .passes("camera pair", Example.pair()),
    ]
}
