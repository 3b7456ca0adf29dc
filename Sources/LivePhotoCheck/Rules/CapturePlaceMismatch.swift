import LivePhotoFormats

/// The still's GPS position and the movie's are far apart.
enum CapturePlaceMismatch: Rule {
    static let description = RuleDescription(
        identifier: "capture-place-mismatch", title: "Still and movie give different places", severity: .warning, category: .agreement,
        confidence: .medium, evidence: [.measured(Evidence.samples + " (within 3 m)")],
        rationale: "A camera writes one GPS fix into the still's EXIF and the movie's `com.apple.quicktime.location.ISO6709` key: they agree within 3 m in every camera pair in ../shared/samples (the key has four decimals, about 10 m). More than 100 m apart, the halves come from two captures, or a tool moved one.",
        fix: "Pair the still with the movie of its own capture, or write one position into both.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard item.kind == .pair, let a = item.still?.capture, let b = item.movie?.capture,
              let latitude = a.latitude, let longitude = a.longitude, let movieLatitude = b.latitude, let movieLongitude = b.longitude else { return [] }
        let metres = CaptureAgreement.distance((latitude, longitude), (movieLatitude, movieLongitude))
        guard metres > CaptureAgreement.placeTolerance else { return [] }
        let away = metres >= 10_000 ? "\(Int(metres / 1_000)) km" : "\(Int(metres)) m"
        return [finding("The movie's location key (\(SecondsText.format(movieLatitude, decimals: 5)), \(SecondsText.format(movieLongitude, decimals: 5))) is \(away) from the still's GPS position (\(SecondsText.format(latitude, decimals: 5)), \(SecondsText.format(longitude, decimals: 5))); camera pairs agree within metres.", item.movie)]
    }

    static let examples: [RuleExample] = [
        .triggers("movie 1 km north", Example.capturePair(movie: { $0.latitude = ($0.latitude ?? 0) + 0.009 })),
        .passes("camera pair (3 m)", Example.capturePair()),
        .passes("movie without a position", Example.capturePair(movie: { $0.latitude = nil; $0.longitude = nil })),
    ]
}
