import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats

/// Where the still goes in the movie, and how that moment was chosen.
public struct Moment: Sendable, Equatable {
    public enum Origin: String, Sendable {
        /// The movie's own moment, valid, kept.
        case kept
        /// `--time` or `--frame`.
        case requested
        /// The movie had no valid moment: the middle frame, a guess.
        case guessed
        /// `make` without --time or --frame: the middle frame, its documented default.
        case middle
        /// `convert`: the frame a motion photo's presentation timestamp falls on.
        case presentationTimestamp = "presentation-timestamp"
        /// `convert`: a motion photo without a timestamp (or -1): the frame just before the
        /// video's midpoint, which Motion Photo 1.0 tells players to show.
        case motionPhotoDefault = "motion-photo-default"
        /// `make CLIP --lossless-still`: moved to the sync sample nearest the moment asked for,
        /// so that the still is that sample's coded picture.
        case syncSample = "sync-sample"
    }

    public var seconds: Double
    public var origin: Origin
    /// The still-image-time value to write (-1 as cameras, or the old valid value).
    public var value: Int8

    public init(seconds: Double, origin: Origin, value: Int8) {
        (self.seconds, self.origin, self.value) = (seconds, origin, value)
    }

    public var description: String {
        let time = SecondsText.format(seconds) + " s"
        switch origin {
        case .kept: return "\(time) (the movie's own moment, kept)"
        case .requested: return "\(time) (as asked)"
        case .guessed: return "\(time) (GUESSED: the middle frame; the movie's moment was lost; give --time or --frame to choose)"
        case .middle: return "\(time) (the frame shown at the middle; --time or --frame choose another)"
        case .presentationTimestamp: return "\(time) (the motion photo's presentation timestamp, on the frame it falls on)"
        case .motionPhotoDefault: return "\(time) (the frame just before the video's midpoint: the motion photo gives no timestamp, and Motion Photo 1.0 says players show that frame)"
        case .syncSample: return "\(time) (moved by --lossless-still to the nearest sync sample, whose coded picture the still is)"
        }
    }
}

/// What to change in one item, by kind: the planner decides, the writers carry it out.
public struct ItemEdits: Sendable {
    /// Write this identifier into the still and the movie.
    public var identifier: String?
    /// Write a still-image-time track at this moment.
    public var moment: Moment?
    /// Make the movie's major brand QuickTime.
    public var brand = false
    /// Write the still's capture instant into the movie.
    public var captureDate: CaptureDateEdit?
    /// Add the lock screen's keys to the movie (`make --profile wallpaper`).
    public var wallpaperKeys = false
    /// Show only this window of the movie (make CLIP of a long clip); `moment` is in its time.
    public var window: PresentationWindow?
    /// The still is the movie's frame at the moment (`MovieEdits.stillIsFrame`).
    public var stillIsFrame = false

    public init(identifier: String? = nil, moment: Moment? = nil, brand: Bool = false, captureDate: CaptureDateEdit? = nil) {
        self.identifier = identifier
        self.moment = moment
        self.brand = brand
        self.captureDate = captureDate
    }

    /// The fix kinds these edits carry out.
    public var kinds: Set<FixKind> {
        var kinds = Set<FixKind>()
        if identifier != nil { kinds.insert(.identifier) }
        if moment != nil { kinds.formUnion([.stillImageTimeTrack, .cdscReference]) }
        if brand { kinds.insert(.brand) }
        if captureDate != nil { kinds.insert(.captureTime) }
        return kinds
    }
}

/// What a planned file's bytes are.
public enum FileContent: Sendable {
    /// Pieces of the inputs and new bytes, staged by the safe writer.
    case patch(FilePatch)
    /// What the codec helper makes, written into the writer's temporary as it comes.
    case produced(ProducedContent)
}

/// A file the codec helper makes: the request, and what its answer becomes.
public struct ProducedContent: Sendable {
    public enum Form: Sendable {
        /// A movie of the answer's samples (`CodecAnswer`), shown through `turn`, in `container`.
        case movie(turn: TrackMatrix, container: MovieContainer)
        /// The answer's bytes as they come (a GIF).
        case bytes
    }
    public var request: CodecRequest
    public var form: Form
    public init(request: CodecRequest, form: Form) { (self.request, self.form) = (request, form) }
}

/// What a written file is read back against before it is renamed, besides the markers its
/// plan's fields name.
public enum ReadBack: Sendable {
    /// The markers alone (identifier, still-image-time, motion photo) and the item's rules.
    case markers
    /// A movie made of the source's samples (`LoopMovieWriter`): each sample where the plan
    /// lists it, byte for byte, the planned duration, no Live Photo metadata left. `source` is
    /// the file holding the movie, `range` its bytes there (a motion photo's movie).
    case samples(LoopMovieWriter.Made, source: String, range: Range<Int64>?)
    /// An encoded movie: these frames' durations in `timescale` ticks, shown through `matrix`.
    case frames(durations: [UInt32], timescale: UInt32, matrix: TrackMatrix)
    /// A GIF: complete, looping forever, `width`×`height`, these delays (centiseconds).
    case gif(width: Int, height: Int, delays: [Int])
    /// A still without motion (`strip`): no movie found in it by any means (XMP, `mpvd`, a
    /// trailer, an `ftyp` after the image), no content identifier.
    case plainStill
}

