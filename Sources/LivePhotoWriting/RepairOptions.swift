import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// Which identifier wins when still and movie disagree.
public enum IdentifierPreference: String, Sendable, CaseIterable {
    case still, movie, new
}

public struct RepairOptions: Sendable {
    public var prefer: IdentifierPreference = .still
    /// Where to place the still (seconds in movie time), or which video frame (0-based). Either
    /// moves a valid moment too.
    public var time: Double?
    public var frame: Int?
    public var backup = true
    /// `make`: the identifier to write (else a deterministic one).
    public var identifier: String?
    /// Also act on info findings (by default repair fixes errors and warnings only).
    public var includeInfo = false
    /// Replace existing outputs; and, as before the two flags below were split from it, apply
    /// plans that lose something or write from damaged input.
    public var force = false
    /// Apply plans that lose what they name (keys of a track, a vendor MakerNote, trailer records).
    public var allowLoss = false
    /// Apply plans that write from damaged input, carrying its damage on (adding none).
    public var allowDamaged = false
    /// Refuse a write after which an input's Content Credentials no longer bind.
    public var keepCredentials = false
    /// convert to a motion photo: leave a PCM sound out instead of encoding it to AAC (`--audio drop`).
    public var dropSound = false
    /// Keep each replaced file's access and modification times (owner, group, mode and extended
    /// attributes are always kept).
    public var keepTimes = true
    /// Act on the capture-time rules: write the still's capture instant into its movie.
    public var alignDates = false

    public init() {}

    /// Whether a plan's losses and input damage are accepted: each by its own flag, or --force.
    public func accepts(_ plan: ItemPlan) -> Bool {
        (plan.losses.isEmpty || force || allowLoss) && (plan.damage.isEmpty || force || allowDamaged)
    }
}
