import LivePhotoFormats

/// What the rules know of one file: a compact summary of what the readers found. Rules read
/// these models only, never bytes; keeping them small keeps memory bounded on large libraries.
///
/// The fields live in one object that copies share until one of them is changed (copy on
/// write): a library's facts are made once, and the scan's list, pairing and the report items
/// then hold references to them instead of copies of 200 bytes each (at a million files, the
/// difference between one set of facts and two).
@dynamicMemberLookup
public struct FileFacts: Sendable, Codable {
    /// Every fact of a file, declared once: `facts.path` and the others are its fields (read and
    /// set through `subscript(dynamicMember:)`), the scan records are its Codable form (the
    /// thumbnail left out), copies follow from it being a value. A new fact is a field here and
    /// its line in `init(_ file:)`; the cache's `CompactCoder`, `Reports/facts.schema.json` and
    /// `Example.everyField` list it too, and their tests fail until they do.
    public struct Fields: Sendable, Codable {
        public var path: String
        public var format: FileFormat
        public var kind: MediaFile.Kind
        public var size: Int64
        /// The file could not be read at all.
        public var error: ParseError?
        /// Damage the reader worked around.
        public var warnings: [ParseError]
        public var contentIdentifier: String?
        /// Bytes the readers fetched from the file.
        public var bytesRead: Int64 = 0
        /// Device and inode: equal for hard links of one file.
        public var identity: FileIdentity?

        // Stills
        public var hasAppleMakerNote = false
        public var make: String?
        public var model: String?
        // The large optional parts live behind references of their own: a still's facts stay
        // small, and a copy retains them instead of copying them.
        @Indirect public var motionPhoto: MotionPhoto? = nil
        /// The movie inside a motion photo.
        @Indirect public var motionMovie: MovieFacts? = nil
        /// The EXIF thumbnail, for HTML reports only: not in the records, which it would make large.
        @NotRecorded public var thumbnail: [UInt8]? = nil
        /// Why a picture asked for (`--thumbnails`) could not be made, for the card; HTML only.
        @NotRecorded public var thumbnailProblem: String? = nil
        /// Whether `thumbnail` is already turned as the still is shown (true: a picture the codec
        /// helper made); an Exif thumbnail (nil) is stored as the still's pixels are, and a page
        /// turns it as the still is shown. HTML only.
        @NotRecorded public var thumbnailTurned: Bool? = nil
        /// The address, relative to the page, of a preview of the movie this file holds or is
        /// (`check --previews`); HTML only.
        @NotRecorded public var preview: String? = nil

        // Movies
        @Indirect public var movie: MovieFacts? = nil

        /// When, where, on which device and how shown, as the file says (stills and movies);
        /// an object of its own already, so held as it is.
        public var capture: CaptureFacts? = nil

        /// The `.livp` (zip) archive the file is a member of, read in place: its path is then
        /// `ARCHIVE:MEMBER`.
        public var archive: String? = nil

        /// Content Credentials (C2PA): where the store is, and when they were read
        /// (`check --verify-credentials`) the active manifest, its signer and its binding.
        public var credentials: CredentialsFacts? = nil
    }

    /// The fields, in one object that copies share until one of them changes (copy on write):
    /// a library's facts are made once, and the scan's list, pairing and the report items then
    /// hold references to them instead of copies of 200 bytes each (at a million files, the
    /// difference between one set of facts and two). Only ever changed through `unique()`, so a
    /// shared object is never written.
    @usableFromInline final class Storage: @unchecked Sendable {
        // Every write goes through `unique()`, so no two accesses overlap: the runtime's
        // exclusivity check (a thread-local access set at every write) is left out.
        @exclusivity(unchecked) @usableFromInline var fields: Fields
        @usableFromInline init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline var storage: Storage

    /// Whether the two hold one object (tests: pairing and the items hold the scan's facts).
    func sharesStorage(with other: FileFacts) -> Bool { storage === other.storage }

    /// The object, made this value's own first when another value shares it.
    @inlinable mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    @inlinable public subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { storage.fields[keyPath: field] }
        set { unique().fields[keyPath: field] = newValue }
    }

    /// All the fields at once.
    public var fields: Fields { storage.fields }

    /// What `lpcheck scan` records (Reports/facts.schema.json): everything pairing and the rules read.
    public init(from decoder: Decoder) throws { storage = Storage(try Fields(from: decoder)) }

    public func encode(to encoder: Encoder) throws { try storage.fields.encode(to: encoder) }

    public init(path: String, format: FileFormat, kind: MediaFile.Kind, size: Int64 = 0, error: ParseError? = nil,
                warnings: [ParseError] = [], contentIdentifier: String? = nil) {
        storage = Storage(Fields(path: path, format: format, kind: kind, size: size, error: error, warnings: warnings, contentIdentifier: contentIdentifier))
    }