/// What will be written to one file, and what must hold when it is read back.
public struct FilePlan: Sendable {
    public var path: String
    public var destination: String
    public var content: FileContent
    /// The content's patch, when it is one.
    public var patch: FilePatch? {
        if case .patch(let patch) = content { return patch }
        return nil
    }
    public var identity: SafeFileWriter.Identity?
    /// Expected after writing.
    public var identifier: String?
    public var stillImageTime: StillImagePlacement?
    public var quickTimeBrand = false
    /// A motion photo is written: its movie must be found where its XMP says, with this timestamp.
    public var motionPhotoTimestampUs: Int64?
    public var readBack = ReadBack.markers
    /// What the output keeps, changes, adds and drops of what it is written from (`Ledger.swift`).
    public var ledger: PreservationLedger?
    /// Why there is no ledger.
    public var ledgerProblem: String?
    /// What the ledger compares the output with.
    public var ledgerInputs: [LedgerInput] = []
    /// An input carries Content Credentials that this output will not keep binding (its manifest
    /// dropped, or its data hash over bytes this write changes): what and why. The plan says it,
    /// the ledger records it, `--keep-credentials` refuses the write.
    public var credentialsLost: String?
    /// The output is made, not edited (make's still from a movie's frame): it is read back
    /// under its own name, and `path` is only where its copied pieces come from.
    public var made = false
    /// A made output that replaces an input of another name (keyphoto in place: the new still
    /// over the old one): written as a replacement is, the old file's owner, group and mode
    /// kept, and backed up when backups are kept.
    public var replaces = false
    /// A new file beside the inputs (export's): refused when its name is an input or a link,
    /// or an existing file without `--force`, when it is written.
    public var newOutput = false
    /// How long the written movie or GIF lasts, and its frames, when the plan knows.
    public var seconds: Double?
    public var frames: Int?

    public init(path: String, destination: String, patch: FilePatch, identity: SafeFileWriter.Identity? = nil, identifier: String? = nil,
                stillImageTime: StillImagePlacement? = nil, quickTimeBrand: Bool = false) {
        (self.path, self.destination, self.content, self.identity) = (path, destination, .patch(patch), identity)
        (self.identifier, self.stillImageTime, self.quickTimeBrand) = (identifier, stillImageTime, quickTimeBrand)
    }

    /// A file the codec helper makes from `path`.
    public init(path: String, destination: String, produced: ProducedContent) {
        (self.path, self.destination, self.content) = (path, destination, .produced(produced))
    }
}

/// How the written files of an item are held to its check before they are renamed.
public enum ItemVerification: Sendable {
    /// As the item's files again: the fixed rules pass, no error the inputs lacked.
    case item
    /// Each output as a file of its own (an export): no damage rule finds anything.
    case outputsAlone
}

/// The repair of one item: the files to write, the findings it fixes and those it leaves.
public struct ItemPlan: Sendable {
    public var item: CheckItem
    public var edits = ItemEdits()
    public var files: [FilePlan] = []
    public var fixes: [Finding] = []
    public var leaves: [Finding] = []
    /// Why the planner chose what it chose (which file keeps an identifier, where the moment comes from).
    public var reasons: [String] = []
    /// What writing would lose: the plan waits for `--force`.
    public var losses: [String] = []
    /// Why a fixable finding cannot be fixed here.
    public var problems: [String] = []
    /// Items (their files joined by " + ") whose repair this plan's fixes wait for: the keeper of a
    /// conflicting identifier writes nothing, its conflict ends when the others get new identifiers.
    public var settledBy: [String] = []

    /// Error findings about damage in the files the outputs are written from, which the outputs
    /// would carry on: the plan waits for `--force`.
    public var damage: [String] = []

    public var needsForce: Bool { !losses.isEmpty || !damage.isEmpty }
    /// The written files must bring in no finding at all (any severity) that the inputs did
    /// not have: `make CLIP`, whose pair is promised to pass `--fail-on info`.
    public var proveClean = false
    public var verification = ItemVerification.item
    /// The still was made from the movie's frames (`make CLIP`): read back, it is compared with
    /// the frames shown at and beside the written movie's still-image-time (the codec helper,
    /// within this budget), and must show the marked one.
    public var stillShowsMoment: CodecBudget?

    /// Fills `damage` from the item's findings: errors of the damage rules about a
    /// file that an output is written from, which this plan does not fix.
    /// `sources` are the files written from (by default those of the plan's files).
    mutating func noteInputDamage(from sources: Set<String>? = nil) {
        let sources = sources ?? Set(files.map(\.path))
        damage = item.findings.compactMap { finding in
            guard finding.severity >= .error, let path = finding.path, sources.contains(path), !fixes.contains(finding),
                  let rule = RuleRegistry.rule(finding.rule), rule.description.marksDamage else { return nil }
            return "\(path) is damaged (\(finding.rule)): \(finding.message)"
        }
    }

    /// What `apply` says when it refuses a plan whose damage or losses were not accepted.
    var refusal: String {
        "not applied: " + (damage.map { "\($0) (needs --allow-damaged)" } + losses.map { "\($0) (needs --allow-loss)" }).joined(separator: "; ")
    }
    /// The key `settledBy` names items by.
    public var key: String { item.files.map(\.path).joined(separator: " + ") }
}

public struct ItemOutcome: Sendable {
    public var plan: ItemPlan
    public var written: [SafeFileWriter.Written] = []
    public var failure: String?
}
