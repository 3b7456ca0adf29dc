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
        MetadataHandlerNotMdta.self,
        IdentifierInUserData.self,
        MovieAbsent.self,
        StillAbsent.self,
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
        MovieNotQuickTime.self,
        MovieTooLong.self,
        MissingCdscReference.self,
        MotionPhotoVideoMissing.self,
        UnreadableFile.self,
        TruncatedFile.self,
        DamagedStructure.self,
    ]

    /// Type names, for the test that every rule file is registered.
    public static var typeNames: [String] { all.map { String(describing: $0) } }

    public static var descriptions: [RuleDescription] { all.map { $0.description } }

    public static func rule(_ identifier: String) -> (any Rule.Type)? {
        all.first { $0.description.identifier == identifier }
    }
}
