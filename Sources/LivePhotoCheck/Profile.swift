/// Where a Live Photo or a motion photo is shown: the targets lpcheck judges items for, and the
/// profile a check runs for (`--profile`, `profile:` in `.lpcheck.yml`).
public enum Target: String, Sendable, CaseIterable {
    /// Photos on iPhone, iPad and Mac: the pair plays as a Live Photo.
    case photos
    /// The lock screen: a Live Photo wallpaper moves ("Motion not available" otherwise).
    case wallpaper
    /// Google Photos: a Motion Photo 1.0 file plays its movie.
    case googlePhotos = "google-photos"

    /// One bit a target, for sets of targets held in a byte.
    var bit: UInt8 {
        switch self {
        case .photos: return 1
        case .wallpaper: return 2
        case .googlePhotos: return 4
        }
    }

    /// Whether a check for this target reports a rule's findings. `photos` reports every rule but
    /// those of the wallpaper alone; `wallpaper` every rule; `google-photos` the rules of motion
    /// photos, of damage and those of no target (pairing relations, agreement, expectations).
    public func reports(_ rule: RuleDescription) -> Bool {
        switch self {
        case .photos: return rule.targets != [.wallpaper]
        case .wallpaper: return true
        case .googlePhotos: return rule.targets.isEmpty || rule.targets.contains(.googlePhotos)
        }
    }

    /// Whether items of `kind` get a verdict for this target: the halves and pairs of Live
    /// Photos for Photos and the wallpaper, motion photos for Google Photos.
    public func judges(_ kind: ItemKind) -> Bool {
        switch self {
        case .photos, .wallpaper: return kind == .pair || kind == .stillOnly || kind == .movieOnly
        case .googlePhotos: return kind == .motionPhoto
        }
    }
}

/// Whether an item will work on a target: `fail` when a rule of that target of high or medium
/// confidence finds an error, `uncertain` when only rules of low confidence do, else `pass`.
public enum Verdict: String, Sendable, CaseIterable {
    case pass, fail, uncertain
}

/// An item's verdict for each target that judges its kind.
public struct Verdicts: Sendable, Equatable {
    public var photos: Verdict?
    public var wallpaper: Verdict?
    public var googlePhotos: Verdict?

    public init() {}

    public subscript(target: Target) -> Verdict? {
        get {
            switch target {
            case .photos: return photos
            case .wallpaper: return wallpaper
            case .googlePhotos: return googlePhotos
            }
        }
        set {
            switch target {
            case .photos: photos = newValue
            case .wallpaper: wallpaper = newValue
            case .googlePhotos: googlePhotos = newValue
            }
        }
    }

    /// The targets with a verdict, in `Target.allCases` order.
    public var all: [(target: Target, verdict: Verdict)] { Target.allCases.compactMap { target in self[target].map { (target, $0) } } }
}
