import LivePhotoFormats

/// More tracks in an embedded movie than motion photos have.
enum MotionPhotoUnusualTracks: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-unusual-tracks", title: "Motion photo movie has unusually many tracks", severity: .info, category: .motionPhoto,
        confidence: .medium, evidence: [.checker(Evidence.checker + " (CheckVideoTrackData, warnings)"), .measured("the Pixel 3a XL original in ../shared/samples (PXL_20200710_061629144.MP.jpg) carries two mett tracks")],
        rationale: "Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckVideoTrackData) warns about more than 2 video tracks, more than 1 sound track or more than 1 metadata ('meta') track: motion photos have at most a low- and a high-resolution video, one audio and one metadata track. A checker's warning, not what Google's reader refuses: Pixel cameras' own originals carry two metadata tracks, so it is reported at info.",
        fix: "Drop the extra tracks when embedding the movie (`lpcheck convert` drops Apple's timed-metadata tracks).")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, still.motionPhoto != nil, let movie = still.motionMovie, let kinds = movie.trackKinds else { return [] }
        var extra: [String] = []
        if movie.videoTrackCount > 2 { extra.append("\(movie.videoTrackCount) video tracks (2 usual)") }
        if kinds.audio > 1 { extra.append("\(kinds.audio) sound tracks (1 usual)") }
        if kinds.metadata > 1 { extra.append("\(kinds.metadata) metadata tracks (1 usual)") }
        guard !extra.isEmpty else { return [] }
        return [finding("The embedded movie has " + extra.joined(separator: ", ") + ": Google's checker warns about it.", still)]
    }

    static let examples: [RuleExample] = [
        .triggers("Apple's metadata tracks kept", Example.motionPhotoItem(video: 1, metadata: 3)),
        .passes("one of each", Example.motionPhotoItem(video: 2, metadata: 1, motionPhotoMetadata: true)),
    ]
}
