/// What declares a motion photo. The raw values are those of the reports and records.
public enum MotionPhotoSource: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// `GCamera:MicroVideo` (the XMP before Motion Photo 1.0).
    case microVideo = "MicroVideo"
    /// `GCamera:MotionPhoto` (with the `Container:Directory` of Motion Photo 1.0).
    case container = "Container"
    /// A Samsung HEIF `mpvd` box, the XMP saying nothing that finds the movie.
    case mpvd
    /// A JPEG's Samsung SEF `MotionPhoto_Data` record, with no motion-photo XMP.
    case samsungTrailer = "Samsung trailer"
    /// Nothing declares it: a JPEG not ending with its image, whose tail is a whole movie found
    /// by its `ftyp` (Samsung files whose XMP and SEF trailer were stripped).
    case trailingMovie = "trailing movie"

    public var description: String { rawValue }
}

/// How the movie of a motion photo was found. The raw values are those of the reports and records.
public enum MovieFoundBy: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Where the XMP says.
    case described
    /// In the top-level `mpvd` box.
    case mpvd
    /// In the Samsung trailer's `MotionPhoto_Data` record.
    case samsungTrailer = "Samsung trailer"
    /// By searching for an `ftyp` box after the image: where the XMP says holds none.
    case ftypSearch = "ftyp search"

    public var description: String { rawValue }
}

/// An Android-style motion photo: a still with a movie inside the same file.
public struct MotionPhoto: Sendable, Equatable, Codable {
    public var source: MotionPhotoSource
    public var version: String?
    /// Where the embedded movie is said to be (absolute offset) and how long it is.
    public var videoOffset: Int64?
    public var videoLength: Int64?
    /// Whether a movie box (`ftyp`) really starts at that offset inside the file.
    public var videoFound: Bool
    public var presentationTimestampUs: Int64?
    /// Where a movie really is (its top-level boxes walked from its `ftyp`), however it was found.
    public var movieRange: Range<Int64>? = nil
    /// How `movieRange` was found.
    public var foundBy: MovieFoundBy? = nil
    /// The XMP `Container:Directory` items, in order.
    public var directory: [XMPPacket.DirectoryItem] = []
    /// The top-level `mpvd` box of a HEIC motion photo, header included.
    public var mpvd: Range<Int64>? = nil
    /// A Samsung SEF trailer: its records up to the end of the file.
    public var samsungTrailer: Range<Int64>? = nil
    /// The movie's last box runs past the end of the file (or its mpvd): what it claims.
    public var movieCutShort: String? = nil
    /// A HEIF file's XMP items, in item order, with what each describes and whether it declares
    /// the motion photo (nil for JPEG and for HEIF files with no XMP item; optional so that
    /// facts records written before it read).
    public var xmpItems: [XMPItemRole]? = nil
    /// A HEIF file's primary item (`pitm`).
    public var primaryItem: UInt32? = nil
    /// Every way the file says where its movie is, each judged on its own (nil in facts
    /// records written before it).
    public var locators: [MotionPhotoLocator]? = nil
    /// JPEG: where the image data ends before the movie: after an EOI marker (FF D9) where the
    /// directory puts the image's end, else after the last one in the 64 KiB before the movie;
    /// nil when none is there or for other formats. Google's checker sums
    /// it with the primary's Padding and the movie's Length.
    public var imageEnd: Int64? = nil
    /// `GCamera:MotionPhoto` and `Container:Version` as written (nil when absent).
    public var cameraMotionPhoto: String? = nil
    public var containerVersion: String? = nil

    public init(source: MotionPhotoSource, version: String?, videoOffset: Int64?, videoLength: Int64?, videoFound: Bool, presentationTimestampUs: Int64?) {
        self.source = source
        self.version = version
        self.videoOffset = videoOffset
        self.videoLength = videoLength
        self.videoFound = videoFound
        self.presentationTimestampUs = presentationTimestampUs
    }
}

