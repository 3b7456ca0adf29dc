/// What one report item is. Every input file lands in exactly one item.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    /// A still and its movie.
    case pair
    /// A Live Photo still whose movie is absent.
    case stillOnly = "still-only"
    /// A Live Photo movie whose still is absent.
    case movieOnly = "movie-only"
    /// An Android still with its movie inside.
    case motionPhoto = "motion-photo"
    /// No Live Photo marker and no partner: not a failure.
    case notLivePhoto = "not-live-photo"
    case unreadable
    /// A hard link or a byte-identical copy of a file in another item (`duplicateOf`).
    case duplicate
    /// Another rendition of a Live Photo that is in another item (`variantOf`): an edit without
    /// its partner, a re-export, a downsized movie. Legal: it shares the identifier by design.
    case variant
}

/// Where an item of the same identifier group is: its still and movie paths.
public struct ItemReference: Sendable, Equatable {
    public var still: String?
    public var movie: String?
    public init(still: String?, movie: String?) {
        self.still = still
        self.movie = movie
    }
}

/// A file with the same folder and base name as a single file, and why they did not pair.
public struct NameMate: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// One report item: a pair or a single file, with what the rules found.
public struct CheckItem: Sendable {
    public var kind: ItemKind
    // Facts are references themselves (copy on write): an item shares its files' facts with the
    // scan instead of holding copies.
    public var still: FileFacts?
    public var movie: FileFacts?
    /// How the pair was formed: by identifier or by file name.
    public var pairedBy: PairingMethod?
    /// Other files carrying the same identifier (when it is shared): the first few, sorted.
    public var sharingIdentifier: [String] = []
    /// How many other files carry it (may exceed `sharingIdentifier.count`).
    public var sharingCount = 0
    /// Stills and movies in the whole scan that carry the item's identifier (its own included).
    public var carriers = Carriers()
    /// How the item relates to others of its identifier group, its sidecars and same-named files;
    /// nil for most items, so that copying a plain item retains nothing more. Kept in a box of its
    /// own: inline it would make every item and pairing draft 90 bytes larger.
    @Indirect var relations: Relations?

    public struct Relations: Sendable, Equatable {
        var duplicateOf: String?
        var hardLink = false
        var variantOf: ItemReference?
        var variantMarks: [VariantMark] = []
        var identifierConflict = false
        var nameMates: [NameMate] = []
        var sidecars: [String] = []
        var sidecarTimes: [SidecarTime] = []
        var unusableSidecarTimes: [UnusableSidecarTime] = []
        var embeddedMovieOf: String?
    }

