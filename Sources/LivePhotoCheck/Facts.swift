import LivePhotoFormats

/// What the rules know of one file: a compact summary of what the readers found. Rules read
/// these models only, never bytes; keeping them small keeps memory bounded on large libraries.
///
/// The fields live in one object that copies share until one of them is changed (copy on
/// write): a library's facts are made once, and the scan's list, pairing and the report items
/// then hold references to them instead of copies of 200 bytes each (at a million files, the
/// difference between one set of facts and two).
public struct FileFacts: Sendable, Codable {
    /// Only ever changed through `unique()`, so a shared object is never written.
    private final class Storage: @unchecked Sendable {
        var path: String
        var format: FileFormat
        var kind: MediaFile.Kind
        var size: Int64
        var error: ParseError?
        var warnings: [ParseError]
        var contentIdentifier: String?
        var bytesRead: Int64 = 0
        var identity: FileIdentity?
        var hasAppleMakerNote = false
        var make: String?
        var model: String?
        // The large optional parts live behind references of their own: a still's facts stay
        // small, and a copy of the object retains them instead of copying them.
        @Indirect var motionPhoto: MotionPhoto?
        @Indirect var motionMovie: MovieFacts?
        var thumbnail: [UInt8]?
        @Indirect var movie: MovieFacts?

        init(path: String, format: FileFormat, kind: MediaFile.Kind, size: Int64, error: ParseError?, warnings: [ParseError],
             contentIdentifier: String?) {
            (self.path, self.format, self.kind, self.size) = (path, format, kind, size)
            (self.error, self.warnings, self.contentIdentifier) = (error, warnings, contentIdentifier)
        }

        func copy() -> Storage {
            let copy = Storage(path: path, format: format, kind: kind, size: size, error: error, warnings: warnings, contentIdentifier: contentIdentifier)
            (copy.bytesRead, copy.identity, copy.hasAppleMakerNote, copy.make, copy.model) = (bytesRead, identity, hasAppleMakerNote, make, model)
            (copy._motionPhoto, copy._motionMovie, copy.thumbnail, copy._movie) = (_motionPhoto, _motionMovie, thumbnail, _movie)
            return copy
        }
    }

    private var storage: Storage

    /// Whether the two hold one object (tests: pairing and the items hold the scan's facts).
    func sharesStorage(with other: FileFacts) -> Bool { storage === other.storage }

    /// The object, made this value's own first when another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public var path: String { get { storage.path } set { unique().path = newValue } }
    public var format: FileFormat { get { storage.format } set { unique().format = newValue } }
    public var kind: MediaFile.Kind { get { storage.kind } set { unique().kind = newValue } }
    public var size: Int64 { get { storage.size } set { unique().size = newValue } }
    /// The file could not be read at all.
    public var error: ParseError? { get { storage.error } set { unique().error = newValue } }
    /// Damage the reader worked around.
    public var warnings: [ParseError] { get { storage.warnings } set { unique().warnings = newValue } }
    public var contentIdentifier: String? { get { storage.contentIdentifier } set { unique().contentIdentifier = newValue } }
    /// Bytes the readers fetched from the file.
    public var bytesRead: Int64 { get { storage.bytesRead } set { unique().bytesRead = newValue } }
    /// Device and inode: equal for hard links of one file.
    public var identity: FileIdentity? { get { storage.identity } set { unique().identity = newValue } }

    // Stills
    public var hasAppleMakerNote: Bool { get { storage.hasAppleMakerNote } set { unique().hasAppleMakerNote = newValue } }
    public var make: String? { get { storage.make } set { unique().make = newValue } }
    public var model: String? { get { storage.model } set { unique().model = newValue } }
    public var motionPhoto: MotionPhoto? { get { storage.motionPhoto } set { unique().motionPhoto = newValue } }
    /// The movie inside a motion photo.
    public var motionMovie: MovieFacts? { get { storage.motionMovie } set { unique().motionMovie = newValue } }
    public var thumbnail: [UInt8]? { get { storage.thumbnail } set { unique().thumbnail = newValue } }

    // Movies
    public var movie: MovieFacts? { get { storage.movie } set { unique().movie = newValue } }

