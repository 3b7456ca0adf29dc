/// What backs a rule: each source it rests on, and how sure lpcheck is that the rule says what
/// the platform does. A finding's message never claims more than its rule's confidence.
public struct Evidence: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A published format specification (ISO/IEC, ITU, Apple's QuickTime File Format, Motion Photo 1.0).
        case specification
        /// A vendor's own documentation (Apple Developer, Android Developers).
        case vendorDocumentation = "vendor-documentation"
        /// Code the platform's reader runs or is built from (Google's libmotionphoto reading
        /// path: where it takes the movie from, which XMP it reads).
        case referenceImplementation = "reference-implementation"
        /// A conformance checker the platform's authors publish (Google's motion_photo_checker.cc):
        /// its letter says what a valid file is, not what the reader plays.
        case conformanceChecker = "conformance-checker"
        /// What lpcheck and ExifTool measured on the camera files of `../shared/samples`.
        case measurement
        /// Reports of users and tool authors (issue threads), which may disagree.
        case practitionerReports = "practitioner-reports"
        /// What follows from the bytes alone (a file that cannot be read, two files that are equal).
        case fileContent = "file-content"
    }

    public var kind: Kind
    /// The source named so that a reader can find it.
    public var citation: String

    public init(_ kind: Kind, _ citation: String) { (self.kind, self.citation) = (kind, citation) }

    public static func specification(_ citation: String) -> Evidence { Evidence(.specification, citation) }
    public static func vendor(_ citation: String) -> Evidence { Evidence(.vendorDocumentation, citation) }
    /// Code the platform's reader runs.
    public static func reference(_ citation: String) -> Evidence { Evidence(.referenceImplementation, citation) }
    /// A published conformance checker's letter.
    public static func checker(_ citation: String) -> Evidence { Evidence(.conformanceChecker, citation) }
    public static func measured(_ citation: String) -> Evidence { Evidence(.measurement, citation) }
    public static func practitioners(_ citation: String) -> Evidence { Evidence(.practitionerReports, citation) }
    public static func fileContent(_ citation: String) -> Evidence { Evidence(.fileContent, citation) }

    /// The camera pairs and motion photos every measurement names.
    static let samples = "the camera files of ../shared/samples (FACTS.tsv, read with ExifTool 12.57)"
    static let checker = "Google libmotionphoto, motion_photo_checker.cc"
    /// Where Google's reader takes a motion photo's movie from, and when it calls a file one.
    static let readerJPEG = "Google libmotionphoto, motion_photo.cc (GetMp4FileOffset: in JPEG the movie is the last Item:Length bytes of the item whose Item:Semantic is MotionPhoto)"
    static let readerHEIF = "Google libmotionphoto, heif_container_splitter.cc and motion_photo_heif_info_builder.cc (in HEIF the movie is the payload of the top-level mpvd box)"
    static let readerMotionPhoto = "Google libmotionphoto, motion_photo.cc (UpdateIsMotionPhotoFromMetadata: GCamera:MotionPhoto = 1 makes a motion photo)"
    static let motionPhotoFormat = "Motion Photo format 1.0, developer.android.com/media/platform/motion-photo-format"
    static let quickTimeMetadata = "Apple, QuickTime File Format Specification: Metadata (keys, ilst, the 'mdta' handler)"
    static let isoBMFF = "ISO/IEC 14496-12 (ISO base media file format)"
}

extension Evidence {
    /// What backs a rule for a target whose verdict follows the platform's reader
    /// (`Target.followsReader`), from its evidence: code the reader runs or the bytes themselves
    /// (`reader`), else a published checker's letter (`checker`), else a format page's
    /// (`specification`), else measurements and reports (`observation`).
    public enum Backing: String, Sendable, CaseIterable {
        case reader, checker, specification, observation
    }

    /// The strongest backing among `evidence`.
    public static func backing(_ evidence: [Evidence]) -> Backing {
        // Closures, not key paths or a set: this runs for every rule of every check.
        func cites(_ kinds: Kind...) -> Bool { evidence.contains { source in kinds.contains(source.kind) } }
        if cites(.referenceImplementation, .fileContent) { return .reader }
        if cites(.conformanceChecker) { return .checker }
        if cites(.specification, .vendorDocumentation) { return .specification }
        return .observation
    }
}

/// How sure a rule is that what it finds changes what the platform does.
public enum Confidence: String, Sendable, CaseIterable, Comparable {
    /// Specified, or what the platform's own reader checks, or measured on camera files.
    case high
    /// Consistent with the measurements and reports, not specified.
    case medium
    /// Reported in the field, contradicted or unconfirmed: findings say "may".
    case low

    public static func < (lhs: Confidence, rhs: Confidence) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) > (allCases.firstIndex(of: rhs) ?? 0)
    }
}
