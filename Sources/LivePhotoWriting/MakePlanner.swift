import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats

/// make's planning, from the inputs and the outputs' names. `make STILL MOVIE` (`pairPlan`):
/// both markers, the track and the brand written into copies of the two. `make CLIP`: a Live
/// Photo from one movie, the still being the movie's own frame at the moment. The movie goes
/// through make's path (identifier, brand, still-image-time track); the
/// still is made: the sync sample's coded picture as a HEIF item, byte for byte, or a picture
/// the codec layer decoded and encoded (`StillPicture`). The still carries what the movie says
/// of its capture, so the agreement rules hold on the pair.
public enum MakePlanner {
    public enum StillFormat: String, Sendable, CaseIterable {
        case heic, jpeg
        public var fileExtension: String { self == .heic ? "HEIC" : "JPG" }
    }

    /// How many times a GIF is enlarged (nearest neighbour) in the movie and the still, unless
    /// asked: 2, so that each GIF pixel is a 2×2 block, which 4:2:0 chroma keeps (at its own size
    /// a colour edge loses half its chroma: 22–31 dB on real GIFs against 33–40 enlarged), more
    /// for a GIF under 8 pixels a side (x265 encodes nothing under 16), 1 when twice the GIF
    /// passes 4096 a side.
    public static func gifScale(width: Int, height: Int, asked: Int?) -> Int {
        if let asked { return asked }
        let smallest = max(1, min(width, height))
        let scale = max(2, (16 + smallest - 1) / smallest)
        return max(width, height) * scale <= 4096 ? scale : max(width, height) * 2 <= 4096 ? 2 : 1
    }

    /// The pixel limits a clip is held to before anything is read or decoded.
    public struct Limits: Sendable, Equatable {
        /// Width × height of a frame (`CodecLimits.maxPixels` by default).
        public var maxPixels = CodecLimits.maxPixels
        /// Either side (`CodecLimits.maxSide` by default).
        public var maxSide = CodecLimits.maxSide
        public init() {}
    }

    /// The video sample shown at a moment.
    public struct Frame: Sendable {
        public var sample: Sample
        /// When it starts being shown, in movie seconds (edit list applied).
        public var seconds: Double
        public var isSync: Bool
        /// The sample's description (its codec and configuration).
        public var description: SampleDescription
    }

    /// The still's picture: a coded image item (lossless), or a JPEG's bytes from an encoder.
    public enum StillPicture: Sendable {
        case heif(HEIFImageWriter.Image)
        case jpeg([UInt8])
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The identifier make derives from its inputs when none is given: the same on a rerun.
    public static func identifier(still: FileFacts, movie: FileFacts) -> String {
        DeterministicIdentifier.make(["make", still.path, String(still.size), movie.path, String(movie.size)].joined(separator: "\n"))
    }

    /// `make STILL MOVIE`: the still and the movie written to `destinations` (by input path)
    /// with the identifier, the still-image-time track at the moment (`--time`, `--frame`,
    /// else the middle frame) and the QuickTime brand, whatever they hold already.
    public static func pairPlan(still: MediaFile, movie: MediaFile, identifier: String, options: RepairOptions, destinations: [String: String], wallpaper: Bool) throws -> ItemPlan {
        let stillFacts = FileFacts(still), movieFacts = FileFacts(movie)
        let moment = try RepairPlanner.moment(forMake: movieFacts.movie ?? MovieFacts(), options: options)
        var item = CheckItem(kind: .pair, still: stillFacts, movie: movieFacts, pairedBy: .name)
        item.findings = PlanWriter.fileFindings(item)
        var edits = ItemEdits(identifier: identifier, moment: moment, brand: true)
        edits.wallpaperKeys = wallpaper
        return PlanWriter.plan(item, edits: edits, acting: [], destinations: destinations)
    }

