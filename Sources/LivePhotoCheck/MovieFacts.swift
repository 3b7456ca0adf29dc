import LivePhotoFormats

/// What the rules know of a movie (a movie file, or the movie inside a motion photo).
public struct MovieFacts: Sendable, Codable {
    public var brand: FourCC?
    /// Whether `ftyp` lists `qt  ` among its compatible brands.
    public var quickTimeCompatible = false
    public var durationSeconds: Double?
    public var metadataHandler: FourCC?
    public var hasContentIdentifierKey: Bool = false
    /// `moov/meta` (where cameras write it) or `moov/udta/meta` (where ffmpeg does).
    public var contentIdentifierLocation: MetadataLocation?
    public var videoTrackCount: Int = 0
    public var frameDurations: FrameDurations?
    /// Video frames in movie time (edit list applied), as runs of equal frames: compact for
    /// large libraries and exact.
    public var frames: [FrameRun] = []
    public var timedMetadataTrackCount: Int = 0
    public var stillImageTimeTracks: [StillImageTimeTrack] = []
    public var stillImageTime: StillImageTime?
    /// The tracks Google's motion-photo checker counts (optional so that facts records written
    /// before it read).
    public var trackKinds: TrackKinds?
    /// Which of the keys iOS 17 cameras write for the lock screen's wallpaper `moov/meta` holds
    /// (nil in records written before they were read).
    public var wallpaperKeys: WallpaperKeys?
    /// The still-image-time sample's `live-photo-still-image-transform-reference-dimensions`
    /// (iOS 17 cameras): the video size the still's transform refers to.
    public var referenceDimensions: PixelSize?

    /// `com.apple.quicktime.live-photo.auto` and `.live-photo.vitality-score`.
    public struct WallpaperKeys: OptionSet, Sendable, Codable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let auto = WallpaperKeys(rawValue: 1)
        public static let vitalityScore = WallpaperKeys(rawValue: 2)
    }

    /// Tracks by handler, as libmotionphoto's MP4 reader counts them: sound tracks, `meta`
    /// tracks, and whether one of those is a motion photo's own metadata track (a `mett` entry
    /// of MIME type `application/motionphoto-image-meta`, which a second video track needs).
    public struct TrackKinds: Sendable, Equatable, Codable {
        public var audio: Int
        public var metadata: Int
        public var motionPhotoMetadata: Bool
        /// From the first sample of the first motion-photo metadata track: the primary image's
        /// frame time (-1 when the sample gives none), the index of the first high-resolution
        /// frame score whose time is before the one above it, or why the sample could not be read.
        public var primaryFrameTimestampUs: Int64? = nil
        public var unsortedScoreIndex: Int? = nil
        public var metadataError: String? = nil

        public init(audio: Int, metadata: Int, motionPhotoMetadata: Bool) {
            (self.audio, self.metadata, self.motionPhotoMetadata) = (audio, metadata, motionPhotoMetadata)
        }

        public static let motionPhotoMetadataMime = MotionPhotoMetadata.mime
    }

    /// `count` frames of `duration` seconds each, the first starting at `start`.
    public struct FrameRun: Sendable, Equatable, Codable {
        public var start: Double
        public var duration: Double
        public var count: Int
        public init(start: Double, duration: Double, count: Int = 1) {
            self.start = start
            self.duration = duration
            self.count = count
        }

        public var end: Double { start + duration * Double(count) }

        /// Merges consecutive frames of equal duration that follow each other.
        public static func runs(_ frames: [(start: Double, duration: Double)]) -> [FrameRun] {
            var runs: [FrameRun] = []
            for frame in frames {
                if var last = runs.last, last.duration == frame.duration, abs(last.end - frame.start) < 1e-9 {
                    last.count += 1
                    runs[runs.count - 1] = last
                } else {
                    runs.append(FrameRun(start: frame.start, duration: frame.duration))
                }
            }
            return runs
        }
    }

    public var frameCount: Int { frames.reduce(0) { $0 + $1.count } }

    public struct StillImageTimeTrack: Sendable, Codable {
        public var trackID: UInt32
        public var path: String
        /// `dtyp` of the key: namespace 0 with a well-known type.
        public var declaredType: UInt32?
        public var sampleCount: Int
        public var referencesVideo: Bool
        public var readError: ParseError?
        /// Whether any read sample holds the key.
        public var sampleHoldsKey: Bool

        public init(trackID: UInt32, path: String, declaredType: UInt32?, sampleCount: Int, referencesVideo: Bool,
                    readError: ParseError? = nil, sampleHoldsKey: Bool) {
            self.trackID = trackID
            self.path = path
            self.declaredType = declaredType
            self.sampleCount = sampleCount
            self.referencesVideo = referencesVideo
            self.readError = readError
            self.sampleHoldsKey = sampleHoldsKey
        }
    }

    public init() {}

    public var isQuickTime: Bool { brand == "qt  " || brand == nil || quickTimeCompatible }
}

