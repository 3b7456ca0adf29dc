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
