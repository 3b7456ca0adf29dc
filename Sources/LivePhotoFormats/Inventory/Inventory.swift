/// What a file holds, part by part, each named and with a digest of its bytes or value: what the
/// preservation ledger compares between the files a write reads and the file it writes. Names
/// are stable across writes (HEIF item IDs, JPEG markers with their labels, EXIF IFD and tag,
/// XMP namespace and property, track IDs with their handler and formats, metadata keys), so an
/// entry of the input and one of the output with the same area and name are the same part.
public struct Inventory: Sendable, Equatable {
    public enum Area: String, Sendable, CaseIterable, Codable {
        case heifItem = "heif-item", heifReference = "heif-reference", heifProperty = "heif-property"
        case jpegSegment = "jpeg-segment", mpfImage = "mpf-image"
        case exif, makerNote = "maker-note", xmp, icc
        case track, key, userData = "user-data"

        /// Its place in `allCases`: the order a ledger lists areas in.
        var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        /// Whether the area belongs to the still or to the movie (a motion photo holds both).
        public var part: Part {
            switch self {
            case .track, .key, .userData: return .movie
            default: return .still
            }
        }
    }

    public enum Part: String, Sendable, Codable { case still, movie }

    public struct Entry: Sendable, Hashable {
        public var area: Area
        public var name: String
        /// FNV-1a of the part's bytes or value (0 when the name says it all, as a reference).
        public var digest: UInt64
    }

    public private(set) var entries: [Entry] = []
    private var used = Set<String>()
    /// Bytes the digests may still read: items, images and ranges that overlap (a hostile file
    /// can point every item at the whole file) would otherwise be read again and again.
    var budget: Int64 = 0
    /// Set when a digest was not computed for want of budget: the inventory is refused.
    var overBudget = false

    /// Takes `count` bytes from the budget; false (and the inventory refused) when it is spent.
    mutating func spend(_ count: Int64) -> Bool {
        guard count <= budget else {
            overBudget = true
            return false
        }
        budget -= count
        return true
    }

    public init() {}

    /// Adds an entry; a name already used in its area gets " #2", " #3", ... in the order met.
    mutating func add(_ area: Area, _ name: String, digest: UInt64) {
        var unique = name
        var ordinal = 1
        while used.contains(area.rawValue + "\u{0}" + unique) {
            ordinal += 1
            unique = "\(name) #\(ordinal)"
        }
        used.insert(area.rawValue + "\u{0}" + unique)
        entries.append(Entry(area: area, name: unique, digest: digest))
    }

    mutating func add(_ area: Area, _ name: String, text: String) {
        var hash = FNV1a()
        hash.add(text)
        add(area, name, digest: hash.value)
    }

    /// The entries of one part (a motion photo's still without its movie, or its movie alone).
    public func only(_ part: Part) -> Inventory {
        var result = Inventory()
        result.entries = entries.filter { $0.area.part == part }
        result.used = Set(result.entries.map { $0.area.rawValue + "\u{0}" + $0.name })
        return result
    }

    /// This inventory and another's entries (a still and a movie joined into one motion photo).
    public func merging(_ other: Inventory) -> Inventory {
        var result = self
        for entry in other.entries { result.add(entry.area, entry.name, digest: entry.digest) }
        return result
    }

    /// Reads what a file holds. A part that cannot be read is named with the reason as its
    /// value, so it compares equal only to the same failure.
    public static func read(source: ByteSource, path: String) throws -> Inventory {
        let file = MediaFile.inspect(source: source, path: path, options: .full)
        if let error = file.error { throw error }
        var inventory = Inventory()
        inventory.budget = source.size.multipliedReportingOverflow(by: 4).overflow ? .max : source.size * 4 + (16 << 20)
        if let movie = file.movie {
            inventory.addMovie(movie, source: source)
        } else if let still = file.still {
            inventory.addStill(still, source: source)
            if let movie = still.embeddedMovie, let range = still.motionPhoto?.movieRange {
                inventory.addMovie(movie, source: WindowSource(source, range: range))
            }
        }
        guard !inventory.overBudget else {
            throw ParseError(.limitExceeded, "its parts overlap: reading each would read more than four times the file", offset: 0, path: "")
        }
        return inventory
    }
}

/// What a write did to each named part of its input: the preservation ledger of one output file.
public struct PreservationLedger: Sendable, Equatable {
    public struct Name: Sendable, Hashable, Comparable {
        public var area: Inventory.Area
        public var name: String
        public init(area: Inventory.Area, name: String) { (self.area, self.name) = (area, name) }
        public var text: String { "\(area.rawValue) \(name)" }
        public static func < (lhs: Name, rhs: Name) -> Bool {
            lhs.area == rhs.area ? lhs.name < rhs.name : lhs.area.order < rhs.area.order
        }
    }

    public var kept: [Name] = []
    public var changed: [Name] = []
    public var added: [Name] = []
    public var dropped: [Name] = []

    public init() {}

    /// Compares what the write read with what it wrote, by area and name.
    public init(input: Inventory, output: Inventory) {
        var before: [Name: UInt64] = [:]
        for entry in input.entries { before[Name(area: entry.area, name: entry.name)] = entry.digest }
        var seen = Set<Name>()
        for entry in output.entries {
            let name = Name(area: entry.area, name: entry.name)
            seen.insert(name)
            switch before[name] {
            case nil: added.append(name)
            case entry.digest: kept.append(name)
            default: changed.append(name)
            }
        }
        dropped = before.keys.filter { !seen.contains($0) }
        kept.sort()
        changed.sort()
        added.sort()
        dropped.sort()
    }

    /// The ledger as a plan prints it: what was kept, counted by area, then every part changed,
    /// added or dropped by name.
    public var lines: [String] {
        let counts = Inventory.Area.allCases.compactMap { area -> String? in
            let count = kept.filter { $0.area == area }.count
            return count > 0 ? "\(area.rawValue) \(count)" : nil
        }
        var lines = ["kept: " + (counts.isEmpty ? "nothing" : counts.joined(separator: ", "))]
        for (word, names) in [("changed", changed), ("added", added), ("dropped", dropped)] where !names.isEmpty {
            lines.append("\(word): " + names.map(\.text).joined(separator: "; "))
        }
        return lines
    }
}