    /// What `lpcheck scan` records (Reports/facts.schema.json): everything pairing and the rules
    /// read. Thumbnails stay out: they are for HTML reports and would make records large.
    enum CodingKeys: String, CodingKey {
        case path, format, kind, size, error, warnings, contentIdentifier, bytesRead, identity
        case hasAppleMakerNote, make, model, motionPhoto, motionMovie, movie
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storage = Storage(path: try container.decode(String.self, forKey: .path), format: try container.decode(FileFormat.self, forKey: .format),
                          kind: try container.decode(MediaFile.Kind.self, forKey: .kind), size: try container.decode(Int64.self, forKey: .size),
                          error: try container.decodeIfPresent(ParseError.self, forKey: .error),
                          warnings: try container.decode([ParseError].self, forKey: .warnings),
                          contentIdentifier: try container.decodeIfPresent(String.self, forKey: .contentIdentifier))
        bytesRead = try container.decode(Int64.self, forKey: .bytesRead)
        identity = try container.decodeIfPresent(FileIdentity.self, forKey: .identity)
        hasAppleMakerNote = try container.decode(Bool.self, forKey: .hasAppleMakerNote)
        make = try container.decodeIfPresent(String.self, forKey: .make)
        model = try container.decodeIfPresent(String.self, forKey: .model)
        motionPhoto = try container.decodeIfPresent(MotionPhoto.self, forKey: .motionPhoto)
        motionMovie = try container.decodeIfPresent(MovieFacts.self, forKey: .motionMovie)
        movie = try container.decodeIfPresent(MovieFacts.self, forKey: .movie)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(format, forKey: .format)
        try container.encode(kind, forKey: .kind)
        try container.encode(size, forKey: .size)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(warnings, forKey: .warnings)
        try container.encodeIfPresent(contentIdentifier, forKey: .contentIdentifier)
        try container.encode(bytesRead, forKey: .bytesRead)
        try container.encodeIfPresent(identity, forKey: .identity)
        try container.encode(hasAppleMakerNote, forKey: .hasAppleMakerNote)
        try container.encodeIfPresent(make, forKey: .make)
        try container.encodeIfPresent(model, forKey: .model)
        try container.encodeIfPresent(motionPhoto, forKey: .motionPhoto)
        try container.encodeIfPresent(motionMovie, forKey: .motionMovie)
        try container.encodeIfPresent(movie, forKey: .movie)
    }

    public init(path: String, format: FileFormat, kind: MediaFile.Kind, size: Int64 = 0, error: ParseError? = nil,
                warnings: [ParseError] = [], contentIdentifier: String? = nil) {
        storage = Storage(path: path, format: format, kind: kind, size: size, error: error, warnings: warnings, contentIdentifier: contentIdentifier)
    }

    // Names are taken apart on the path's bytes in one backward pass (rules and pairing ask
    // for them several times per file; through String indices each took 1,000 instructions).

    public var fileName: String { pathPart { nameStart, _, count in nameStart..<count } }

    /// The folder part of the path ("" for a bare name).
    public var folder: String { pathPart { nameStart, _, _ in 0..<max(0, nameStart - 1) } }

    /// The file name without its last extension.
    public var baseName: String { pathPart { nameStart, dot, count in nameStart..<(dot ?? count) } }

    public var fileExtension: String { pathPart { _, dot, count in dot.map { ($0 + 1)..<count } ?? count..<count }.lowercased() }

    /// The formats the file's extension promises (`FileFormat.byExtension`), nil for an
    /// extension that is not a media one; found on the path's bytes (no string is made).
    public var formatsByExtension: [FileFormat]? {
        pathBytes { bytes, _, dot in
            FileFormat.formats(forExtension: UnsafeBufferPointer(rebasing: bytes[(dot.map { $0 + 1 } ?? bytes.count)...]))
        }
    }

    /// The bytes of the path that `part` picks, given where the file name starts (after the
    /// last slash; 0 without one) and where the dot before its extension is (its last dot,
    /// unless that starts the name). Slashes and dots are ASCII, so every part is whole text.
    private func pathPart(_ part: (_ nameStart: Int, _ dot: Int?, _ count: Int) -> Range<Int>) -> String {
        pathBytes { bytes, nameStart, dot in String(decoding: UnsafeBufferPointer(rebasing: bytes[part(nameStart, dot, bytes.count)]), as: UTF8.self) }
    }