    /// The primary video track, held to the limits, its codec one Apple's players take.
    public static func videoTrack(_ movie: Movie, path: String, limits: Limits) throws -> Track {
        guard let track = movie.primaryVideoTrack else { throw Failure("\(path): the clip has no video track") }
        let sizes = [(Int(track.width.rounded()), Int(track.height.rounded()), "the track header (tkhd)")]
            + track.sampleDescriptions.compactMap { entry in entry.width.flatMap { w in entry.height.map { (Int(w), Int($0), "its \(entry.format) sample entry") } } }
        for (width, height, what) in sizes where width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels {
            throw Failure("\(path): \(what) claims \(width)×\(height) frames, more than the \(limits.maxPixels) pixels (\(limits.maxSide) a side) make reads (--max-pixels)")
        }
        if track.sampleDescriptions.contains(where: { $0.format == "hev1" }) {
            throw Failure("\(path): its HEVC track is hev1 (parameter sets inside the samples), which Apple's players refuse; moving them into hvcC as hvc1 rewrites every sample, which make does not do (re-encode it, or remux it to hvc1 with its parameter sets in hvcC)")
        }
        return track
    }

    /// The sample shown at `seconds` (the last whose display starts at or before it), or with
    /// `nearestSync` the sync sample whose display starts nearest it. The sample must lie
    /// inside the file.
    public static func frame(_ movie: Movie, track: Track, at seconds: Double, nearestSync: Bool, fileSize: Int64, path: String) throws -> Frame {
        let samples: [Sample]
        do {
            samples = try track.sampleTable.resolve(path: track.path)
        } catch {
            throw Failure("\(path): the video track's sample tables cannot be read: \(error)")
        }
        let sync = track.sampleTable.syncSamples.map { Set($0) }
        var shown: [(start: Double, sample: Sample)] = []
        for sample in samples {
            if let start = movie.movieSeconds(forMediaTime: sample.presentationTime, in: track) { shown.append((start, sample)) }
        }
        shown.sort { $0.start < $1.start }
        func isSync(_ sample: Sample) -> Bool { sync?.contains(UInt32(clamping: sample.index + 1)) ?? true }
        let candidates = nearestSync ? shown.filter { isSync($0.sample) } : shown
        let chosen = nearestSync
            ? candidates.min { abs($0.start - seconds) < abs($1.start - seconds) }
            : candidates.last { $0.start <= seconds + 1e-9 } ?? candidates.first
        guard let chosen else { throw Failure("\(path): the video track shows no \(nearestSync ? "sync sample" : "frame")") }
        let end = chosen.sample.offset.addingReportingOverflow(UInt64(chosen.sample.size))
        guard !end.overflow, end.partialValue <= UInt64(max(0, fileSize)), chosen.sample.size > 0 else {
            throw Failure("\(path): sample \(chosen.sample.index + 1) of the video track (\(chosen.sample.size) bytes at offset \(chosen.sample.offset)) lies outside the file (\(fileSize) bytes)")
        }
        let index = Int(chosen.sample.descriptionIndex) - 1
        guard track.sampleDescriptions.indices.contains(index) else {
            throw Failure("\(path): sample \(chosen.sample.index + 1) names sample description \(chosen.sample.descriptionIndex), which stsd does not hold")
        }
        return Frame(sample: chosen.sample, seconds: chosen.start, isSync: isSync(chosen.sample), description: track.sampleDescriptions[index])
    }

    /// Whether the frame's coded picture can be the still as it is: an HEVC sync sample (hvc1).
    /// A sample the tables call sync (every sample is, in a track without `stss`) must also be
    /// an intra random access picture by its own NAL units: `notIntra` says why it is not.
    public static func isLossless(_ frame: Frame) -> Bool {
        frame.isSync && frame.description.format == "hvc1" && frame.description.configuration("hvcC") != nil
    }

