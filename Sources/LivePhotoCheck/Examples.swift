import LivePhotoFormats

/// Building blocks for rule examples (shipped with each rule, as its documentation and the
/// registry test's input) and tests: a camera-like pair whose parts can be changed.
public enum Example {
    public static let identifier = "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34"

    public static func still(_ path: String = "IMG_0001.JPG", identifier: String? = Example.identifier, format: FileFormat = .jpeg) -> FileFacts {
        var facts = FileFacts(path: path, format: format, kind: .still, size: 3_000_000, contentIdentifier: identifier)
        facts.hasAppleMakerNote = identifier != nil
        facts.make = "Apple"
        facts.model = "iPhone 15 Pro"
        return facts
    }

    /// A movie as cameras write it: 30 frames at 30 fps, still-image-time -1, one tick, at 1.0 s.
    public static func movie(_ path: String = "IMG_0001.MOV", identifier: String? = Example.identifier) -> FileFacts {
        var facts = FileFacts(path: path, format: .quickTime, kind: .movie, size: 2_000_000, contentIdentifier: identifier)
        var movie = MovieFacts()
        movie.brand = "qt  "
        movie.quickTimeCompatible = true
        movie.durationSeconds = 2.0
        movie.metadataHandler = "mdta"
        movie.hasContentIdentifierKey = identifier != nil
        movie.contentIdentifierLocation = identifier != nil ? "moov/meta" : nil
        movie.videoTrackCount = 1
        var table = SampleTable()
        table.timeToSample = [TimeToSampleEntry(count: 60, delta: 20)]
        table.sampleCount = 60
        movie.frameDurations = FrameDurations(table, timescale: 600)
        movie.frames = [MovieFacts.FrameRun(start: 0, duration: 1.0 / 30, count: 60)]
        movie.timedMetadataTrackCount = 1
        movie.stillImageTimeTracks = [MovieFacts.StillImageTimeTrack(
            trackID: 3, path: "moov/trak[3]", declaredType: WellKnownType.int8, sampleCount: 1, referencesVideo: true, sampleHoldsKey: true)]
        movie.stillImageTime = StillImageTime(
            trackID: 3, trackPath: "moov/trak[3]", value: -1, dataType: WellKnownType.int8, sampleIndex: 0, mediaTime: 0,
            duration: 1, mediaTimescale: 600, seconds: 1.0, hasEditList: true)
        facts.movie = movie
        return facts
    }

    public static func pair(still: FileFacts = Example.still(), movie: FileFacts = Example.movie(), by method: CheckItem.PairingMethod = .identifier) -> CheckItem {
        CheckItem(kind: .pair, still: still, movie: movie, pairedBy: method)
    }

    /// Changes a movie's facts in place.
    public static func movie(_ change: (inout MovieFacts) -> Void) -> FileFacts {
        var facts = movie()
        if var inner = facts.movie {
            change(&inner)
            facts.movie = inner
        }
        return facts
    }

    /// Changes the still-image-time sample of a camera movie.
    public static func stillImageTime(_ change: (inout StillImageTime) -> Void) -> FileFacts {
        movie { facts in
            if var time = facts.stillImageTime {
                change(&time)
                facts.stillImageTime = time
            }
        }
    }

    /// A motion photo's facts as a Pixel writes them, its movie found there or not.
    public static func motionPhoto(found: Bool) -> MotionPhoto {
        var motion = MotionPhoto(source: "Container", version: "1", videoOffset: 131_582, videoLength: 8_730, videoFound: found, presentationTimestampUs: 0)
        motion.directory = [
            XMPPacket.DirectoryItem(fields: ["Mime": "image/jpeg", "Semantic": "Primary", "Length": "0", "Padding": "0"]),
            XMPPacket.DirectoryItem(fields: ["Mime": "video/mp4", "Semantic": "MotionPhoto", "Length": "8730", "Padding": "0"]),
        ]
        if found { (motion.movieRange, motion.foundBy) = (131_582..<140_312, "described") }
        return motion
    }

    /// A motion photo item: a Pixel still of 140,312 bytes, its movie 38 frames of 1/15 s.
    public static func motionPhotoItem(_ change: (inout MotionPhoto) -> Void = { _ in }) -> CheckItem {
        var still = Example.still("PXL.MP.jpg", identifier: nil)
        still.size = 140_312
        var motion = motionPhoto(found: true)
        change(&motion)
        still.motionPhoto = motion
        var movie = MovieFacts()
        movie.durationSeconds = 38.0 / 15
        movie.frames = [MovieFacts.FrameRun(start: 0, duration: 1.0 / 15, count: 38)]
        still.motionMovie = motion.movieRange == nil ? nil : movie
        return CheckItem(kind: .motionPhoto, still: still)
    }
}