    /// `body` with the path's bytes, where the file name starts and where its extension's dot is.
    private func pathBytes<T>(_ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ nameStart: Int, _ dot: Int?) -> T) -> T {
        var path = self.path
        return path.withUTF8 { bytes in
            var nameStart = 0, dot: Int?
            var index = bytes.count
            while index > 0 {
                index -= 1
                if bytes[index] == UInt8(ascii: "/") {
                    nameStart = index + 1
                    break
                }
                if dot == nil, bytes[index] == UInt8(ascii: ".") { dot = index }
            }
            if dot == nameStart { dot = nil }
            return body(bytes, nameStart, dot)
        }
    }

    /// The base name with exporters' variant marks removed.
    public var nameKey: NameKey { NameKey(baseName: baseName) }

    /// Written by a camera: its make or model is recorded.
    public var hasCameraMetadata: Bool { make != nil || model != nil }

    /// Any Live Photo marker: an identifier, or a still-image-time track.
    public var hasLivePhotoMarker: Bool {
        contentIdentifier != nil || (movie?.stillImageTimeTracks.isEmpty == false)
    }

    public var isStill: Bool { format.isStill }
    public var isMovie: Bool { format.isMovie }
}

public struct MovieFacts: Sendable, Codable {
    public var brand: FourCC?
    /// Whether `ftyp` lists `qt  ` among its compatible brands.
    public var quickTimeCompatible = false
    public var durationSeconds: Double?
    public var metadataHandler: FourCC?
    public var hasContentIdentifierKey: Bool = false
    /// `moov/meta` (where cameras write it) or `moov/udta/meta` (where ffmpeg does).
    public var contentIdentifierLocation: String?
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

extension FileFacts {
    /// Summarises an inspected file.
    public init(_ file: MediaFile) {
        self.init(path: file.path, format: file.format, kind: file.kind, size: file.size, error: file.error,
                  warnings: file.warnings, contentIdentifier: file.contentIdentifier)
        bytesRead = file.stats.bytesRead
        identity = file.identity
        if let still = file.still {
            hasAppleMakerNote = still.makerNote != nil
            make = still.tiff?.make
            model = still.tiff?.model
            motionPhoto = still.motionPhoto
            thumbnail = still.thumbnail
        }
        if let movie = file.movie { self.movie = MovieFacts(movie) }
        if let embedded = file.still?.embeddedMovie { motionMovie = MovieFacts(embedded) }
    }
}

extension MovieFacts {
    /// Summarises a movie (a movie file, or the movie inside a motion photo).
    public init(_ movie: Movie) {
        self.init()
        brand = movie.majorBrand
        quickTimeCompatible = movie.compatibleBrands.contains("qt  ")
        durationSeconds = movie.durationSeconds
        metadataHandler = movie.metadataHandler
        hasContentIdentifierKey = movie.metadata.contains { $0.key == LivePhotoKeys.contentIdentifier }
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

/// An optional value kept behind a reference: a copy of the holder retains one object instead
/// of copying the value. The value is immutable in its box; setting it makes a new box.
@propertyWrapper
public struct Indirect<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box?

    public init(wrappedValue: Value?) { box = wrappedValue.map(Box.init) }

    public var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }
}

extension FileFacts {
    /// Bounds on facts that come from outside the readers (scan records, cache rows): what the
    /// readers themselves can never produce, and what rules and reports would trap on (a negative
    /// frame count, sums that overflow, byte ranges outside the file).
    public static let maxFramesPerMovie = 1_000_000
    public static let maxFileSize: Int64 = 1 << 50

    /// Why these facts cannot have come from lpcheck's readers, or nil when they can.
    public var implausibility: String? {
        guard (0...Self.maxFileSize).contains(size), bytesRead >= 0 else { return "size \(size) or bytes read \(bytesRead) out of range" }
        // Asked of every record and cache row: no temporary arrays of the parts.
        if let motion = motionPhoto {
            for range in [motion.movieRange, motion.mpvd, motion.samsungTrailer].compactMap({ $0 }) where range.lowerBound < 0 || range.upperBound > size {
                return "motion photo range \(range.lowerBound)..<\(range.upperBound) outside the file's \(size) bytes"
            }
            for value in [motion.videoOffset, motion.videoLength].compactMap({ $0 }) where abs(value) > Self.maxFileSize {
                return "motion photo offset or length \(value) out of range"
            }
            if let end = motion.imageEnd, end < 0 || end > size { return "motion photo image end \(end) outside the file's \(size) bytes" }
            for locator in motion.locators ?? [] {
                if let offset = locator.offset, offset < 0 || offset > size { return "motion photo locator offset \(offset) outside the file's \(size) bytes" }
                if let value = locator.value, value < 0 || value > Self.maxFileSize { return "motion photo locator value \(value) out of range" }
            }
        }
        if let problem = storage.movie?.implausibility { return problem }
        return storage.motionMovie?.implausibility
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