    /// A capture time a sidecar of the item states (Takeout `.json`, `.xmp`).
    public struct UnusableSidecarTime: Sendable, Equatable {
        public var path: String
        /// What it gave and why it is not taken.
        public var reason: String
        public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }
    }

    public struct SidecarTime: Sendable, Equatable {
        public var path: String
        public var time: CaptureTime
        public init(path: String, time: CaptureTime) { (self.path, self.time) = (path, time) }
    }

    private mutating func relate(_ change: (inout Relations) -> Void) {
        var value = relations ?? Relations()
        change(&value)
        // Most related items of a large identifier group are conflicts and nothing more: they
        // share one box instead of one each (at a million files, 70 MB).
        if value == Self.conflictOnly.wrappedValue { _relations = Self.conflictOnly } else { relations = value }
    }

    private static let conflictOnly = Indirect<Relations>(wrappedValue: Relations(identifierConflict: true))

    /// The file this one is a hard link or copy of (kind `duplicate`).
    public var duplicateOf: String? {
        get { relations?.duplicateOf }
        set { relate { $0.duplicateOf = newValue } }
    }
    /// Whether `duplicateOf` is the same file under another name (a hard link), not a copy.
    public var hardLink: Bool {
        get { relations?.hardLink ?? false }
        set { relate { $0.hardLink = newValue } }
    }
    /// The `.livp` archive whose members the item's files are, when they all are one's.
    public var archive: String? {
        // Read field by field: a key path through FileFacts' dynamic members is made at run time
        // on every use (it cost 28,000 instructions a pair in the JSON report).
        guard let archive = still?.archive ?? movie?.archive else { return nil }
        if let still, still.archive != archive { return nil }
        if let movie, movie.archive != archive { return nil }
        return archive
    }

    /// The item this one is another rendition of (kind `variant`, or a pair that is an edit or
    /// re-export of another pair).
    public var variantOf: ItemReference? {
        get { relations?.variantOf }
        set { relate { $0.variantOf = newValue } }
    }
    /// The variant marks that set this item's names apart from `variantOf`'s.
    public var variantMarks: [VariantMark] {
        get { relations?.variantMarks ?? [] }
        set { relate { $0.variantMarks = newValue } }
    }
    /// Shares its identifier with files it cannot be told apart from: a true conflict.
    public var identifierConflict: Bool {
        get { relations?.identifierConflict ?? false }
        set { relate { $0.identifierConflict = newValue } }
    }
    /// Single files: files of the same folder and base name that did not pair with it, and why.
    public var nameMates: [NameMate] {
        get { relations?.nameMates ?? [] }
        set { relate { $0.nameMates = newValue } }
    }
    /// The motion photo whose embedded movie this item's movie is, byte for byte (Google
    /// Takeout exports both); `duplicateOf` keeps its meaning (a hard link or a whole-file copy).
    public var embeddedMovieOf: String? {
        get { relations?.embeddedMovieOf }
        set { relate { $0.embeddedMovieOf = newValue } }
    }
    /// Sidecar files (`.AAE`, `.xmp`, Takeout `.json`) that belong to the item's files.
    public var sidecars: [String] {
        get { relations?.sidecars ?? [] }
        set { relate { $0.sidecars = newValue } }
    }
    /// The capture times the item's sidecars state, for `sidecar-time-mismatch`.
    public var sidecarTimes: [SidecarTime] {
        get { relations?.sidecarTimes ?? [] }
        set { relate { $0.sidecarTimes = newValue } }
    }
    /// Sidecars whose date could not be used: `sidecar-time-unusable`.
    public var unusableSidecarTimes: [UnusableSidecarTime] {
        get { relations?.unusableSidecarTimes ?? [] }
        set { relate { $0.unusableSidecarTimes = newValue } }
    }
    public var findings: [Finding] = []
    /// Whether the item will work on each target that judges its kind (`Targets/`).
    public var verdicts = Verdicts()
    /// For each verdict other than pass, the rules whose errors decided it (empty when all pass).
    public var verdictReasons: [VerdictReason] = []

    public struct Carriers: Sendable, Equatable {
        public var stills = 0
        public var movies = 0
        public init(stills: Int = 0, movies: Int = 0) {
            self.stills = stills
            self.movies = movies
        }
    }

    public enum PairingMethod: String, Sendable, Codable { case identifier, name }

    public init(kind: ItemKind, still: FileFacts? = nil, movie: FileFacts? = nil, pairedBy: PairingMethod? = nil, sharingIdentifier: [String] = []) {
        self.kind = kind
        self.still = still
        self.movie = movie
        self.pairedBy = pairedBy
        self.sharingIdentifier = sharingIdentifier
        self.sharingCount = sharingIdentifier.count
    }

    /// What pairing decided about the item, without its files' facts and its findings (a
    /// bounded check keeps these for large groups and reads the facts again when the item is
    /// written). Relations and the sharer list equal to `previous`'s share its storage: the
    /// items of one large identifier group mostly hold the same ones.
    public func decisions(sharingWith previous: CheckItem?) -> CheckItem {
        var decisions = self
        decisions.still = nil
        decisions.movie = nil
        decisions.findings = []
        if let previous {
            if previous.sharingIdentifier == sharingIdentifier { decisions.sharingIdentifier = previous.sharingIdentifier }
            if previous.relations == relations { decisions._relations = previous._relations }
        }
        return decisions
    }

    /// The single file of a single-file item, else the still.
    public var primary: FileFacts? { still ?? movie }
    public var files: [FileFacts] { [still, movie].compactMap { $0 } }
    public var fileCount: Int { (still == nil ? 0 : 1) + (movie == nil ? 0 : 1) }

    /// `transform` over the still, then the movie (those present), without first building an
    /// array of copies of them as `files` does (rules call this for every item).
    public func compactMapFiles<T>(_ transform: (FileFacts) throws -> T?) rethrows -> [T] {
        var result: [T] = []
        if let still, let value = try transform(still) { result.append(value) }
        if let movie, let value = try transform(movie) { result.append(value) }
        return result
    }

    /// The identifier the item is known by: the still's, else the movie's.
    public var contentIdentifier: String? { still?.contentIdentifier ?? movie?.contentIdentifier }

}
