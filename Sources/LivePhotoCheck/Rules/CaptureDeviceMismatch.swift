/// The still and the movie name different cameras.
enum CaptureDeviceMismatch: Rule {
    static let description = RuleDescription(
        identifier: "capture-device-mismatch", title: "Still and movie name different devices", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (the same Make and Model in still and movie)")],
        rationale: "A camera writes its Make and Model into the still's EXIF and the same into the movie's `com.apple.quicktime.make` and `.model` keys (every iPhone pair in ../shared/samples). Two devices mean the halves come from two captures, or a tool wrote one of them.",
        fix: "Pair the still with the movie of its own capture.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let stillCapture = item.still?.capture, let movieCapture = item.movie?.capture else { return [] }
        // Equal texts (every camera pair) are settled without building anything.
        func differs(_ a: String?, _ b: String?) -> Bool {
            guard let a, let b, a != b, !a.isEmpty, !b.isEmpty else { return false }
            return a.lowercased() != b.lowercased()
        }
        let make = differs(stillCapture.make, movieCapture.make), model = differs(stillCapture.model, movieCapture.model)
        guard make || model else { return [] }
        var differing: [String] = []
        if make { differing.append("make \"\(stillCapture.make ?? "")\" in the still's EXIF, \"\(movieCapture.make ?? "")\" in the movie's keys") }
        if model { differing.append("model \"\(stillCapture.model ?? "")\" in the still's EXIF, \"\(movieCapture.model ?? "")\" in the movie's keys") }
        return [finding("Still and movie name different devices: " + differing.joined(separator: "; ") + ".", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("another model", Example.capturePair(movie: { $0.model = "iPhone 12" })),
        .passes("camera pair", Example.capturePair()),
        .passes("case differs only", Example.capturePair(movie: { $0.make = "APPLE" })),
        .passes("movie names no device", Example.capturePair(movie: { $0.make = nil; $0.model = nil })),
    ]
}