/// One way a motion photo says where its movie is, and whether a movie starts there.
public struct MotionPhotoLocator: Sendable, Equatable, Codable {
    /// The kinds of locator; the raw values are those of the reports and records.
    public enum Name: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// The lengths of the `Container:Directory` items after the primary, counted from the end.
        case directory = "Container:Directory"
        /// `GCamera:MotionPhotoOffset`: a distance from the end.
        case motionPhotoOffset = "GCamera:MotionPhotoOffset"
        /// `GCamera:MicroVideoOffset`: a distance from the end.
        case microVideoOffset = "GCamera:MicroVideoOffset"
        /// The top-level `mpvd` box's payload.
        case mpvd
        /// A JPEG's Samsung SEF trailer `MotionPhoto_Data` record.
        case samsungTrailer = "Samsung trailer"

        public var description: String { rawValue }
    }

    public var name: Name
    /// The byte where it places the movie; nil when its numbers give no offset in the file.
    public var offset: Int64?
    /// The number it was read from: the directory's lengths summed, the offset from the end,
    /// the box or record length.
    public var value: Int64?
    /// Whether a movie (an `ftyp` box) starts at `offset`.
    public var found: Bool

    public init(name: Name, offset: Int64?, value: Int64?, found: Bool) {
        (self.name, self.offset, self.value, self.found) = (name, offset, value, found)
    }
}

/// One XMP item of a HEIF file: the items its `cdsc` reference describes, and whether its
/// packet declares a motion photo (`XMPPacket.declaresMotionPhoto`).
public struct XMPItemRole: Sendable, Equatable, Codable {
    public var item: UInt32
    public var describes: [UInt32]
    public var declaresMotionPhoto: Bool

    public init(item: UInt32, describes: [UInt32], declaresMotionPhoto: Bool) {
        (self.item, self.describes, self.declaresMotionPhoto) = (item, describes, declaresMotionPhoto)
    }

    /// The packet Google's motion-photo reader reads (libmotionphoto, `ChooseXmpItemId`): the
    /// first XMP item that describes the primary, else the first XMP item.
    public static func googleChoice(_ roles: [XMPItemRole], primary: UInt32?) -> XMPItemRole? {
        primaryChoice(roles, primary: primary) ?? roles.first
    }

    /// The packet libheif gives as the primary image's XMP: the first XMP item that describes it.
    public static func primaryChoice(_ roles: [XMPItemRole], primary: UInt32?) -> XMPItemRole? {
        guard let primary else { return nil }
        return roles.first { $0.describes.contains(primary) }
    }
}

/// A still image as lpcheck reads it.
public struct Still: Sendable {
    public var format: FileFormat
    public var jpeg: JPEGStructure?
    public var heif: HEIFStructure?
    public var png: PNGStructure? = nil
    /// HEIF/AVIF top-level boxes (`meta` with its children).
    public var boxes: [Box]
    public var tiff: TIFFLayout?
    public var exif: [ExifTag]
    public var makerNote: AppleMakerNote?
    public var xmp: XMPPacket?
    public var motionPhoto: MotionPhoto?
    /// The movie inside a motion photo, read from its own bytes (`MotionPhoto.movieRange`).
    public var embeddedMovie: Movie? = nil
    public var warnings: [ParseError]
    /// The EXIF IFD1 JPEG thumbnail, when asked for (`InspectOptions.thumbnail`).
    public var thumbnail: [UInt8]? = nil

    /// MakerApple tag 0x0011.
    public var contentIdentifier: String? { makerNote?.contentIdentifier }
}

