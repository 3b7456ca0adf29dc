/// A QuickTime / ISO base media movie as lpcheck reads it: the box layout, the movie header,
/// `moov/meta` and `udta` metadata, and every track with its sample tables. Media data stays
/// byte ranges; only timed-metadata samples are read.
public struct Movie: Sendable {
    /// Top-level boxes; `moov` carries its subtree.
    public var boxes: [Box]
    public var majorBrand: FourCC?
    public var compatibleBrands: [FourCC]
    public var timescale: UInt32
    public var duration: UInt64
    public var metadataHandler: FourCC?
    /// `moov/meta` items (`keys` + `ilst`).
    public var metadata: [MetadataItem]
    /// `moov/udta/meta` items with an `mdta` handler (where ffmpeg writes them).
    public var userDataMetadata: [MetadataItem]
    /// `moov/udta` items.
    public var userData: [UserDataItem]
    public var tracks: [Track]
    /// Non-fatal problems noticed while reading.
    public var warnings: [ParseError]
    /// `mvhd`'s creation time: seconds since 1904-01-01 00:00 UTC (0: unset).
    public var creationTime: UInt64 = 0
    /// For a fragmented movie (`moov/mvex`), what its fragments held; their samples are in the
    /// tracks' sample tables, and durations the headers left 0 are the samples' sums.
    public var fragments: MovieFragments? = nil

    public var durationSeconds: Double? { timescale > 0 ? Double(duration) / Double(timescale) : nil }
}

public struct MetadataItem: Sendable, Equatable {
    /// 1-based index into `keys`.
    public var keyIndex: UInt32
    public var namespace: FourCC
    public var key: String
    public var dataType: UInt32
    public var locale: UInt32
    public var value: MetadataValue
}

public struct UserDataItem: Sendable, Equatable {
    public var type: FourCC
    public var value: MetadataValue
}

public struct Track: Sendable {
    /// Box path, such as `moov/trak[3]`.
    public var path: String
    public var id: UInt32
    public var flags: UInt32
    /// In movie timescale units.
    public var duration: UInt64
    /// `tkhd`'s matrix: how the picture is turned when shown.
    public var matrix = TrackMatrix.identity
    public var width: Double
    public var height: Double
    public var handler: FourCC
    public var handlerName: String
    public var mediaTimescale: UInt32
    public var mediaDuration: UInt64
    public var language: String
    /// nil when the track has no `edts/elst`.
    public var editList: [Edit]?
    public var references: [TrackReference]
    public var sampleDescriptions: [SampleDescription]
    public var sampleTable: SampleTable
    /// Decoded samples of a timed-metadata (`mebx`) track.
    public var timedMetadata: [TimedMetadataSample]
    /// Why timed metadata could not be read, if it could not.
    public var timedMetadataError: ParseError?
    /// The first sample of a Google motion photo's metadata track, decoded (the first such track only).
    public var motionPhotoMetadata: MotionPhotoMetadata? = nil

    /// A `meta` track whose `mett` entry says `application/motionphoto-image-meta`.
    public var isMotionPhotoMetadata: Bool { handler == "meta" && sampleDescriptions.contains { $0.mimeFormat == MotionPhotoMetadata.mime } }

    public var isVideo: Bool { handler == "vide" }
    public var isTimedMetadata: Bool { sampleDescriptions.contains { $0.format == "mebx" } }

    /// Every key the track's sample descriptions declare.
    public var declaredKeys: [MetadataKeyDeclaration] { sampleDescriptions.flatMap(\.metadataKeys) }
    /// Whether a sample description declares `com.apple.quicktime.still-image-time` (asked
    /// without building `declaredKeys`).
    public var declaresStillImageTime: Bool {
        sampleDescriptions.contains { $0.metadataKeys.contains { $0.key == LivePhotoKeys.stillImageTime } }
    }
}

public struct Edit: Sendable, Equatable {
    /// In movie timescale units.
    public var segmentDuration: UInt64
    /// In media timescale units; -1 marks an empty edit.
    public var mediaTime: Int64
    public var rate: Double

    public init(segmentDuration: UInt64, mediaTime: Int64, rate: Double = 1) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.rate = rate
    }

    public var isEmpty: Bool { mediaTime == -1 }
}

public struct TrackReference: Sendable, Equatable {
    public var type: FourCC
    public var trackIDs: [UInt32]
}