    /// Why `frame`'s coded picture, read from `source`, cannot be a still by itself (its
    /// coded slices are no IRAP picture, or its lengths do not tile it); nil when it can.
    public static func notIntra(_ frame: Frame, source: ByteSource) -> String? {
        guard let hvcC = frame.description.configuration("hvcC"), let configuration = try? HEVCConfiguration(parsing: hvcC) else { return "its hvcC does not parse" }
        guard frame.sample.size <= 256 << 20,
              let bytes = try? source.read(at: Int64(clamping: frame.sample.offset), count: Int(frame.sample.size)) else { return "its bytes cannot be read" }
        guard let types = NALUnit.hevcSliceTypes(bytes, lengthSize: configuration.nalLengthSize) else { return "its NAL unit lengths do not tile its \(bytes.count) bytes" }
        guard let outside = types.first(where: { !NALUnit.hevcRandomAccess.contains($0) }) ?? (types.isEmpty ? 255 : nil) else { return nil }
        return outside == 255 ? "it holds no coded slice" : "its slices are NAL units of type \(outside), not an intra random access picture (16–23)"
    }

    /// The coded image item of an HEVC sync sample: its bytes copied, its `hvcC` the track's,
    /// its size the SPS's decoded size, its colour the track's `colr` (a QuickTime `nclc`
    /// becomes `nclx` with the SPS's range), else the SPS's VUI.
    public static func codedImage(_ frame: Frame, track: Track, path: String) throws -> HEIFImageWriter.Image {
        guard let hvcC = frame.description.configuration("hvcC") else { throw Failure("\(path): the HEVC sample entry has no hvcC") }
        let configuration: HEVCConfiguration
        do {
            configuration = try HEVCConfiguration(parsing: hvcC, path: track.path + "/stsd/hvc1/hvcC")
        } catch {
            throw Failure("\(path): \(error)")
        }
        guard let sequence = configuration.sequence else { throw Failure("\(path): hvcC holds no sequence parameter set") }
        guard sequence.chromaFormat == 1 || sequence.chromaFormat == 0 else {
            throw Failure("\(path): the HEVC track is \(sequence.chromaFormat == 2 ? "4:2:2" : "4:4:4"); a HEIC still of it would not display where Apple's decoders take 4:2:0 only (--still jpeg makes a JPEG still of it)")
        }
        let depths = sequence.chromaFormat == 0 ? [sequence.lumaBitDepth] : [sequence.lumaBitDepth, sequence.chromaBitDepth, sequence.chromaBitDepth]
        let range = Int64(frame.sample.offset)..<(Int64(frame.sample.offset) + Int64(frame.sample.size))
        var image = HEIFImageWriter.Image(type: "hvc1", configurationType: "hvcC", configuration: hvcC, width: UInt32(sequence.width), height: UInt32(sequence.height),
                                          bitDepths: depths.map { UInt8(clamping: $0) }, colour: colour(frame.description, sequence: sequence), data: .copy(range))
        (image.anticlockwiseTurns, image.mirror) = Orientation(track.matrix).heif
        return image
    }

    /// The image item of a picture the codec layer encoded: its `hvcC`, the colour it was
    /// encoded with, the track's orientation.
    public static func encodedImage(configuration: [UInt8], colour: [UInt8], picture: [UInt8], track: Track, path: String) throws -> HEIFImageWriter.Image {
        let parsed: HEVCConfiguration
        do {
            parsed = try HEVCConfiguration(parsing: configuration, path: "the encoder's hvcC")
        } catch {
            throw Failure("\(path): \(error)")
        }
        guard let sequence = parsed.sequence else { throw Failure("\(path): the encoder's hvcC holds no SPS") }
        let depths = sequence.chromaFormat == 0 ? [sequence.lumaBitDepth] : [sequence.lumaBitDepth, sequence.chromaBitDepth, sequence.chromaBitDepth]
        var image = HEIFImageWriter.Image(type: "hvc1", configurationType: "hvcC", configuration: configuration, width: UInt32(sequence.width), height: UInt32(sequence.height),
                                          bitDepths: depths.map { UInt8(clamping: $0) }, colour: colour, data: .bytes(picture))
        (image.anticlockwiseTurns, image.mirror) = Orientation(track.matrix).heif
        return image
    }

