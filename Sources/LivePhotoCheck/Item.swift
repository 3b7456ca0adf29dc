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
}

/// One report item: a pair or a single file, with what the rules found.
public struct CheckItem: Sendable {
    public var kind: ItemKind
    public var still: FileFacts?
    public var movie: FileFacts?
    /// How the pair was formed: by identifier or by file name.
    public var pairedBy: PairingMethod?
    /// Other files carrying the same identifier (when it is shared): the first few, sorted.
    public var sharingIdentifier: [String] = []
    /// How many other files carry it (may exceed `sharingIdentifier.count`).
    public var sharingCount = 0
    public var findings: [Finding] = []

    public enum PairingMethod: String, Sendable, Codable { case identifier, name }

    public init(kind: ItemKind, still: FileFacts? = nil, movie: FileFacts? = nil, pairedBy: PairingMethod? = nil, sharingIdentifier: [String] = []) {
        self.kind = kind
        self.still = still
        self.movie = movie
        self.pairedBy = pairedBy
        self.sharingIdentifier = sharingIdentifier
        self.sharingCount = sharingIdentifier.count
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

    public var worstSeverity: Severity? { findings.map(\.severity).max() }
}
