/// A value other than the camera's -1 or software's 0.
enum StillImageTimeValue: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-value", title: "Unusual still-image-time value", severity: .warning, category: .stillImageTime,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (-1 in camera movies)"), .practitioners("AVFoundation-based writers (LimitPoint LivePhoto) store 0")],
        rationale: "Cameras store -1 and AVFoundation-based software stores 0. Other values are not known to work.",
        fix: "Rewrite the value as -1: `lpcheck repair`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let value = movie.movie?.stillImageTime?.value, value != -1, value != 0 else { return [] }
        return [finding("The still-image-time value is \(value); cameras write -1, software 0.", movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("value 5", Example.pair(movie: Example.stillImageTime { $0.value = 5 })),
        .passes("camera value -1", Example.pair()),
        .passes("software value 0", Example.pair(movie: Example.stillImageTime { $0.value = 0 })),
    ]
}