extension MovieFacts {
    /// The reference dimensions in the still-image-time sample, when they are two whole,
    /// positive floats a picture can have (at most 65,535 each).
    /// `trackID` is the still-image time's track (found once, by `init`): the tracks are looked
    /// at in place, not copied (this runs for every movie of a check).
    static func referenceDimensions(_ movie: Movie, trackID: UInt32?) -> PixelSize? {
        guard let trackID, let index = movie.tracks.firstIndex(where: { $0.id == trackID }) else { return nil }
        let length = LivePhotoKeys.referenceDimensions.utf8.count
        for sample in movie.tracks[index].timedMetadata {
            for item in sample.items where item.key?.utf8.count == length && item.key == LivePhotoKeys.referenceDimensions {
                guard case .floats(let values) = item.value, values.count == 2, values.allSatisfy({ $0 >= 1 && $0 <= 65_535 && $0.rounded() == $0 }) else { return nil }
                return PixelSize(width: Int(values[0]), height: Int(values[1]))
            }
        }
        return nil
    }

    /// Summarises a movie (a movie file, or the movie inside a motion photo).
    public init(_ movie: Movie) {
        self.init()
        brand = movie.majorBrand
        quickTimeCompatible = movie.compatibleBrands.contains("qt  ")
        durationSeconds = movie.durationSeconds
        metadataHandler = movie.metadataHandler
        hasContentIdentifierKey = movie.metadata.contains { $0.key == LivePhotoKeys.contentIdentifier }
        var keys = WallpaperKeys()
        // Told apart by length first (a camera movie has a dozen keys): a string comparison each
        // cost more than the rest of this reading.
        let autoLength = LivePhotoKeys.livePhotoAuto.utf8.count, vitalityLength = LivePhotoKeys.vitalityScore.utf8.count
        for index in movie.metadata.indices {
            let length = movie.metadata[index].key.utf8.count
            if length == autoLength && movie.metadata[index].key == LivePhotoKeys.livePhotoAuto { keys.insert(.auto) }
            if length == vitalityLength && movie.metadata[index].key == LivePhotoKeys.vitalityScore { keys.insert(.vitalityScore) }
        }
        wallpaperKeys = keys
        contentIdentifierLocation = movie.contentIdentifierLocation
        let videoIDs = movie.videoTrackIDs
        videoTrackCount = videoIDs.count
        frameDurations = movie.frameDurations
        frames = MovieFacts.FrameRun.runs(movie.videoFrames(limit: 100_000))
        timedMetadataTrackCount = movie.timedMetadataTrackCount
        stillImageTimeTracks = movie.stillImageTimeTracks.map { track in
            let key = track.declaredKeys.first { $0.key == LivePhotoKeys.stillImageTime }
            return MovieFacts.StillImageTimeTrack(
                trackID: track.id, path: track.path,
                declaredType: key?.dataTypeNamespace == 0 ? key?.dataType : nil,
                sampleCount: Int(track.sampleTable.sampleCount),
                referencesVideo: track.references.contains { $0.type == "cdsc" && $0.trackIDs.contains(where: videoIDs.contains) },
                readError: track.timedMetadataError,
                sampleHoldsKey: track.timedMetadata.contains { $0.items.contains { $0.key == LivePhotoKeys.stillImageTime } })
        }
        stillImageTime = movie.stillImageTime
        referenceDimensions = Self.referenceDimensions(movie, trackID: stillImageTime?.trackID)
        var kinds = TrackKinds(audio: 0, metadata: 0, motionPhotoMetadata: false)
        for track in movie.tracks {
            if track.handler == "soun" { kinds.audio += 1 }
            if track.handler == "meta" { kinds.metadata += 1 }
            if !kinds.motionPhotoMetadata && track.isMotionPhotoMetadata {
                kinds.motionPhotoMetadata = true
                kinds.metadataError = track.timedMetadataError.map { "\($0.message) at byte \($0.offset)" }
                if let metadata = track.motionPhotoMetadata {
                    kinds.primaryFrameTimestampUs = metadata.primaryFrameTimestampUs
                    let times = metadata.highResFrameTimestampsUs
                    kinds.unsortedScoreIndex = times.indices.dropFirst().first { times[$0] < times[$0 - 1] }
                }
            }
        }
        trackKinds = kinds
    }
}

extension MovieFacts {
    /// A reader's times are 64-bit ticks over a timescale of at least 1: at most 2^64 s.
    static let longestTime = 18_446_744_073_709_551_616.0

    var implausibility: String? {
        var total = 0
        for run in frames {
            guard run.count >= 0, run.count <= FileFacts.maxFramesPerMovie, run.start.isFinite, run.duration.isFinite, run.duration >= 0,
                  abs(run.start) <= Self.longestTime, run.duration <= Self.longestTime else {
                return "frame run of \(run.count) frames at \(run.start) s out of range"
            }
            total += run.count
            guard total <= FileFacts.maxFramesPerMovie else { return "more than \(FileFacts.maxFramesPerMovie) frames" }
        }
        for time in [durationSeconds, stillImageTime?.seconds].compactMap({ $0 }) where !time.isFinite || abs(time) > Self.longestTime {
            return "a time of \(time) s, which no reader gives"
        }
        guard videoTrackCount >= 0, timedMetadataTrackCount >= 0, stillImageTimeTracks.count <= 10_000,
              (trackKinds.map { $0.audio >= 0 && $0.metadata >= 0 } ?? true) else { return "track counts out of range" }
        return nil
    }
}
