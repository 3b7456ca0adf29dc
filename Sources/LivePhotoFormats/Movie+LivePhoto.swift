/// The Live Photo markers of a movie.
public enum LivePhotoKeys {
    public static let contentIdentifier = "com.apple.quicktime.content.identifier"
    /// The capture date cameras write (ISO 8601 with the zone).
    public static let creationDate = "com.apple.quicktime.creationdate"
    public static let stillImageTime = "com.apple.quicktime.still-image-time"
    /// Keys iOS 17 cameras write in `moov/meta` for the lock screen's Live Photo wallpaper.
    public static let livePhotoAuto = "com.apple.quicktime.live-photo.auto"
    public static let vitalityScore = "com.apple.quicktime.live-photo.vitality-score"
    /// The size of the video the still-image transform was measured on (iOS 17), in the
    /// still-image-time sample.
    public static let referenceDimensions = "com.apple.quicktime.live-photo-still-image-transform-reference-dimensions"
}

/// Where the still image sits in the movie.
public struct StillImageTime: Sendable, Equatable, Codable {
    public var trackID: UInt32
    public var trackPath: String
    /// The decoded value (-1 from cameras, often 0 from software); nil when undecodable.
    public var value: Int64?
    public var dataType: UInt32?
    public var sampleIndex: Int
    /// The sample's decode time and duration in media ticks.
    public var mediaTime: UInt64
    public var duration: UInt32
    public var mediaTimescale: UInt32
    /// The moment in the movie's timeline with the edit list applied; nil when the edit list
    /// never presents the sample.
    public var seconds: Double?
    public var hasEditList: Bool

    public init(trackID: UInt32, trackPath: String, value: Int64?, dataType: UInt32?, sampleIndex: Int, mediaTime: UInt64,
                duration: UInt32, mediaTimescale: UInt32, seconds: Double?, hasEditList: Bool) {
        self.trackID = trackID
        self.trackPath = trackPath
        self.value = value
        self.dataType = dataType
        self.sampleIndex = sampleIndex
        self.mediaTime = mediaTime
        self.duration = duration
        self.mediaTimescale = mediaTimescale
        self.seconds = seconds
        self.hasEditList = hasEditList
    }

    public var mediaSeconds: Double? { mediaTimescale > 0 ? Double(mediaTime) / Double(mediaTimescale) : nil }
    public var durationSeconds: Double? { mediaTimescale > 0 ? Double(duration) / Double(mediaTimescale) : nil }
}

/// Where a movie's QuickTime metadata is; the raw values are those of the reports and records.
public enum MetadataLocation: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// `moov/meta`, where cameras write it and Photos reads it.
    case movieMeta = "moov/meta"
    /// `moov/udta/meta`, where ffmpeg writes it.
    case userData = "moov/udta/meta"

    public var description: String { rawValue }
}

extension Movie {
    /// `com.apple.quicktime.content.identifier` from `moov/meta`, else from `moov/udta/meta`.
    public var contentIdentifier: String? {
        (metadata.first { $0.key == LivePhotoKeys.contentIdentifier } ?? userDataMetadata.first { $0.key == LivePhotoKeys.contentIdentifier })?.value.stringValue
    }

    /// Where the identifier was found, or nil.
    public var contentIdentifierLocation: MetadataLocation? {
        if metadata.contains(where: { $0.key == LivePhotoKeys.contentIdentifier }) { return .movieMeta }
        if userDataMetadata.contains(where: { $0.key == LivePhotoKeys.contentIdentifier }) { return .userData }
        return nil
    }

    public func metadataValue(_ key: String) -> MetadataValue? { metadata.first { $0.key == key }?.value }

    /// Timed-metadata tracks that declare the still-image-time key (found by key, not position).
    public var stillImageTimeTracks: [Track] { tracks.filter(\.declaresStillImageTime) }

    /// The IDs of the video tracks, in order. Asked here, where a track's fields are read in
    /// place: asked from another module, each question copied the whole track.
    public var videoTrackIDs: [UInt32] {
        var ids: [UInt32] = []
        for index in tracks.indices where tracks[index].isVideo { ids.append(tracks[index].id) }
        return ids
    }

    /// How many tracks hold timed metadata (`mebx`).
    public var timedMetadataTrackCount: Int {
        var count = 0
        for index in tracks.indices where tracks[index].isTimedMetadata { count += 1 }
        return count
    }

    /// The first enabled video track, else the first video track.
    public var primaryVideoTrack: Track? { primaryVideoTrackIndex.map { tracks[$0] } }

    /// Where `primaryVideoTrack` is in `tracks` (its parts are read in place, without a copy of
    /// the whole track and its tables).
    public var primaryVideoTrackIndex: Int? {
        tracks.firstIndex { $0.isVideo && $0.flags & 1 != 0 } ?? tracks.firstIndex(where: \.isVideo)
    }

    /// The still-image-time sample and its moment, from the first track declaring the key whose
    /// samples hold it.
    public var stillImageTime: StillImageTime? {
        for track in tracks where track.declaresStillImageTime {
            for timed in track.timedMetadata {
                guard let item = timed.items.first(where: { $0.key == LivePhotoKeys.stillImageTime }) else { continue }
                return StillImageTime(
                    trackID: track.id, trackPath: track.path, value: item.value.integerValue, dataType: item.dataType,
                    sampleIndex: timed.sample.index, mediaTime: timed.sample.decodeTime, duration: timed.sample.duration,
                    mediaTimescale: track.mediaTimescale,
                    seconds: movieSeconds(forMediaTime: Int64(clamping: timed.sample.decodeTime), in: track),
                    hasEditList: track.editList != nil)
            }
        }
        return nil
    }

    /// Maps a media time to the movie timeline through the track's edit list (QuickTime File
    /// Format, "Edit list atom"): empty edits shift the track, each edit presents
    /// [mediaTime, mediaTime + duration) of the media. Without an edit list media time is movie time.
    public func movieSeconds(forMediaTime time: Int64, in track: Track) -> Double? {
        movieSeconds(forMediaTime: time, mediaTimescale: track.mediaTimescale, editList: track.editList)
    }

    /// `movieSeconds(forMediaTime:in:)` from the two parts of the track it reads.
    func movieSeconds(forMediaTime time: Int64, mediaTimescale: UInt32, editList: [Edit]?) -> Double? {
        guard mediaTimescale > 0 else { return nil }
        let mediaScale = Double(mediaTimescale)
        guard let edits = editList, !edits.isEmpty else { return Double(time) / mediaScale }
        guard timescale > 0 else { return nil }
        let movieScale = Double(timescale)
        var start = 0.0
        for edit in edits {
            let length = Double(edit.segmentDuration) / movieScale
            if !edit.isEmpty {
                let rate = edit.rate == 0 ? 1 : edit.rate
                let mediaStart = Double(edit.mediaTime) / mediaScale
                let offset = (Double(time) / mediaScale - mediaStart) / rate
                if offset >= 0, offset < length || (length == 0 && offset == 0) {
                    return start + offset
                }
            }
            start += length
        }
        return nil
    }

    public var frameDurations: FrameDurations? {
        guard let video = primaryVideoTrackIndex else { return nil }
        return FrameDurations(tracks[video].sampleTable, timescale: tracks[video].mediaTimescale)
    }
}