    // Names are taken apart on the path's bytes in one backward pass (rules and pairing ask
    // for them several times per file, and String indices are slow for it).

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
    public var hasCameraMetadata: Bool { self.make != nil || self.model != nil }

    /// Any Live Photo marker: an identifier, or a still-image-time track.
    public var hasLivePhotoMarker: Bool {
        self.contentIdentifier != nil || (self.movie?.stillImageTimeTracks.isEmpty == false)
    }

    public var isStill: Bool { self.format.isStill }
    public var isMovie: Bool { self.format.isMovie }
}

extension FileFacts {
    /// Summarises an inspected file.
    public init(_ file: MediaFile) {
        // The fields are filled first and the object made once: no copy-on-write check a field.
        var fields = Fields(path: file.path, format: file.format, kind: file.kind, size: file.size, error: file.error,
                            warnings: file.warnings, contentIdentifier: file.contentIdentifier)
        fields.bytesRead = file.stats.bytesRead
        fields.identity = file.identity
        if let still = file.still {
            fields.hasAppleMakerNote = still.makerNote != nil
            fields.make = still.tiff?.make
            fields.model = still.tiff?.model
            fields.motionPhoto = still.motionPhoto
            fields.thumbnail = still.thumbnail
        }
        if let movie = file.movie { fields.movie = MovieFacts(movie) }
        let capture = file.still.map(CaptureFacts.init(still:)) ?? file.movie.map(CaptureFacts.init(movie:)) ?? file.sidecarDate.map(CaptureFacts.init(sidecar:))
        if let capture, !capture.isEmpty { fields.capture = capture }
        if let embedded = file.still?.embeddedMovie { fields.motionMovie = MovieFacts(embedded) }
        fields.credentials = CredentialsFacts(file)
        storage = Storage(fields)
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

/// A field kept in memory and left out of the records (`FileFacts.Fields.thumbnail`).
@propertyWrapper
public struct NotRecorded<Value: Sendable>: Sendable {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

// Coding of the two wrappers inside a synthesized Codable type: an `Indirect` field is its
// value, absent when nil (as an optional field is); a `NotRecorded` field is never written and
// read as nil. The containers' overloads below are what the synthesized code calls.
extension Indirect: Codable where Value: Codable {
    public init(from decoder: Decoder) throws { self.init(wrappedValue: try Value?(from: decoder)) }
    public func encode(to encoder: Encoder) throws { try wrappedValue.encode(to: encoder) }
}

extension NotRecorded: Codable {
    public init(from decoder: Decoder) throws { self.init(wrappedValue: nil) }
    public func encode(to encoder: Encoder) throws {}
}

extension KeyedEncodingContainer {
    public mutating func encode<V: Codable>(_ value: Indirect<V>, forKey key: Key) throws { try encodeIfPresent(value.wrappedValue, forKey: key) }
    public mutating func encode<V>(_ value: NotRecorded<V>, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
    public func decode<V: Codable>(_ type: Indirect<V>.Type, forKey key: Key) throws -> Indirect<V> {
        Indirect(wrappedValue: try decodeIfPresent(V.self, forKey: key))
    }
    public func decode<V>(_ type: NotRecorded<V>.Type, forKey key: Key) throws -> NotRecorded<V> { NotRecorded(wrappedValue: nil) }
}

extension FileFacts {
    /// Bounds on facts that come from outside the readers (scan records, cache rows): what the
    /// readers themselves can never produce, and what rules and reports would trap on (a negative
    /// frame count, sums that overflow, byte ranges outside the file).
    public static let maxFramesPerMovie = 1_000_000
    public static let maxFileSize: Int64 = 1 << 50

    /// Why these facts cannot have come from lpcheck's readers, or nil when they can.
    public var implausibility: String? {
        guard (0...Self.maxFileSize).contains(self.size), self.bytesRead >= 0 else { return "size \(self.size) or bytes read \(self.bytesRead) out of range" }
        // Asked of every record and cache row: no temporary arrays of the parts.
        if let motion = self.motionPhoto {
            for range in [motion.movieRange, motion.mpvd, motion.samsungTrailer].compactMap({ $0 }) where range.lowerBound < 0 || range.upperBound > self.size {
                return "motion photo range \(range.lowerBound)..<\(range.upperBound) outside the file's \(self.size) bytes"
            }
            // The XMP's offset and length (and a locator's number) are any 64-bit value a file
            // writes; rules only print them, so they are not bounded here.
            if let end = motion.imageEnd, end < 0 || end > self.size { return "motion photo image end \(end) outside the file's \(self.size) bytes" }
            for locator in motion.locators ?? [] {
                if let offset = locator.offset, offset < 0 || offset > self.size { return "motion photo locator offset \(offset) outside the file's \(self.size) bytes" }
            }
        }
        if let problem = self.movie?.implausibility { return problem }
        if let problem = self.capture?.implausibility { return problem }
        return self.motionMovie?.implausibility
    }
}
