/// What a file is, recognised from its content (never its name).
public enum FileFormat: String, Sendable, Codable, CaseIterable {
    case jpeg = "JPEG"
    case heic = "HEIC"
    case heif = "HEIF"
    case avif = "AVIF"
    case png = "PNG"
    case gif = "GIF"
    case tiff = "TIFF"
    case webp = "WebP"
    case quickTime = "QuickTime"
    case mp4 = "MP4"
    /// A zip archive: a `.livp` (a Live Photo's still and movie, stored), read for its members.
    case zip = "ZIP"
    case unknown

    /// The formats a file-name extension (lower case) promises: the one table of media
    /// extensions (discovery keeps files named like media, `extension-mismatch` compares).
    public static let byExtension: [String: [FileFormat]] = [
        "jpg": [.jpeg], "jpeg": [.jpeg], "jpe": [.jpeg], "heic": [.heic, .heif], "heif": [.heic, .heif], "hif": [.heic, .heif],
        "avif": [.avif], "png": [.png], "gif": [.gif], "tif": [.tiff], "tiff": [.tiff], "webp": [.webp],
        "mov": [.quickTime], "qt": [.quickTime], "mp4": [.mp4, .quickTime], "m4v": [.mp4, .quickTime],
        "livp": [.zip],
    ]

    /// The formats an extension (lower case) promises, as `byExtension` says: looked up by its
    /// bytes as one integer (rules ask it of every file of a library; hashing the string cost
    /// more than the rest of the rule).
    public static func formats(forExtension bytes: UnsafeBufferPointer<UInt8>) -> [FileFormat]? {
        packed(bytes).flatMap { byPackedExtension[$0] }
    }

    /// Up to 7 bytes, ASCII letters in lower case, as one integer (nil for more; no media
    /// extension is that long).
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= 7 else { return nil }
        var key: UInt64 = 0
        for byte in bytes { key = key << 8 | UInt64((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte) }
        return key | UInt64(bytes.count) << 60
    }

    private static let byPackedExtension: [UInt64: [FileFormat]] = Dictionary(uniqueKeysWithValues: byExtension.compactMap { text, formats in
        var text = text
        return text.withUTF8 { packed($0) }.map { ($0, formats) }
    })

    public var isMovie: Bool { self == .quickTime || self == .mp4 }
    public var isStill: Bool { !isMovie && self != .unknown && self != .zip }
    public var isHEIFFamily: Bool { self == .heic || self == .heif || self == .avif }

    static let heicBrands: [FourCC] = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let avifBrands: [FourCC] = ["avif", "avis"]
    static let heifBrands: [FourCC] = ["mif1", "msf1", "mif2", "miaf"]
    static let movieLeadBoxes: [FourCC] = ["wide", "mdat", "moov", "free", "skip", "pnot"]

    /// Recognises a format from the first bytes of a file (32, or the whole `ftyp`). Reads the
    /// bytes where they are: no list is made (it runs for every file of a library).
    /// Why `detect` recognises nothing in `head` (the file's first bytes), with where a known
    /// signature does start when one is there.
    public static func unrecognised(_ head: [UInt8]) -> String {
        guard !head.isEmpty else { return "the file is empty" }
        var why = "its first bytes are no image signature (JPEG, PNG, GIF, TIFF, WebP) and no box lpcheck knows (an 'ftyp' or a QuickTime lead box)"
        let ftyp = Array("ftyp".utf8)
        if let at = (4..<max(4, head.count - 3)).first(where: { head.count >= $0 + 4 && Array(head[$0..<($0 + 4)]) == ftyp }), at > 4 {
            why += "; an 'ftyp' box starts at byte \(at - 4): the file seems to have \(at - 4) bytes before its movie or image"
        } else if let at = (1..<max(1, head.count - 2)).first(where: { head.count >= $0 + 3 && head[$0] == 0xFF && head[$0 + 1] == 0xD8 && head[$0 + 2] == 0xFF }) {
            why += "; a JPEG start (FF D8 FF) is at byte \(at): the file seems to have \(at) bytes before its image"
        }
        return why
    }

    public static func detect(_ head: [UInt8]) -> FileFormat {
        /// The big-endian 32-bit word at `offset`, nil past the end.
        func word(_ offset: Int) -> FourCC? {
            guard offset >= 0, head.count - offset >= 4 else { return nil }
            return FourCC(UInt32(head[offset]) << 24 | UInt32(head[offset + 1]) << 16 | UInt32(head[offset + 2]) << 8 | UInt32(head[offset + 3]))
        }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        let first = word(0)
        if first == FourCC(0x8950_4E47), word(4) == FourCC(0x0D0A_1A0A) { return .png }
        if first == "GIF8" { return .gif }
        if first == FourCC(0x504B_0304) { return .zip }
        if first == FourCC(0x4949_2A00) || first == FourCC(0x4D4D_002A) { return .tiff }
        if first == "RIFF", word(8) == "WEBP" { return .webp }
        guard let size = first?.value, let type = word(4) else { return .unknown }
        if type == "ftyp", size >= 16 {
            // The box as far as the bytes go: major brand, minor version, compatible brands.
            let end = min(Int(size), head.count)
            guard end >= 16, let major = word(8) else { return .unknown }
            /// Whether the major brand or a compatible one is among `wanted`.
            func listed(_ wanted: [FourCC]) -> Bool {
                if wanted.contains(major) { return true }
                var offset = 16
                while end - offset >= 4 {
                    if let brand = word(offset), wanted.contains(brand) { return true }
                    offset += 4
                }
                return false
            }
            if avifBrands.contains(major) { return .avif }
            if heicBrands.contains(major) { return .heic }
            if major == "qt  " { return .quickTime }
            if heifBrands.contains(major) {
                if listed(avifBrands) { return .avif }
                if listed(heicBrands) { return .heic }
                return .heif
            }
            if listed(["qt  "]) { return .quickTime }
            return .mp4
        }
        if movieLeadBoxes.contains(type) { return .quickTime }
        return .unknown
    }
}
