import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// `lpcheck keyphoto MOTION_PHOTO`: a motion photo's still replaced by its own movie's frame at a
/// moment, its presentation timestamp that frame's. The movie's bytes are copied as they are;
/// the old still's Exif (MakerNote included) is carried with its Orientation and size made the
/// new picture's, never another maker's; the XMP is made anew with the Motion Photo 1.0 fields
/// (the ledger lists what the old one held). The embedded movie is staged as a file of its own
/// for the codec helper, which decodes the frame, and discarded when the plan is made: the
/// plan holds the new still's bytes and copies the movie from the input.
public enum MotionPhotoKeyPhoto {
    public struct Request: Sendable {
        public var input: String
        public var destination: String
        public var settings: MakePlanner.ClipSettings
        /// `--time` or `--frame` (`options.time`, `options.frame`); the backup setting for in place.
        public var options: RepairOptions
        public var inPlace = false
        /// A path whose folder holds the temporaries (default: the destination's); a dry run
        /// into a folder not yet made stages them in the system's temporary folder.
        public var staging: String?
        public init(input: String, destination: String, settings: MakePlanner.ClipSettings, options: RepairOptions) {
            (self.input, self.destination, self.settings, self.options) = (input, destination, settings, options)
        }
    }

    /// Whether `file` is a motion photo whose movie lpcheck finds (the input keyphoto takes alone).
    public static func isMotionPhoto(_ file: MediaFile) -> Bool {
        file.still?.motionPhoto?.movieRange != nil
    }

    /// The plan of `request`; throws a failure to say (status 2: the input; 1: the work).
    public static func plan(_ request: Request) throws -> ItemPlan {
        func fail(_ message: String, status: Int32 = 2) -> MakePlanner.ClipFailure {
            MakePlanner.failure(message, read: request.input, named: request.input, status: status)
        }
        let input = request.input
        let file = MediaFile.inspect(path: input, options: .full)
        guard file.error == nil, let still = file.still, let motion = still.motionPhoto, let range = motion.movieRange else {
            throw fail("not a motion photo whose movie lpcheck finds: \(file.error?.description ?? "no embedded movie")")
        }
        let format: MakePlanner.StillFormat = file.format == .jpeg ? .jpeg : .heic
        var settings = request.settings
        settings.stillFormat = format
        // The movie as a file of its own, beside the output: the helper decodes its frame there.
        let movieStage: SafeFileWriter.Staged
        do {
            movieStage = try SafeFileWriter.stage(FilePatch(pieces: [.copy(range)]), original: input, destination: request.staging ?? request.destination, identity: nil)
        } catch {
            throw fail("\(error)", status: 1)
        }
        var temporaries = [movieStage]
        defer { for staged in temporaries { SafeFileWriter.discard(staged) } }
        do {
            return try build(request, file: file, still: still, motion: motion, range: range, settings: settings, movie: movieStage.temporary, temporaries: &temporaries)
        } catch {
            if let failure = error as? MakePlanner.ClipFailure { throw failure }
            if let failure = error as? CodecHelper.Failure { throw fail(failure.description, status: failure.status) }
            throw fail("\(error)", status: 1)
        }
    }

