/// Every rule, in catalogue order. A new rule is one file in `Rules/` and one line here.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        StillMissingIdentifier.self,
        MovieMissingIdentifier.self,
        IdentifierMismatch.self,
        IdentifierNotUUID.self,
        IdentifierNotCanonical.self,
        IdentifierShared.self,
        IdentifierVariant.self,
        DuplicateFile.self,
        MovieEmbeddedInMotionPhoto.self,
        MetadataHandlerNotMdta.self,
        IdentifierInUserData.self,
        MovieAbsent.self,
        StillAbsent.self,
        UnexpectedItem.self,
        StillImageTimeMissing.self,
        StillImageTimeNoSample.self,
        StillImageTimeDataType.self,
        StillImageTimeValue.self,
        StillImageTimeOutsideMovie.self,
        StillImageTimeNotOnFrame.self,
        StillImageTimeDuration.self,
        ZeroDurationFrames.self,
        IrregularFrameDurations.self,
        NoVideoTrack.self,
        StillFormatUnsupported.self,
        ExtensionMismatch.self,
        ContentCredentialsPresent.self,
        ContentCredentialsUnbound.self,
        MovieNotQuickTime.self,
        MovieTooLong.self,
        MissingCdscReference.self,
        MotionPhotoVideoMissing.self,
        MotionPhotoVideoTruncated.self,
        MotionPhotoMpvdEmpty.self,
        MotionPhotoDirectoryMismatch.self,
        MotionPhotoVideoNotLast.self,
        MotionPhotoTimestampOutside.self,
        MotionPhotoXMPNotPrimary.self,
        MotionPhotoVersion.self,
        MotionPhotoDirectoryInvalid.self,
        MotionPhotoSizeSum.self,
        MotionPhotoMpvdMismatch.self,
        MotionPhotoSamsungLayout.self,
        MotionPhotoTimestampUnspecified.self,
        MotionPhotoTimestampNegative.self,
        MotionPhotoVideoTracks.self,
        MotionPhotoUnusualTracks.self,
        MotionPhotoMetadataTrack.self,
        MotionPhotoLocatorsDisagree.self,
        MotionPhotoMicroVideoOnly.self,
        MotionPhotoMovieQuickTime.self,
        CaptureTimeMismatch.self,
        CaptureZoneMismatch.self,
        SidecarTimeMismatch.self,
        SidecarTimeUnusable.self,
        MovieHeaderTimeMismatch.self,
        CaptureDeviceMismatch.self,
        CaptureSoftwareMismatch.self,
        CapturePlaceMismatch.self,
        OrientationMismatch.self,
        PictureAspectMismatch.self,
        WallpaperMovieTooLong.self,
        WallpaperStillOnFirstFrame.self,
        WallpaperKeysMissing.self,
        WallpaperStillNotHEIC.self,
        WallpaperDimensionsMismatch.self,
        UnreadableFile.self,
        TruncatedFile.self,
        SampleDataOutsideFile.self,
        SampleTablesInconsistent.self,
        DamagedStructure.self,
    ]

    /// Type names, for the test that every rule file is registered.
    public static var typeNames: [String] { all.map { String(describing: $0) } }

    public static var descriptions: [RuleDescription] { all.map { describe($0) } }

    /// A rule's description with `autofixable` derived from its fix kind.
    public static func describe(_ rule: any Rule.Type) -> RuleDescription {
        var description = rule.description
        description.autofixable = fixKind(of: rule) != nil
        return description
    }

    public static func fixKind(of rule: any Rule.Type) -> FixKind? { rule.repairKind }

    /// The fix kind of a rule identifier, for findings (nil: repair does not fix it).
    public static func fixKind(_ identifier: String) -> FixKind? { fixKinds[identifier] ?? nil }

    static let fixKinds: [String: FixKind?] = Dictionary(all.map { ($0.description.identifier, fixKind(of: $0)) }, uniquingKeysWith: { first, _ in first })

    /// The fixable rules of some kinds, for re-checking a repaired item.
    public static func rules(fixing kinds: Set<FixKind>) -> [any Rule.Type] {
        all.filter { fixKind(of: $0).map(kinds.contains) ?? false }
    }

    public static func rule(_ identifier: String) -> (any Rule.Type)? {
        all.first { $0.description.identifier == identifier }
    }
}
