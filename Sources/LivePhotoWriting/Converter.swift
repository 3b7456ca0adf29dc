import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats

/// What `convert` makes.
public enum ConversionTarget: String, Sendable, CaseIterable {
    /// A still and a QuickTime movie from a motion photo.
    case livePhoto = "live-photo"
    /// One motion photo file (Motion Photo 1.0) from a Live Photo pair.
    case motionPhoto = "motion-photo"

    /// The item kind each target converts from.
    public var source: ItemKind { self == .livePhoto ? .motionPhoto : .pair }

    /// Whether the target converts `item`: a motion photo or a pair; a `.livp`'s pair is
    /// unpacked by `live-photo` (a pair of loose files is one already).
    public func converts(_ item: CheckItem) -> Bool {
        item.kind == source || (self == .livePhoto && item.kind == .pair && item.archive != nil)
    }
}

/// Plans conversions between motion photos and Live Photos as item plans, so they are written,
/// read back and checked like repairs; the inputs are never written.
public enum Converter {
    /// One item's conversion into `folder`. Existing outputs are a problem unless `options.force`.
    /// `name`: the outputs' name (without extension) when not the input's (make's motion photo,
    /// converted from a pair staged under temporary names).
    public static func plan(_ item: CheckItem, to target: ConversionTarget, folder: String, options: RepairOptions, name: String? = nil) -> ItemPlan {
        var plan = ItemPlan(item: item)
        do {
            switch target {
            case .livePhoto where item.archive != nil: try planUnpacking(&plan, folder: folder)
            case .livePhoto: try planLivePhoto(&plan, folder: folder, options: options, name: name)
            case .motionPhoto: try planMotionPhoto(&plan, folder: folder, options: options, name: name)
            }
            for file in plan.files {
                try SafeFileWriter.refuseNewOutput(file.destination, inputs: item.files.map(\.path))
                if PathBytes.exists(file.destination) && !options.force { throw RepairProblem("\(file.destination) exists (use --force to replace it)") }
            }
        } catch {
            plan.problems.append("\(error)")
            plan.files = []
        }
        // Every output is written from every file of the item, planned or not.
        plan.noteInputDamage(from: Set(item.files.map(\.path)))
        return plan
    }

    /// Output name: the input's name without its extension and without a `.MP` motion-photo mark.
    static func baseName(_ path: String) -> String {
        var base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if base.uppercased().hasSuffix(".MP") { base = String(base.dropLast(3)) }
        return base
    }

