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
        movie.contentIdentifierLocation = identifier != nil ? .movieMeta : nil
        movie.videoTrackCount = 1
        var table = SampleTable()
        table.timeToSample = [TimeToSampleEntry(count: 60, delta: 20)]
        table.sampleCount = 60
        movie.frameDurations = FrameDurations(table, timescale: 600)
        movie.frames = [MovieFacts.FrameRun(start: 0, duration: 1.0 / 30, count: 60)]
        movie.timedMetadataTrackCount = 1
        movie.wallpaperKeys = [.auto, .vitalityScore]
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

    /// A camera pair whose still and movie agree on their capture as apple.HEIC and apple.MOV
    /// of `../shared/samples` do (read by lpcheck): the movie's Keys date 0.753 s before the
    /// still, both in +13:00, one device, GPS 3 m apart, both shown portrait at 4:3. `still` and
    /// `movie` change either side's capture.
    static func capturePair(still changeStill: (CaptureFacts) -> Void = { _ in }, movie changeMovie: (CaptureFacts) -> Void = { _ in }) -> CheckItem {
        let still = CaptureFacts()
        still.time = CaptureTime(source: CaptureTime.exifSource(subSeconds: true, zone: true),
                                 clock: 1_760_312_174.753, offset: 46_800)
        (still.make, still.model, still.software) = ("Apple", "iPhone 15 Pro Max", "26.1")
        (still.latitude, still.longitude) = (-37.788975, 175.299483)
        (still.size, still.quarterTurns) = (PixelSize(width: 5712, height: 4284), 1)
        let movie = CaptureFacts()
        movie.time = CaptureTime(source: CaptureTime.keysSource, clock: 1_760_312_174, offset: 46_800)
        movie.headerTime = 1_760_265_374
        (movie.make, movie.model, movie.software) = ("Apple", "iPhone 15 Pro Max", "26.1")
        (movie.latitude, movie.longitude) = (-37.789, 175.2995)
        (movie.size, movie.quarterTurns) = (PixelSize(width: 1920, height: 1440), 1)
        changeStill(still)
        changeMovie(movie)
        var stillFacts = Example.still("IMG_0001.HEIC", format: .heic), movieFacts = Example.movie()
        stillFacts.capture = still
        movieFacts.capture = movie
        return pair(still: stillFacts, movie: movieFacts)
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
        var motion = MotionPhoto(source: .container, version: "1", videoOffset: 131_582, videoLength: 8_730, videoFound: found, presentationTimestampUs: 0)
        motion.directory = [
            XMPPacket.DirectoryItem(fields: ["Mime": "image/jpeg", "Semantic": "Primary", "Length": "0", "Padding": "0"]),
            XMPPacket.DirectoryItem(fields: ["Mime": "video/mp4", "Semantic": "MotionPhoto", "Length": "8730", "Padding": "0"]),
        ]
        if found { (motion.movieRange, motion.foundBy) = (131_582..<140_312, .described) }
        return motion
    }

    /// A HEIC motion photo as an iPhone-with-gain-map converter writes it: XMP item 64 describes
    /// the gain map (63), item 68 the primary (46) and the `tmap` (66); `declaring` are the
    /// items whose packets declare the motion photo.
    public static func heicMotionPhotoItem(declaring: Set<UInt32>, items: [(UInt32, [UInt32])] = [(64, [63]), (68, [46, 66])]) -> CheckItem {
        motionPhotoItem { motion in
            motion.xmpItems = items.map { XMPItemRole(item: $0.0, describes: $0.1, declaresMotionPhoto: declaring.contains($0.0)) }
            motion.primaryItem = 46
        }
    }

    /// A motion photo item whose embedded movie has `video` video tracks and the track kinds given.
    public static func motionPhotoItem(video: Int, audio: Int = 1, metadata: Int = 0, motionPhotoMetadata: Bool = false,
                                       brand: FourCC? = nil) -> CheckItem {
        var item = motionPhotoItem()
        item.still?.motionMovie?.videoTrackCount = video
        item.still?.motionMovie?.trackKinds = MovieFacts.TrackKinds(audio: audio, metadata: metadata, motionPhotoMetadata: motionPhotoMetadata)
        item.still?.motionMovie?.brand = brand
        return item
    }

    /// A HEIC motion photo, declared by GCamera:MotionPhoto in the primary's XMP item, its movie
    /// in an mpvd box whose 8-byte header the primary's Item:Padding gives as `padding`.
    public static func heicMotionPhotoItem(padding: Int) -> CheckItem {
        var item = heicMotionPhotoItem(declaring: [68])
        item.still?.format = .heic
        item.still?.motionPhoto?.cameraMotionPhoto = "1"
        item.still?.motionPhoto?.mpvd = 131_574..<140_312
        item.still?.motionPhoto?.directory[0].fields["Padding"] = String(padding)
        return item
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

    /// A JPEG that carries Content Credentials in its APP11 segments: read or not, and whether
    /// its binding holds.
    static func signed(verified: Bool, binding: Bool?) -> FileFacts {
        var facts = still("C.jpg", identifier: nil, format: .jpeg)
        var credentials = CredentialsFacts(container: "jpeg-app11")
        if verified {
            (credentials.verified, credentials.activeManifest, credentials.signer, credentials.binding) = (true, "urn:uuid:b2b1f7fa", "CN=C2PA Signer", binding)
            credentials.detail = binding == false ? "sha256 over the file but 20+45884 is 8eb9…, the manifest claims 86b1…" : "sha256 over the file but 20+45884 is the claimed 8166…"
        }
        facts.credentials = credentials
        return facts
    }

    /// Facts with every field of every type set to something other than its default (no nil,
    /// no empty list or string, no false, no zero): what the cache's coder and the records'
    /// reader are held to (`CompactCoderTests` checks that no field is left at its default).
    public static func everyField() -> FileFacts {
        func error(_ text: String) -> ParseError { ParseError(.limitExceeded, text, offset: 1_234_567, path: "moov/trak[2]") }
        var facts = FileFacts(path: "shots/IMG_0001.HEIC", format: .heic, kind: .motionPhoto, size: 3_000_000,
                              error: error("damaged"), warnings: [error("worked around")], contentIdentifier: "5D7C1E0A-0B55-4C2B-9A57-3E9F7C2D8B61")
        facts.bytesRead = 30_000
        facts.identity = FileIdentity(device: 66_305, inode: 1 << 40, links: 2)
        facts.hasAppleMakerNote = true
        facts.make = "Apple"
        facts.model = "iPhone 15 Pro"
        facts.thumbnail = [0xFF, 0xD8]
        facts.thumbnailProblem = "the decoder refuses it"
        facts.thumbnailTurned = true
        facts.preview = "report-previews/item-1.mp4"
        var motion = MotionPhoto(source: .container, version: "1", videoOffset: -2_000_000, videoLength: 1_500_000, videoFound: true,
                                 presentationTimestampUs: 1_466_666)
        motion.movieRange = 1_000_000..<2_500_000
        motion.foundBy = .described
        motion.directory = [XMPPacket.DirectoryItem(fields: ["Mime": "image/heic", "Semantic": "Primary"]),
                            XMPPacket.DirectoryItem(fields: ["Mime": "video/mp4", "Length": "1500000"])]
        motion.mpvd = 999_992..<2_500_000
        motion.samsungTrailer = 2_500_000..<2_600_000
        motion.movieCutShort = "moov claims 9000 bytes"
        motion.xmpItems = [XMPItemRole(item: 64, describes: [63], declaresMotionPhoto: true)]
        motion.primaryItem = 46
        motion.locators = [MotionPhotoLocator(name: MotionPhotoLocator.Name.directory, offset: 1_000_000, value: 1_500_000, found: true)]
        (motion.imageEnd, motion.cameraMotionPhoto, motion.containerVersion) = (999_000, "1", "1")
        facts.motionPhoto = motion
        var movie = MovieFacts()
        movie.brand = "qt  "
        movie.quickTimeCompatible = true
        movie.durationSeconds = 2.933_333
        movie.metadataHandler = "mdta"
        movie.hasContentIdentifierKey = true
        movie.contentIdentifierLocation = .movieMeta
        var kinds = MovieFacts.TrackKinds(audio: 1, metadata: 2, motionPhotoMetadata: true)
        (kinds.primaryFrameTimestampUs, kinds.unsortedScoreIndex, kinds.metadataError) = (1_466_666, 3, "descriptor of 90 bytes")
        movie.trackKinds = kinds
        movie.wallpaperKeys = [.auto, .vitalityScore]
        movie.referenceDimensions = PixelSize(width: 1920, height: 1440)
        movie.videoTrackCount = 1
        movie.frameDurations = FrameDurations(timescale: 600, frameCount: 88, nominal: 20, minimum: 19, maximum: 21, zeroDurationFrames: 1)
        movie.frames = [MovieFacts.FrameRun(start: 0.1, duration: 1.0 / 30, count: 87), MovieFacts.FrameRun(start: 3.0, duration: 0.04, count: 1)]
        movie.timedMetadataTrackCount = 2
        movie.stillImageTimeTracks = [MovieFacts.StillImageTimeTrack(trackID: 4, path: "moov/trak[4]", declaredType: 23, sampleCount: 1,
                                                                     referencesVideo: true, readError: error("sample cut"), sampleHoldsKey: true)]
        movie.stillImageTime = StillImageTime(trackID: 4, trackPath: "moov/trak[4]", value: -1, dataType: 23, sampleIndex: 1, mediaTime: 880,
                                              duration: 1, mediaTimescale: 600, seconds: 1.466_666, hasEditList: true)
        facts.movie = movie
        movie.brand = "mp42"
        movie.durationSeconds = 1.5
        facts.motionMovie = movie
        facts.archive = "shots/IMG_0001.livp"
        var credentials = CredentialsFacts(container: "jpeg-app11")
        (credentials.verified, credentials.activeManifest, credentials.signer) = (true, "urn:uuid:b2b1f7fa", "CN=C2PA Signer, O=C2PA Test Signing Cert")
        (credentials.binding, credentials.detail) = (true, "sha256 over the file but 20+45884")
        facts.credentials = credentials
        let capture = CaptureFacts()
        capture.time = CaptureTime(source: CaptureTime.exifSource(subSeconds: true, zone: true), clock: 1_760_312_174.753, offset: 46_800)
        capture.headerTime = 1_760_265_374
        (capture.make, capture.model, capture.software) = ("Apple", "iPhone 15 Pro Max", "26.1")
        (capture.latitude, capture.longitude) = (-37.788975, 175.299483)
        capture.size = PixelSize(width: 5712, height: 4284)
        capture.quarterTurns = 1
        capture.mirrored = true
        capture.unusableTime = "photoTakenTime.timestamp \"1e308\" is no time from 1900 to 9999 in Unix seconds"
        facts.capture = capture
        return facts
    }
}
