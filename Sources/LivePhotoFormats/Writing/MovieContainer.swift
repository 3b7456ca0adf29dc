/// The container a written movie declares: QuickTime (`ftyp` `qt  `, as cameras write Live
/// Photo movies) or MP4 (`isom`, for players and sites that take MP4 alone). The boxes are the
/// same ISO base media boxes; MP4 differs in the `ftyp`, in a handler's pre-defined field (0, not
/// QuickTime's `mhlr`), in colour as `nclx` (with the range) rather than `nclc`, and in the sample
/// entries it carries: those QuickTime alone defines (PCM sound as `lpcm`, `sowt`, `twos`; timecode)
/// are refused by name rather than written where MP4 readers would not play them.
public enum MovieContainer: String, Sendable, CaseIterable {
    case mov, mp4

    /// The file name's extension.
    public var fileExtension: String { rawValue }

    public var ftyp: [UInt8] {
        switch self {
        case .mov: return BoxWriter.box("ftyp", FourCC("qt  ").bytes + BoxWriter.u32(0) + FourCC("qt  ").bytes)
        case .mp4: return BoxWriter.box("ftyp", FourCC("isom").bytes + BoxWriter.u32(0x200) + FourCC("isom").bytes + FourCC("iso2").bytes + FourCC("mp41").bytes)
        }
    }

    /// Sample entries an MP4 carries (ISO/IEC 14496-12, -14, -15 and the codecs' MP4 bindings).
    public static let mp4Formats: Set<FourCC> = ["avc1", "avc3", "hvc1", "hev1", "av01", "vp09", "mp4v", "mp4a", "ac-3", "ec-3", "Opus", "fLaC", "alac", "mett", "metx", "tx3g", "wvtt", "stpp"]

    /// Why `track` cannot be written into this container, nil when it can.
    public func refusal(_ track: Track) -> String? {
        guard self == .mp4 else { return nil }
        for entry in track.sampleDescriptions where !Self.mp4Formats.contains(entry.format) {
            let kind = track.handler == "soun" ? "sound" : track.handler == "vide" ? "video" : "\(track.handler) track"
            return "track \(track.id)'s \(entry.format) \(kind) is QuickTime's, which MP4 does not carry\(track.handler == "soun" ? ": use --audio drop, or --container mov" : ": use --container mov")"
        }
        return nil
    }
}