    static func planLivePhoto(_ plan: inout ItemPlan, folder: String, options: RepairOptions, name: String?) throws {
        guard plan.item.kind == .motionPhoto, let facts = plan.item.still else { throw RepairProblem("not a motion photo") }
        let file = MediaFile.inspect(path: facts.path, options: .check)
        guard let still = file.still, file.error == nil else { throw RepairProblem("\(facts.path): \(file.error?.description ?? "not a still")") }
        guard let motion = still.motionPhoto, let range = motion.movieRange, let movie = still.embeddedMovie else {
            throw RepairProblem("\(facts.path): the XMP marks a motion photo but no readable movie was found in the file")
        }
        if let cut = motion.movieCutShort { throw RepairProblem("\(facts.path): the embedded movie is cut short: \(cut)") }
        if motion.foundBy == .ftypSearch {
            if motion.source == .trailingMovie {
                plan.reasons.append("the movie was found by its ftyp box at byte \(range.lowerBound): nothing declares it (no motion-photo XMP, no SEF trailer)")
            } else {
                plan.reasons.append("the movie was found by its ftyp box at byte \(range.lowerBound), not where the XMP says (\(motion.videoOffset.map(String.init) ?? "nowhere")): the directory is stale")
            }
        } else if (motion.foundBy == .samsungTrailer || motion.foundBy == .mpvd) && (motion.videoOffset != range.lowerBound || motion.videoLength != Int64(range.count)) {
            plan.reasons.append("the movie was found in the \(motion.foundBy?.rawValue ?? "") (\(range.count) bytes at \(range.lowerBound)), which is authoritative: the XMP says \(motion.videoLength.map(String.init) ?? "?") bytes at \(motion.videoOffset.map(String.init) ?? "?")")
        }
        let identifier: String
        if let own = still.contentIdentifier, IdentifierShape.isUUID(own) {
            identifier = own.uppercased()
            plan.reasons.append("identifier \(identifier): the still's own (an earlier conversion kept it)")
        } else {
            identifier = DeterministicIdentifier.make(["convert", facts.path, String(facts.size)].joined(separator: "\n"))
            plan.reasons.append("identifier \(identifier): new, derived from the input, so a rerun writes the same")
        }
        let moment = try Self.moment(forMotionPhoto: motion, movie: movie, options: options)
        plan.edits = ItemEdits(identifier: identifier, moment: moment, brand: true)
        if moment.origin == .guessed, let timestamp = motion.presentationTimestampUs, let last = movie.videoFrames().last {
            plan.reasons.append("the presentation timestamp \(timestamp) µs falls on no frame of the movie (frames shown from 0 to \(SecondsText.format(last.start + last.duration)) s)")
        }
        plan.reasons.append("still moment: \(moment.description)")
        let source = try FileSource(path: facts.path)
        let identity = try SafeFileWriter.Identity.of(facts.path)
        let stillPatch = try MotionPhotoWriter.livePhotoStill(still, source: source, identifier: identifier)
        let placement = StillImagePlacement(seconds: moment.seconds, value: moment.value)
        let moviePatch = try MotionPhotoWriter.livePhotoMovie(still, source: source, identifier: identifier, placement: placement)
        let base = folder + "/" + (name ?? baseName(facts.path))
        plan.files = [
            FilePlan(path: facts.path, destination: base + (still.format == .jpeg ? ".JPG" : ".HEIC"), patch: stillPatch, identity: identity, identifier: identifier),
            FilePlan(path: facts.path, destination: base + ".MOV", patch: moviePatch, identity: identity, identifier: identifier,
                     stillImageTime: placement, quickTimeBrand: true),
        ]
        plan.files[0].recordLedger([LedgerInput(path: facts.path, part: .still)])
        plan.files[1].recordLedger([LedgerInput(path: facts.path, part: .movie)])
        plan.losses = stillPatch.losses + moviePatch.losses
    }

    /// Where an input's bytes are: its own file, or a window of the `.livp` it is a member of.
    struct InputBytes {
        /// The input's path (`ARCHIVE:MEMBER` for a member).
        let path: String
        /// The file on disk (the archive, for a member) and where the input starts in it.
        let file: String
        let base: Int64
        let source: ByteSource
        let window: Range<Int64>?

        init(_ facts: FileFacts) throws {
            path = facts.path
            guard let archivePath = facts.archive else {
                (file, base, source, window) = (facts.path, 0, try FileSource(path: facts.path), nil)
                return
            }
            let archiveSource = try FileSource(path: archivePath)
            let name = String(facts.path.dropFirst(archivePath.count + 1))
            guard let member = try ZipArchive(source: archiveSource, path: archivePath).members.first(where: { $0.name == name && $0.readable }) else {
                throw RepairProblem("\(archivePath) holds no stored member \(name) now")
            }
            (file, base, source, window) = (archivePath, member.data.lowerBound, WindowSource(archiveSource, range: member.data), member.data)
        }

        var ledger: LedgerInput { LedgerInput(path: file, window: window) }

        /// The input's own name: a member's (iCloud's `IMG_3218.JPG.jpeg` as `IMG_3218.jpeg`,
        /// the still's first extension dropped), else the path.
        var name: String {
            // The member's name is what follows `ARCHIVE:` (it may hold colons of its own), its
            // last folder's part.
            guard window != nil, path.hasPrefix(file + ":") else { return path }
            let member = String(path.dropFirst(file.count + 1))
            let memberName = member.split(separator: "/").last.map(String.init) ?? member
            let inner = (memberName as NSString).deletingPathExtension
            guard ["jpg", "jpeg", "heic", "heif"].contains((inner as NSString).pathExtension.lowercased()) else { return memberName }
            return (inner as NSString).deletingPathExtension + "." + (memberName as NSString).pathExtension
        }
    }