    static func build(_ request: Request, file: MediaFile, still: Still, motion: MotionPhoto, range: Range<Int64>, settings: MakePlanner.ClipSettings,
                      movie moviePath: String, temporaries: inout [SafeFileWriter.Staged]) throws -> ItemPlan {
        let input = request.input
        let movieFile = MediaFile.inspect(path: moviePath, options: .full)
        guard movieFile.error == nil, let movie = movieFile.movie else {
            throw MakePlanner.ClipFailure(status: 2, description: "nothing written: \(input): its movie (bytes \(range.lowerBound)–\(range.upperBound)) does not read: \(movieFile.error?.description ?? "not a movie")")
        }
        // What the movie cannot give (no frame, a sample outside it, a moment outside it) is the input's problem.
        let track: Track, frame: MakePlanner.Frame, moment: Moment, lossless: Bool
        do {
            track = try MakePlanner.videoTrack(movie, path: input, limits: settings.limits)
            let entry = track.sampleDescriptions.first
            lossless = settings.losslessStill && settings.stillFormat == .heic && entry?.format == "hvc1" && entry?.configuration("hvcC") != nil
            moment = try RepairPlanner.moment(forMake: FileFacts(movieFile).movie ?? MovieFacts(), options: request.options)
            frame = try MakePlanner.frame(movie, track: track, at: moment.seconds, nearestSync: lossless, fileSize: movieFile.size, path: "its movie")
        } catch {
            throw MakePlanner.failure("\(error)", read: input, named: input, status: 2)
        }
        let (picture, notIntra) = try MakePlanner.clipStill(moviePath, frame: frame, track: track, settings: settings)
        let size: (width: Int, height: Int)
        switch picture {
        case .heif(let image): size = (Int(image.width), Int(image.height))
        case .jpeg: size = (Int(track.width.rounded()), Int(track.height.rounded()))
        }
        // The old still's Exif, made true of the new picture; a still without Exif gets the
        // movie's capture facts and no maker's note.
        let tags = MakePlanner.tags(movie, track: track, width: size.width, height: size.height, format: settings.stillFormat)
        let tiff: [UInt8], exifNote: String
        if let old = try StillRewriter.exifTIFF(still, source: try FileSource(path: input)) {
            let carried = try ExifEditor.keyPhotoTIFF(old, width: tags.pixelWidth ?? 0, height: tags.pixelHeight ?? 0, orientation: tags.orientation ?? 1)
            (tiff, exifNote) = (carried.tiff, carried.note)
        } else {
            (tiff, exifNote) = (ExifEditor.newTIFF(tags, identifier: nil), "Exif with the movie's capture facts (the old still has none)")
        }
        let stillPatch = try MakePlanner.stillPatch(picture, tiff: tiff, exifNote: exifNote)
        let stillStage = try SafeFileWriter.stage(stillPatch, original: moviePath, destination: request.staging ?? request.destination, identity: nil)
        temporaries.append(stillStage)
        let newStill = MediaFile.inspect(path: stillStage.temporary, options: .full)
        guard let model = newStill.still, newStill.error == nil else { throw RepairProblem("the new still does not read back: \(newStill.error?.description ?? "not a still")") }
        let timestamp = Int64((frame.seconds * 1_000_000).rounded())
        // A Google motion photo's metadata track names the primary image's frame time, which
        // Google's checker holds to the XMP's timestamp: its eight bytes take the new one.
        var video = FilePatch(pieces: [.copy(range)])
        var metadataNote: String?
        if let track = movie.tracks.first(where: { $0.motionPhotoMetadata?.primaryFrameTimestampOffset != nil }),
           let metadata = track.motionPhotoMetadata, let at = metadata.primaryFrameTimestampOffset, at >= 0, at + 8 <= Int64(range.count) {
            video = FilePatch(pieces: [.copy(range.lowerBound..<(range.lowerBound + at)), .bytes(BoxWriter.u64(UInt64(bitPattern: timestamp))),
                                       .copy((range.lowerBound + at + 8)..<range.upperBound)])
            metadataNote = "the movie's motion-photo metadata track (track \(track.id)) names the primary image's frame at \(metadata.primaryFrameTimestampUs) µs: its eight bytes at \(at) now say \(timestamp) µs"
        }
        let stillSource = try FileSource(path: stillStage.temporary)
        var patch = settings.stillFormat == .jpeg
            ? try MotionPhotoWriter.motionPhotoJPEG(model, source: stillSource, video: video, from: input, timestampUs: timestamp)
            : try MotionPhotoWriter.motionPhotoHEIC(model, source: stillSource, video: video, from: input, timestampUs: timestamp)
        patch.notes = stillPatch.notes + patch.notes + [metadataNote.map { "the movie: \(range.count) bytes copied as they are but one time: \($0)" } ?? "the movie: \(range.count) bytes copied as they are"]
        // The new still's bytes are held in the patch (they are new), so the plan reads from
        // the input alone: its copied movie, and, in place, the file it replaces.
        patch.pieces = try patch.pieces.map { piece in
            guard case .copy(let part) = piece else { return piece }
            return .bytes(try stillSource.read(at: part.lowerBound, count: Int(part.count)))
        }
        var item = CheckItem(kind: .motionPhoto, still: FileFacts(file))
        // The input's own damage is named and waits for --allow-damaged, as every writer's does.
        item.findings = PlanWriter.fileFindings(item)
        // The moment written is the frame's time, which the timestamp holds.
        var plan = ItemPlan(item: item, edits: ItemEdits(moment: Moment(seconds: frame.seconds, origin: moment.origin, value: moment.value)))
        let identity = request.inPlace ? try SafeFileWriter.Identity.of(input) : nil
        var output = FilePlan(path: input, destination: request.destination, patch: patch, identity: identity)
        (output.made, output.motionPhotoTimestampUs) = (true, timestamp)
        output.recordLedger([LedgerInput(path: input)])
        plan.files = [output]
        plan.reasons = reasons(request, still: still, motion: motion, size: size, moment: moment, timestamp: timestamp, lossless: lossless, metadata: metadataNote != nil)
        plan.reasons += MakePlanner.clipReasons(frame: frame, track: track, window: nil, duration: movie.durationSeconds ?? 0, jpegFromFrame: settings.stillFormat == .jpeg, notIntra: notIntra,
                                                  heicOffered: false)
        plan.noteInputDamage()
        return plan
    }

    static func reasons(_ request: Request, still: Still, motion: MotionPhoto, size: (width: Int, height: Int), moment: Moment,
                        timestamp: Int64, lossless: Bool, metadata: Bool) -> [String] {
        let old = (still.jpeg?.frameSize ?? still.heif?.primaryImage?.size).map { " (the old still: \($0.width)×\($0.height))" } ?? ""
        let before = motion.presentationTimestampUs.map { "\($0) µs" } ?? "none"
        var first = "a new key photo for the motion photo \(request.input): the still becomes its movie's frame shown at \(SecondsText.format(moment.seconds)) s, \(size.width)×\(size.height)\(old); the presentation timestamp moves from \(before) to \(timestamp) µs, that frame's\(lossless ? " (the sync sample nearest the moment asked for)" : ""); the movie's bytes are copied as they are\(metadata ? " (but its metadata track's primary frame time, which Google's checker holds to the timestamp)" : ""); the old still's Exif and MakerNote are carried, its Orientation and size made the new picture's; the XMP holds the Motion Photo 1.0 fields alone (what the old one held is listed as dropped below)"
        if motion.foundBy != .described && motion.foundBy != .mpvd || motion.source != .container {
            first += "; the file is written as Motion Photo 1.0 describes one, with an XMP directory and timestamp (the input: \(motion.source.description), its movie found \(motion.foundBy.map { "by \($0.description)" } ?? "without a directory"))"
        }
        if request.inPlace {
            first += request.options.backup ? "; it replaces the motion photo in place, the old file kept in .lpcheck-backup/ beside it" : "; it replaces the motion photo in place, without a backup"
        }
        return [first]
    }
}