/// How much of a file to decode. `dump` decodes everything; `check` skips what no rule reads.
public struct InspectOptions: Sendable {
    /// Decode every standard EXIF tag through libexif.
    public var standardExif: Bool
    /// Read the samples of every timed-metadata track; otherwise only still-image-time tracks.
    public var allTimedSamples: Bool
    /// Keep the EXIF thumbnail (IFD1 JPEG) of stills.
    public var thumbnail: Bool
    /// Build the tree of every box (movies, HEIF `meta`) for `dump`.
    public var boxTree: Bool
    /// Decode the binary plists held in MakerNote tags.
    public var decodePlists: Bool
    /// Keep the chunk tables (`stsc`, `stsz` sizes, `stco`/`co64`, `stss`) of every track. When
    /// false, tracks whose samples are not read (video, sound) keep only their sample count: the
    /// tables are still checked as when they are kept (same errors and warnings), their entries
    /// are skipped. Timing tables (`stts`, `ctts`) are always kept.
    public var chunkTables: Bool
    /// Keep every HEIF item. When false, only the metadata items (`Exif`, `mime`) are kept: the
    /// item tables are still read and checked whole (same errors and warnings), coded images
    /// (tiles, grids, thumbnails) are left out of `HEIFStructure.items`.
    ///
    /// The writers shift every item's and every chunk's offsets, so whatever feeds them keeps
    /// both this and `chunkTables` on (`.full` and `.check` do; only `Checker.inspectOptions`,
    /// whose files become facts, turns them off).
    public var allItems: Bool
    /// Parse every XMP packet for all its properties. When false, a packet that cannot hold a
    /// Google motion-photo property (`XMPPacket.mayHoldMotionPhoto`) is not parsed: the still
    /// then has no `xmp`, and a malformed packet of that kind gives no warning.
    public var xmpProperties: Bool

    public init(standardExif: Bool = true, allTimedSamples: Bool = true, thumbnail: Bool = false, boxTree: Bool = true, decodePlists: Bool = true,
                chunkTables: Bool = true, allItems: Bool = true, xmpProperties: Bool = true, credentials: Bool = false) {
        self.standardExif = standardExif
        self.allTimedSamples = allTimedSamples
        self.thumbnail = thumbnail
        self.boxTree = boxTree
        self.decodePlists = decodePlists
        self.chunkTables = chunkTables
        self.allItems = allItems
        self.xmpProperties = xmpProperties
        self.credentials = credentials
    }

    /// Read a C2PA manifest store where the file has one, and recompute its hard binding (the
    /// whole file is read for that): `dump`.
    public var credentials: Bool

    public static let full = InspectOptions(credentials: true)
    public static let check = InspectOptions(standardExif: false, allTimedSamples: false, boxTree: false, decodePlists: false)
}

/// One inspected file: the dump's unit.
public struct MediaFile: Sendable {
    public enum Kind: String, Sendable, Codable {
        case still, movie
        case motionPhoto = "motion-photo"
        case unknown
    }

    public var path: String
    public var size: Int64
    public var format: FileFormat
    public var still: Still?
    public var movie: Movie?
    /// Set when the file could not be read at all.
    public var error: ParseError?
    public var stats: ReadStats
    /// Device and inode, when the file was opened.
    public var identity: FileIdentity?
    /// What a `.json` or `.xmp` sidecar states of its media file's capture time.
    public var sidecarDate: SidecarDate? = nil
    /// A zip's members (a `.livp`): what is in it and where, none read here.
    public var archive: ZipArchive? = nil
    /// Content Credentials (C2PA), read with `InspectOptions.credentials`; the binding of the
    /// active manifest, and what could not be read of them.
    public var credentials: ContentCredentials? = nil
    public var credentialsBinding: ContentCredentials.Binding? = nil
    public var credentialsProblem: String? = nil

    public var kind: Kind {
        if error != nil && still == nil && movie == nil { return format.isMovie ? .movie : format.isStill ? .still : .unknown }
        if movie != nil { return .movie }
        if let still { return still.motionPhoto != nil ? .motionPhoto : .still }
        return .unknown
    }

    public var contentIdentifier: String? { still?.contentIdentifier ?? movie?.contentIdentifier }

    public var warnings: [ParseError] { still?.warnings ?? movie?.warnings ?? [] }