    /// A `.livp`'s pair as two loose files: each member's bytes copied as they are in the
    /// archive, under its own name (the last part of it), nothing else written.
    static func planUnpacking(_ plan: inout ItemPlan, folder: String) throws {
        guard let archivePath = plan.item.archive else { throw RepairProblem("not a .livp's pair") }
        let archive = try ZipArchive(source: try FileSource(path: archivePath), path: archivePath)
        for facts in plan.item.files {
            let name = String(facts.path.dropFirst(archivePath.count + 1))
            guard let member = archive.members.first(where: { $0.name == name && $0.readable }) else {
                throw RepairProblem("\(archivePath) holds no stored member \(name) now")
            }
            let output = folder + "/" + unpackedName(name, isMovie: facts.isMovie)
            var file = FilePlan(path: archivePath, destination: output, patch: FilePatch(pieces: [.copy(member.data)], notes: ["the member \(name), copied as it is"]),
                                identity: nil, identifier: facts.contentIdentifier)
            file.recordLedger([LedgerInput(path: archivePath, window: member.data)])
            plan.files.append(file)
        }
        plan.reasons.append("unpacked from \(archivePath): its members' bytes, unchanged, under the names the camera gave them")
    }

    /// A `.livp` member's name as a loose file: iCloud.com names them after the still with a
    /// second extension (`IMG_0001.JPG.jpeg`, `IMG_0001.JPG.mov`), which become `IMG_0001.JPG`
    /// and `IMG_0001.MOV`; a member named as a camera names it keeps its name.
    static func unpackedName(_ member: String, isMovie: Bool) -> String {
        let name = member.split(separator: "/").last.map(String.init) ?? member
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let stills: Set<String> = ["jpg", "jpeg", "heic", "heif"], movies: Set<String> = ["mov", "mp4"]
        guard parts.count >= 3, let inner = parts.dropLast().last, stills.union(movies).contains(inner.lowercased()),
              let outer = parts.last, stills.union(movies).contains(outer.lowercased()) else { return name }
        let base = parts.dropLast(2).joined(separator: ".")
        guard !base.isEmpty else { return name }
        if isMovie { return base + "." + (movies.contains(inner.lowercased()) ? String(inner) : "MOV") }
        return base + "." + (stills.contains(inner.lowercased()) ? String(inner) : String(outer))
    }

    static func planMotionPhoto(_ plan: inout ItemPlan, folder: String, options: RepairOptions, name: String?) throws {
        guard plan.item.kind == .pair, let stillFacts = plan.item.still, let movieFacts = plan.item.movie else { throw RepairProblem("not a Live Photo pair") }
        let stillInput = try InputBytes(stillFacts), movieInput = try InputBytes(movieFacts)
        let stillFile = MediaFile.inspect(source: stillInput.source, path: stillFacts.path, options: .check)
        let movieFile = MediaFile.inspect(source: movieInput.source, path: movieFacts.path, options: .check)
        guard let still = stillFile.still, stillFile.error == nil else { throw RepairProblem("\(stillFacts.path): \(stillFile.error?.description ?? "not a still")") }
        guard let movie = movieFile.movie, movieFile.error == nil else { throw RepairProblem("\(movieFacts.path): \(movieFile.error?.description ?? "not a movie")") }
        guard still.motionPhoto == nil else { throw RepairProblem("\(stillFacts.path) is already a motion photo") }
        let moment = try Self.moment(forLivePhoto: movie, options: options)
        plan.reasons.append("presentation timestamp: \(moment.description)")
        let timestamp = Int64((moment.seconds * 1_000_000).rounded())
        let (source, movieSource) = (stillInput.source, movieInput.source)
        let sound = try encodedSound(movie, input: movieInput, path: movieFacts.path, options: options)
        var patch: FilePatch
        let destination: String
        switch still.format {
        case .jpeg:
            patch = try MotionPhotoWriter.motionPhotoJPEG(still, source: source, movie: movie, movieSource: movieSource, moviePath: movieFacts.path, timestampUs: timestamp, sound: sound)
            destination = folder + "/" + (name ?? baseName(stillInput.name)) + ".MP.jpg"
        case .heic, .heif:
            patch = try MotionPhotoWriter.motionPhotoHEIC(still, source: source, movie: movie, movieSource: movieSource, moviePath: movieFacts.path, timestampUs: timestamp, sound: sound)
            destination = folder + "/" + (name ?? baseName(stillInput.name)) + ".MP.heic"
        default:
            throw RepairProblem("a \(still.format.rawValue) still does not convert to a motion photo (JPEG and HEIC do)")
        }
        if still.contentIdentifier != nil {
            plan.reasons.append("the still keeps its MakerNote identifier \(still.contentIdentifier ?? ""), so converting back restores the pair")
        }
        // Members of a .livp are read where they are in their archive.
        patch = patch.copying(from: stillInput.file, base: stillInput.base)
        patch.pieces = patch.pieces.map { piece in
            if case .copyFile(let path, let range) = piece, path == movieFacts.path {
                return .copyFile(movieInput.file, (range.lowerBound + movieInput.base)..<(range.upperBound + movieInput.base))
            }
            return piece
        }
        var file = FilePlan(path: stillInput.file, destination: destination, patch: patch, identity: try SafeFileWriter.Identity.of(stillInput.file),
                            identifier: still.contentIdentifier)
        file.motionPhotoTimestampUs = timestamp
        file.recordLedger([stillInput.ledger, movieInput.ledger])
        plan.files = [file]
        plan.losses = patch.losses
    }

