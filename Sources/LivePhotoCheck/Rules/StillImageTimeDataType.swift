import LivePhotoFormats

/// The key declared with another type than signed 8-bit, or a value that does not decode.
enum StillImageTimeDataType: FixableRule {
    static let fixKind = FixKind.stillImageTimeTrack

    static let description = RuleDescription(
        identifier: "still-image-time-data-type", title: "Still-image-time has the wrong data type", severity: .warning, category: .stillImageTime,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (well-known type 65, one byte)"), .specification("Apple, QuickTime File Format Specification: well-known data types")],
        rationale: "Cameras declare still-image-time with dtyp well-known type 65 (signed 8-bit integer) and store one byte. Other types are not what Photos is known to read.",
        fix: "Rewrite the track as signed 8-bit: `lpcheck repair`.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let facts = movie.movie, let track = facts.stillImageTimeTracks.first else { return [] }
        if track.declaredType != WellKnownType.int8 {
            let declared = track.declaredType.map { "\(WellKnownType.name($0)) (\($0))" } ?? "no well-known type"
            return [finding("Track \(track.trackID) declares still-image-time as \(declared), not int8 (65).", movie)]
        }
        if let time = facts.stillImageTime, time.value == nil {
            return [finding("The still-image-time sample does not decode as a signed 8-bit integer.", movie)]
        }
        return []
    }

    static let examples: [RuleExample] = [
        .triggers("declared as UTF-8", Example.pair(movie: Example.movie { $0.stillImageTimeTracks[0].declaredType = WellKnownType.utf8 })),
        .passes("camera pair", Example.pair()),
    ]
}
