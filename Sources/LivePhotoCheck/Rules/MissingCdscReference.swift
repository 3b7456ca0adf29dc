/// The still-image-time track does not describe the video track.
enum MissingCdscReference: FixableRule {
    static let fixKind = FixKind.cdscReference

    static let description = RuleDescription(
        identifier: "missing-cdsc-reference", title: "Timed-metadata track without cdsc reference", severity: .info, category: .structure,
        confidence: .low, evidence: [.measured(Evidence.samples + " (a cdsc reference in the camera movies of iOS 12 to 17 and 26.1; none in iOS 18.2's IMG_3853.MOV, which Photos plays as a Live Photo)"),
                                     .specification(Evidence.isoBMFF + " §8.3.3 (track references)")],
        rationale: "Most camera movies link the still-image-time track to the video with a 'cdsc' track reference, and other readers may use it to know which video the moment belongs to. Photos does not require it: an iPhone camera on iOS 18.2 writes none, so a movie that Apple's camera wrote (Make Apple, Software a bare iOS version) is left alone.",
        fix: "`lpcheck repair --include-info` rewrites the track with the reference.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let movie = item.movie, let track = movie.movie?.stillImageTimeTracks.first, !track.referencesVideo, !isAppleCameraMovie(movie) else { return [] }
        return [finding("Track \(track.trackID) has no 'cdsc' reference to the video track: readers other than Photos may not know which video the moment belongs to (Photos plays such movies: iPhone cameras on iOS 18.2 write none).", movie)]
    }

    /// A movie Apple's camera wrote: Keys make Apple and a software that is a bare iOS version
    /// ("18.2"), as cameras write it (editors and converters put their own names there).
    static func isAppleCameraMovie(_ movie: FileFacts) -> Bool {
        guard let capture = movie.capture, capture.make == "Apple", let software = capture.software, !software.isEmpty else { return false }
        return software.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    static func cameraMovieWithoutReference() -> CheckItem {
        var movie = Example.movie { $0.stillImageTimeTracks[0].referencesVideo = false }
        movie.capture = CaptureFacts(time: nil, headerTime: nil, make: "Apple", model: "iPhone 15 Plus", software: "18.2", latitude: nil, longitude: nil, size: nil, quarterTurns: nil)
        return Example.pair(movie: movie)
    }

    static let examples: [RuleExample] = [
        .triggers("no tref", Example.pair(movie: Example.movie { $0.stillImageTimeTracks[0].referencesVideo = false })),
        .passes("camera pair", Example.pair()),
        .passes("an iPhone camera's movie without tref (iOS 18.2)", cameraMovieWithoutReference()),
    ]
}