    /// What a JPEG still loses of the movie's picture, for the plan: bits beyond 8, and
    /// primaries other than sRGB's (BT.709), which the JPEG, carrying no ICC profile, does not keep.
    /// `heicOffered`: whether `--still heic` is the way out (not for a JPEG motion photo's key photo).
    public static func jpegLosses(_ description: SampleDescription, heicOffered: Bool = true) -> [String] {
        var notes: [String] = []
        if let depth = description.lumaBitDepth, depth > 8 {
            notes.append("the movie is \(depth)-bit; a JPEG holds 8 bits a channel, so the still is 8-bit\(heicOffered ? " (--still heic keeps \(depth))" : "")")
        }
        // Only gamuts wider than sRGB's lose saturation (BT.601's and the like are about as wide).
        if let primaries = description.colourPrimaries, let name = [9: "BT.2020", 11: "DCI-P3", 12: "Display P3"][primaries] {
            notes.append("the movie's colour primaries are \(name); the JPEG is written as sRGB with no ICC profile, so its saturated colours show less saturated than the movie's\(heicOffered ? " (--still heic keeps them)" : "")")
        }
        return notes
    }

    /// The still's `colr`: an `nclx` or ICC profile of the track as it is, an `nclc` as `nclx`
    /// (QuickTime's has no range flag: the SPS's), else the SPS's VUI.
    static func colour(_ description: SampleDescription, sequence: HEVCConfiguration.SequenceParameters) -> [UInt8]? {
        if let colr = description.configuration("colr"), colr.count >= 4 {
            let kind = String(decoding: colr.prefix(4), as: UTF8.self)
            if kind == "nclx" || kind == "prof" || kind == "rICC" { return colr }
            if kind == "nclc", colr.count >= 10 {
                return HEIFImageWriter.nclx(primaries: colr[5], transfer: colr[7], matrix: colr[9], fullRange: sequence.fullRange ?? false)
            }
        }
        guard let primaries = sequence.primaries, let transfer = sequence.transfer, let matrix = sequence.matrix else { return nil }
        return HEIFImageWriter.nclx(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: sequence.fullRange ?? false)
    }

    /// How the track matrix shows the picture, as a still says it: one of the eight Exif
    /// orientations (1 for a matrix that is none of them), and the same as HEIF properties.
    public struct Orientation: Sendable, Equatable {
        /// EXIF Orientation, 1–8.
        public var exif: UInt16
        public init(_ matrix: TrackMatrix) { exif = matrix.exifOrientation ?? 1 }
        /// HEIF `irot` (anticlockwise quarter turns) and then `imir`, which a reader applies in
        /// that order. `imir`'s bit as libheif (pillow-heif) reads it: 0 exchanges top and bottom,
        /// 1 left and right (ISO/IEC 23008-12:2022's `mode`; the 2017 text's "axis" read the other
        /// way); held to ffmpeg's displayed frame by `MakeClipTests.eightOrientations`.
        public var heif: (anticlockwiseTurns: Int, mirror: UInt8?) {
            switch exif {
            case 2: return (0, 1)
            case 3: return (2, nil)
            case 4: return (0, 0)
            case 5: return (3, 1)
            case 6: return (3, nil)
            case 7: return (3, 0)
            case 8: return (1, nil)
            default: return (0, nil)
            }
        }
        public var anticlockwiseTurns: Int { heif.anticlockwiseTurns }
    }

    /// What the still says of its capture, from the movie: Keys date (else `mvhd`'s, in UTC),
    /// device, place; orientation and stored size.
    public static func tags(_ movie: Movie, track: Track, width: Int, height: Int, format: StillFormat) -> NewStillTags {
        let capture = CaptureFacts(movie: movie)
        var tags = NewStillTags()
        (tags.make, tags.model, tags.software) = (capture.make, capture.model, capture.software)
        let time = capture.time ?? capture.headerTime.map { CaptureTime(source: "mvhd", clock: $0, offset: 0) }
        if let texts = time?.exifTexts {
            (tags.dateTimeOriginal, tags.subSecTimeOriginal, tags.offsetTimeOriginal) = (texts.date, texts.subSeconds, texts.offset)
        }
        (tags.latitude, tags.longitude) = (capture.latitude, capture.longitude)
        tags.orientation = Orientation(track.matrix).exif
        (tags.pixelWidth, tags.pixelHeight) = (UInt32(clamping: width), UInt32(clamping: height))
        if format == .jpeg { tags.colorSpace = 1 }
        return tags
    }