    /// The movie's first PCM sound track encoded to AAC by the codec helper, which a Motion Photo
    /// 1.0 movie carries where an iPhone's movie has 16-bit PCM; nil with `--audio drop` or no
    /// PCM track. A sound that cannot be encoded stops the plan, naming `--audio drop`.
    static func encodedSound(_ movie: Movie, input: InputBytes, path: String, options: RepairOptions) throws -> (track: UInt32, encoded: EncodedSound)? {
        guard !options.dropSound, let track = movie.tracks.first(where: { track in
            track.handler == "soun" && track.sampleDescriptions.first.map { SoundFields.formats.contains($0.format) } == true
        }) else { return nil }
        do {
            return (track.id, try CodecHelper.sound(CodecRequest(.sound(movie: input.file, track: track.id, window: input.window), budget: .standard)))
        } catch {
            throw RepairProblem("\(path): its PCM sound (track \(track.id)) is not encoded to AAC, which a motion photo's movie carries: \(error); --audio drop converts without the sound")
        }
    }

    /// The frame a motion photo's presentation timestamp falls on; -1 or none: the frame just
    /// before the video's midpoint, as Motion Photo 1.0 tells players to show.
    static func moment(forMotionPhoto motion: MotionPhoto, movie: Movie, options: RepairOptions) throws -> Moment {
        let frames = movie.videoFrames()
        guard let last = frames.last else { throw RepairProblem("the embedded movie has no video frames") }
        if let requested = try requested(frames: frames, options: options) { return requested }
        if let timestamp = motion.presentationTimestampUs, timestamp >= 0 {
            let seconds = Double(timestamp) / 1_000_000
            if let frame = frames.last(where: { $0.start <= seconds + 1e-6 }), seconds < frame.start + frame.duration {
                return Moment(seconds: frame.start, origin: .presentationTimestamp, value: -1)
            }
            let middle = frameBeforeMidpoint(frames, end: last.start + last.duration)
            return Moment(seconds: middle, origin: .guessed, value: -1)
        }
        return Moment(seconds: frameBeforeMidpoint(frames, end: last.start + last.duration), origin: .motionPhotoDefault, value: -1)
    }

    /// A Live Photo's still moment on the frame it falls on; without a valid one, a guess.
    static func moment(forLivePhoto movie: Movie, options: RepairOptions) throws -> Moment {
        let frames = movie.videoFrames()
        guard let last = frames.last else { throw RepairProblem("the movie has no video frames") }
        if let requested = try requested(frames: frames, options: options) { return requested }
        if let seconds = movie.stillImageTime?.seconds,
           let frame = frames.last(where: { $0.start <= seconds + 1e-6 }), seconds < frame.start + frame.duration {
            return Moment(seconds: frame.start, origin: .kept, value: -1)
        }
        return Moment(seconds: frameBeforeMidpoint(frames, end: last.start + last.duration), origin: .guessed, value: -1)
    }

    static func requested(frames: [(start: Double, duration: Double)], options: RepairOptions) throws -> Moment? {
        if let index = options.frame {
            guard index < frames.count else { throw RepairProblem("--frame \(index): the movie has \(frames.count) frames") }
            return Moment(seconds: frames[index].start, origin: .requested, value: -1)
        }
        if let time = options.time {
            guard let frame = frames.last(where: { $0.start <= time + 1e-6 }), time < frame.start + frame.duration else {
                throw RepairProblem("--time \(time): no video frame is shown then")
            }
            return Moment(seconds: frame.start, origin: .requested, value: -1)
        }
        return nil
    }

    static func frameBeforeMidpoint(_ frames: [(start: Double, duration: Double)], end: Double) -> Double {
        let middle = end / 2
        return frames.last(where: { $0.start < middle })?.start ?? frames.first?.start ?? 0
    }
}