public struct SampleDescription: Sendable, Equatable {
    public var format: FourCC
    public var dataReferenceIndex: UInt16
    /// Video sample entries.
    public var width: UInt16?
    public var height: UInt16?
    public var compressorName: String?
    /// Boxes inside the sample entry (`avcC`, `hvcC`, `keys`, ...).
    public var childTypes: [FourCC]
    /// `mebx` entries: the keys this track's samples may hold.
    public var metadataKeys: [MetadataKeyDeclaration]
    /// `mett` (text metadata) entries: the MIME type of the samples (`mime_format`); a Google
    /// motion photo's metadata track says `application/motionphoto-image-meta`.
    public var mimeFormat: String? = nil
    /// A video entry's decoder configuration, colour and related children, payloads whole
    /// (`SampleDescriptionBox.keptConfiguration`): the first of each type, in file order.
    public var configuration: [SampleEntryChild] = []
    /// A PCM sound entry's fields (`SoundFields.formats`).
    public var sound: SoundFields? = nil

    /// The payload of the first kept child of `type`.
    public func configuration(_ type: FourCC) -> [UInt8]? { configuration.first { $0.type == type }?.payload }
}

/// One child box of a sample entry, its payload whole.
public struct SampleEntryChild: Sendable, Equatable {
    public var type: FourCC
    public var payload: [UInt8]
    public init(type: FourCC, payload: [UInt8]) { (self.type, self.payload) = (type, payload) }
}

public struct MetadataKeyDeclaration: Sendable, Equatable {
    /// The local key id: the box type that samples use for this key.
    public var localID: UInt32
    public var namespace: FourCC
    public var key: String
    /// `dtyp` namespace (0 = well-known types) and type.
    public var dataTypeNamespace: UInt32?
    public var dataType: UInt32?
}

public struct TimeToSampleEntry: Sendable, Equatable {
    public var count: UInt32
    public var delta: UInt32
    public init(count: UInt32, delta: UInt32) {
        self.count = count
        self.delta = delta
    }
}

public struct CompositionOffsetEntry: Sendable, Equatable {
    public var count: UInt32
    public var offset: Int32
    public init(count: UInt32, offset: Int32) {
        self.count = count
        self.offset = offset
    }
}

public struct SampleToChunkEntry: Sendable, Equatable {
    public var firstChunk: UInt32
    public var samplesPerChunk: UInt32
    public var descriptionIndex: UInt32
    public init(firstChunk: UInt32, samplesPerChunk: UInt32, descriptionIndex: UInt32) {
        self.firstChunk = firstChunk
        self.samplesPerChunk = samplesPerChunk
        self.descriptionIndex = descriptionIndex
    }
}

public struct SampleTable: Sendable, Equatable {
    public var timeToSample: [TimeToSampleEntry] = []
    public var compositionOffsets: [CompositionOffsetEntry] = []
    /// nil when there is no `stss` (every sample is a sync sample).
    public var syncSamples: [UInt32]?
    public var sampleToChunk: [SampleToChunkEntry] = []
    /// Non-zero when every sample has this size (`stsz` sample_size).
    public var constantSampleSize: UInt32 = 0
    public var sampleCount: UInt32 = 0
    /// Per-sample sizes when `constantSampleSize` is 0.
    public var sampleSizes: [UInt32] = []
    public var chunkOffsets: [UInt64] = []
    /// Which boxes held the tables (`stsz` or `stz2`, `stco` or `co64`).
    public var sizeBox: FourCC?
    public var chunkOffsetBox: FourCC?

    public init() {}
}

/// One sample resolved through the sample tables.
public struct Sample: Sendable, Equatable {
    public var index: Int
    public var offset: UInt64
    public var size: UInt32
    public var decodeTime: UInt64
    public var duration: UInt32
    public var presentationTime: Int64
    public var descriptionIndex: UInt32
}

public struct TimedMetadataSample: Sendable, Equatable {
    public var sample: Sample
    public var items: [TimedMetadataItem]
}

public struct TimedMetadataItem: Sendable, Equatable {
    public var localID: UInt32
    /// The declared key, nil when the sample uses an undeclared local id.
    public var namespace: FourCC?
    public var key: String?
    public var dataType: UInt32?
    public var value: MetadataValue
    public var byteCount: Int
}