    /// The still's file: a HEIF built around the picture, or the encoder's JPEG with an Exif
    /// APP1 holding the tags and the identifier.
    public static func stillPatch(_ picture: StillPicture, tags: NewStillTags, identifier: String, keyPhoto: KeyPhotoStill? = nil) throws -> FilePatch {
        var tiff = ExifEditor.newTIFF(tags, identifier: identifier)
        var exifNote = "Exif with the movie's capture facts and MakerApple 0x0011"
        if let keyPhoto {
            let carried = try keyPhoto.tiff(for: tags, identifier: identifier)
            (tiff, exifNote) = (carried.tiff, carried.note)
        }
        return try stillPatch(picture, tiff: tiff, exifNote: exifNote)
    }

    /// The still's file around `picture`, with `tiff` as its Exif.
    static func stillPatch(_ picture: StillPicture, tiff: [UInt8], exifNote: String) throws -> FilePatch {
        switch picture {
        case .heif(let image):
            var patch = try HEIFImageWriter.still(image, exif: tiff)
            let copied = if case .copy = image.data { "the sync sample's coded picture, byte for byte" } else { "an encoded picture" }
            patch.notes = ["HEIF still: \(copied) (\(image.width)×\(image.height), \(image.bitDepths.first ?? 8)-bit), \(exifNote)"]
            return patch
        case .jpeg(let bytes):
            var patch = FilePatch()
            patch.append(try StillRewriter.jpegAddingExif(bytes, tiff: tiff))
            patch.notes = ["JPEG still: the decoded frame, encoded; \(exifNote)"]
            return patch
        }
    }

    /// The plan: the movie through make's edits, the still made from `picture`. Rules run on
    /// the movie as it is, so the plan names what it brings in.
    /// The window a long clip's movie shows: none when it lasts at most `longest` seconds (the
    /// length `movie-too-long` allows), else `length` seconds (3: a camera's Live Photo) around
    /// the moment, the moment in its middle where the clip allows. `length` 0 keeps it whole.
    public static func window(duration: Double, moment: Double, length: Double, longest: Double) -> PresentationWindow? {
        guard length > 0, duration > longest, duration > length else { return nil }
        let start = min(max(0, moment - length / 2), duration - length)
        return PresentationWindow(start: start, duration: length)
    }

    public static func plan(clip: String, file: MediaFile, picture: StillPicture, tags: NewStillTags, identifier: String, moment: Moment,
                            still: String, movie: String, wallpaper: Bool, window: PresentationWindow? = nil, keyPhoto: KeyPhotoStill? = nil) -> ItemPlan {
        let facts = FileFacts(file)
        var item = CheckItem(kind: .movieOnly, movie: facts, pairedBy: .name)
        item.findings = PlanWriter.fileFindings(item)
        var shown = moment
        if let window { shown.seconds = moment.seconds - window.start }
        var edits = ItemEdits(identifier: identifier, moment: shown, brand: true)
        edits.wallpaperKeys = wallpaper
        edits.window = window
        edits.stillIsFrame = true
        var plan = PlanWriter.plan(item, edits: edits, acting: [], destinations: [clip: movie])
        guard plan.problems.isEmpty else { return plan }
        do {
            var made = FilePlan(path: clip, destination: still, patch: try stillPatch(picture, tags: tags, identifier: identifier, keyPhoto: keyPhoto),
                                identity: nil, identifier: identifier)
            made.made = true
            made.replaces = keyPhoto?.inPlace ?? false
            // A new key photo is compared with the old still: what it keeps of it, what stays behind.
            made.recordLedger(keyPhoto.map { [LedgerInput(path: $0.path)] } ?? [])
            plan.files.insert(made, at: 0)
        } catch {
            plan.problems.append("\(still): \(error)")
            plan.files = []
        }
        return plan
    }
}