    /// Inspects the file at `path` (read-only).
    public static func inspect(path: String, options: InspectOptions = .full) -> MediaFile {
        do {
            let source = try FileSource(path: path)
            var file = inspect(source: source, path: path, options: options)
            file.identity = source.identity
            return file
        } catch let error as ParseError {
            return unopened(path, error)
        } catch {
            return unopened(path, ParseError(.io, "\(error)", offset: 0))
        }
    }

    /// A file that could not be opened: its path and why, nothing read.
    public static func unopened(_ path: String, _ error: ParseError) -> MediaFile {
        MediaFile(path: path, size: 0, format: .unknown, still: nil, movie: nil, error: error, stats: ReadStats())
    }

    /// Inspects any source. Never throws: a file that cannot be read carries `error`.
    public static func inspect(source: ByteSource, path: String, options: InspectOptions = .full) -> MediaFile {
        var file = MediaFile(path: path, size: source.size, format: .unknown, still: nil, movie: nil, error: nil, stats: ReadStats())
        do {
            var head = try source.read(at: 0, count: Int(min(source.size, 32)))
            // A long brand list: read the whole ftyp (a compatible brand such as 'avif' may come late).
            if head.count == 32, head[4..<8].elementsEqual(Array("ftyp".utf8)) {
                let size = Int64(head[0]) << 24 | Int64(head[1]) << 16 | Int64(head[2]) << 8 | Int64(head[3])
                if size > 32, size <= 512, size <= source.size { head += try source.read(at: 32, count: Int(size - 32)) }
            }
            file.format = FileFormat.detect(head)
            switch file.format {
            case .quickTime, .mp4:
                file.movie = try Movie.read(from: source, options: options)
            case .jpeg, .heic, .heif, .avif, .png:
                file.still = try Still.read(from: source, format: file.format, options: options)
            case .zip:
                file.archive = try ZipArchive(source: source, path: path)
            case .gif, .tiff, .webp:
                file.still = Still(format: file.format, jpeg: nil, heif: nil, boxes: [], tiff: nil, exif: [], makerNote: nil, xmp: nil, motionPhoto: nil, warnings: [])
            case .unknown:
                if source.size == 0 {
                    file.error = ParseError(.truncated, "empty file", offset: 0)
                }
                file.sidecarDate = SidecarDate.read(source: source, path: path)
            }
        } catch let error as ParseError {
            file.error = error
        } catch {
            file.error = ParseError(.io, "\(error)", offset: 0)
        }
        if options.credentials, file.error == nil { file.readCredentials(source) }
        if let failure = source.readFailure {
            // A read failed (I/O, the network, a server's refusal) and a reader may have taken
            // that for damaged bytes: nothing read around it is the file's.
            (file.format, file.still, file.movie, file.sidecarDate, file.archive, file.error) = (.unknown, nil, nil, nil, nil, failure)
        }
        file.stats = source.stats
        return file
    }
}

extension MediaFile {
    /// The file's manifest store (a JPEG's APP11 segments, a BMFF file's top-level boxes) and its
    /// binding; a store that cannot be read is said, and the file stays read.
    mutating func readCredentials(_ source: ByteSource) {
        do {
            credentials = try credentialsStore(source)
            credentialsBinding = try credentials?.binding(source: source)
            if credentials == nil, let container = credentialsContainer {
                credentialsProblem = "a C2PA \(container == "bmff-uuid" ? "uuid box" : "APP11 packet") is there, but no manifest store was read from it"
            }
        } catch {
            credentialsProblem = "\(error)"
        }
    }
}

extension MediaFile {
    /// The manifest store of this file as read (its JPEG segments or top-level boxes) from
    /// `source`; nil when it has none. The binding is not computed.
    public func credentialsStore(_ source: ByteSource) throws -> ContentCredentials? {
        if let jpeg = still?.jpeg { return try ContentCredentials.read(jpeg: jpeg.segments, source: source) }
        if let boxes = movie?.boxes ?? still?.boxes, !boxes.isEmpty { return try ContentCredentials.read(bmff: boxes, source: source) }
        return nil
    }
}
