/// Marks that exporters add to a file name when they write another rendition or another copy
/// of the same photo. Pairing removes them to see which files belong together; the report names
/// the mark it removed. Each mark says where it comes from.
public enum VariantMark: String, Sendable, CaseIterable, Codable {
    /// ` (1)`, `(2)`: Finder, Photos' export and browsers number a name that is already taken
    /// (`IMG_4120 (1).HEIC`).
    case copyNumber = "copy-number"
    /// `-edited`: Google Photos and Takeout write the edited rendition beside the original
    /// (`IMG_0001-edited.JPG`).
    case edited
    /// `IMG_E`: Photos and iCloud exports name the edited rendition of `IMG_1234` `IMG_E1234`,
    /// still and movie alike, with the original's identifier.
    case photosEdit = "photos-edit"
    /// `_HEVC`: iCloud downloads name a Live Photo's movie `IMG_1234_HEVC.MOV`.
    case hevc
    /// Google Takeout shortens long names (its sidecar names stop at 51 characters): a name that
    /// is the start of another, long one.
    case truncated
}

/// A file name reduced to what identifies the shot.
public struct NameKey: Sendable, Equatable {
    /// Lower-cased base name with the variant marks removed.
    public var stem: String
    public var marks: [VariantMark]

    public init(baseName: String) {
        var name = baseName.lowercased()
        var marks: [VariantMark] = []
        // Marks stack (`IMG_E1234 (1)`, `IMG_1234-edited(1)`): peel from the end, then the start.
        var changed = true
        while changed {
            changed = false
            if let stripped = Self.strippingCopyNumber(name) {
                name = stripped
                marks.append(.copyNumber)
                changed = true
            }
            if name.hasSuffix("-edited"), name.count > 7 {
                name.removeLast(7)
                marks.append(.edited)
                changed = true
            }
            if name.hasSuffix("_hevc"), name.count > 5 {
                name.removeLast(5)
                marks.append(.hevc)
                changed = true
            }
        }
        if name.hasPrefix("img_e"), name.count > 5, name.dropFirst(5).allSatisfy(\.isNumber) {
            name = "img_" + name.dropFirst(5)
            marks.append(.photosEdit)
        }
        stem = name
        self.marks = marks
    }

    /// `name (12)` or `name(12)` without the number; nil when there is none.
    static func strippingCopyNumber(_ name: String) -> String? {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        let digits = name[name.index(after: open)..<name.index(before: name.endIndex)]
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isNumber), open != name.startIndex else { return nil }
        var stem = String(name[..<open])
        if stem.hasSuffix(" ") { stem.removeLast() }
        return stem.isEmpty ? nil : stem
    }

    /// Names shorter than this are never taken for a truncation of a longer one.
    static let truncationMinimum = 30

    /// Whether the two names are renditions of one shot: the same stem, one stem the start of the
    /// other followed by a separator (`IMG_2002` and `IMG_2002_sm`), or a long stem cut short.
    public func isRelated(to other: NameKey) -> Bool {
        if stem == other.stem { return true }
        let (short, long) = stem.count <= other.stem.count ? (stem, other.stem) : (other.stem, stem)
        guard !short.isEmpty, long.hasPrefix(short) else { return false }
        if short.count >= Self.truncationMinimum { return true }
        let next = long[long.index(long.startIndex, offsetBy: short.count)]
        return !(next.isLetter || next.isNumber)
    }

    /// The mark that makes `self` another rendition of `other`, for messages.
    public func marksBeyond(_ other: NameKey) -> [VariantMark] {
        var extra = marks.filter { !other.marks.contains($0) }
        if extra.isEmpty, stem != other.stem, stem.count < other.stem.count, stem.count >= Self.truncationMinimum { extra = [.truncated] }
        return extra
    }
}
