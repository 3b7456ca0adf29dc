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
    /// Apply plans that lose something (keys of a track, the link between hard-linked names).
    public var force = false
    /// Refuse a write after which an input's Content Credentials no longer bind.
    public var keepCredentials = false
    /// Keep each replaced file's access and modification times (owner, group, mode and extended
    /// attributes are always kept).
    public var keepTimes = true
    /// Act on the capture-time rules: write the still's capture instant into its movie.
    public var alignDates = false

    public init() {}
}
