/// The Apple MakerNote (EXIF tag 0x927C): `Apple iOS\0`, a 16-bit version, a byte-order mark,
/// then an IFD whose value offsets count from the start of the MakerNote.
public struct AppleMakerNote: Sendable, Equatable {
    public var version: UInt16
    public var littleEndian: Bool
    public var entries: [Entry]

    /// One tag. Its value is decoded when asked for, from the MakerNote's bytes, which all
    /// entries share: a check asks for one tag of the thirty or so a camera writes, and decoding
    /// them all up front was an allocation or two each.
    public struct Entry: Sendable, Equatable {
        public var tag: UInt16
        public var type: UInt16
        public var count: UInt32
        /// The value's bytes (inside the IFD entry for four or fewer), nil when its offset
        /// points outside the MakerNote.
        var raw: ArraySlice<UInt8>?
        var littleEndian: Bool
        var decodePlists: Bool

        public var value: MakerValue {
            guard let raw else { return .unknown(type: type) }
            return MakerValue.decode(Array(raw), type: type, count: Int(count), littleEndian: littleEndian, decodePlists: decodePlists)
        }

        /// The public name where one is known (ExifTool's Apple tag table), else nil.
        public var name: String? { AppleMakerNote.tagNames[tag] }
    }

    public static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    public static let contentIdentifierTag: UInt16 = 0x0011

    public func entry(_ tag: UInt16) -> Entry? { entries.first { $0.tag == tag } }

    /// Tag 0x0011, the Live Photo content identifier.
    public var contentIdentifier: String? {
        if case .string(let text)? = entry(Self.contentIdentifierTag)?.value { return text }
        return nil
    }

    public static func isAppleMakerNote(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 14 && bytes.prefix(9).elementsEqual(signature.prefix(9))
    }

    /// Decodes the MakerNote bytes; `base` is their absolute file offset (for errors).
    public static func read(_ bytes: [UInt8], base: Int64, path: String, decodePlists: Bool = true) throws -> AppleMakerNote {
        var reader = ByteReader(bytes, base: base, path: path)
        guard reader.peek(9)?.elementsEqual(signature.prefix(9)) == true else {
            throw reader.error(.invalidValue, "MakerNote does not start with 'Apple iOS'")
        }
        try reader.skip(10)
        let version = try reader.u16()
        let order = try reader.u16()
        guard order == 0x4D4D || order == 0x4949 else {
            throw reader.error(.invalidValue, "MakerNote byte-order mark 0x\(String(order, radix: 16))")
        }
        let little = order == 0x4949
        // The IFD follows the 14-byte header; its value offsets count from the MakerNote's first byte.
        let entries = try TIFFLayout.entries(bytes, at: reader.position, little: little, base: base, path: path).map { entry in
            Entry(tag: entry.tag, type: entry.type, count: entry.count, raw: entry.range.map { bytes[$0] }, littleEndian: little,
                  decodePlists: decodePlists)
        }
        return AppleMakerNote(version: version, littleEndian: little, entries: entries)
    }

    /// Public Apple MakerNote tag names (as ExifTool's Apple table names them).
    public static let tagNames: [UInt16: String] = [
        0x0001: "MakerNoteVersion", 0x0002: "AEMatrix", 0x0003: "RunTime", 0x0004: "AEStable",
        0x0005: "AETarget", 0x0006: "AEAverage", 0x0007: "AFStable", 0x0008: "AccelerationVector",
        0x000A: "HDRImageType", 0x000B: "BurstUUID", 0x000C: "FocusDistanceRange", 0x000F: "OISMode",
        0x0011: "ContentIdentifier", 0x0014: "ImageCaptureType", 0x0015: "ImageUniqueID",
        0x0017: "LivePhotoVideoIndex", 0x0019: "ImageProcessingFlags", 0x001A: "QualityHint",
        0x001D: "LuminanceNoiseAmplitude", 0x001F: "PhotosAppFeatureFlags", 0x0020: "ImageCaptureRequestID",
        0x0021: "HDRHeadroom", 0x0023: "AFPerformance", 0x0025: "SceneFlags", 0x0026: "SignalToNoiseRatioType",
        0x0027: "SignalToNoiseRatio", 0x002B: "PhotoIdentifier", 0x002D: "ColorTemperature", 0x002E: "CameraType",
        0x002F: "FocusPosition", 0x0030: "HDRGain", 0x0038: "AFMeasuredDepth", 0x003D: "AFConfidence",
        0x003E: "ColorCorrectionMatrix", 0x003F: "GreenGhostMitigationStatus", 0x0040: "SemanticStyle",
        0x0041: "SemanticStyleRenderingVer", 0x0042: "SemanticStylePreset", 0x0045: "FrontFacingCamera",
    ]
}

/// A decoded TIFF-typed value (MakerNote entries).
public enum MakerValue: Sendable, Equatable {
    case string(String)
    case integers([Int64])
    case rationals([Double])
    case floats([Double])
    case plist(PlistValue)
    case data([UInt8])
    case unknown(type: UInt16)

    static func decode(_ raw: [UInt8], type: UInt16, count: Int, littleEndian: Bool, decodePlists: Bool = true) -> MakerValue {
        var reader = ByteReader(raw)
        func u16() -> UInt16? { (try? reader.u16(littleEndian: littleEndian)) }
        func u32() -> UInt32? { (try? reader.u32(littleEndian: littleEndian)) }
        switch type {
        case 2:
            return .string(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
        case 1, 7, 6:
            if decodePlists, raw.starts(with: Array("bplist00".utf8)), let value = PlistValue.decode(raw) { return .plist(value) }
            if type == 6 { return .integers(raw.map { Int64(Int8(bitPattern: $0)) }) }
            if type == 1 && count <= 16 { return .integers(raw.map { Int64($0) }) }
            return .data(raw)
        case 3: return .integers((0..<count).compactMap { _ in u16().map { Int64($0) } })
        case 8: return .integers((0..<count).compactMap { _ in u16().map { Int64(Int16(bitPattern: $0)) } })
        case 4, 13: return .integers((0..<count).compactMap { _ in u32().map { Int64($0) } })
        case 9: return .integers((0..<count).compactMap { _ in u32().map { Int64(Int32(bitPattern: $0)) } })
        case 5, 10:
            return .rationals((0..<count).compactMap { _ in
                guard let numerator = u32(), let denominator = u32() else { return nil }
                if type == 10 {
                    let (n, d) = (Int32(bitPattern: numerator), Int32(bitPattern: denominator))
                    return d == 0 ? Double.nan : Double(n) / Double(d)
                }
                return denominator == 0 ? Double.nan : Double(numerator) / Double(denominator)
            })
        case 16, 18:
            return .integers((0..<count).compactMap { _ in
                guard let high = u32(), let low = u32() else { return nil }
                let bits = littleEndian ? UInt64(low) << 32 | UInt64(high) : UInt64(high) << 32 | UInt64(low)
                return Int64(exactly: bits)
            })
        case 17:
            return .integers((0..<count).compactMap { _ in
                guard let high = u32(), let low = u32() else { return nil }
                return Int64(bitPattern: littleEndian ? UInt64(low) << 32 | UInt64(high) : UInt64(high) << 32 | UInt64(low))
            })
        case 11: return .floats((0..<count).compactMap { _ in u32().map { Double(Float(bitPattern: $0)) } })
        case 12:
            return .floats((0..<count).compactMap { _ in
                guard let high = u32(), let low = u32() else { return nil }
                let bits = littleEndian ? UInt64(low) << 32 | UInt64(high) : UInt64(high) << 32 | UInt64(low)
                return Double(bitPattern: bits)
            })
        default: return .data(raw)
        }
    }

    public var displayText: String {
        switch self {
        case .string(let text): return text
        case .integers(let values): return values.map(String.init).joined(separator: " ")
        case .rationals(let values), .floats(let values): return values.map { String($0) }.joined(separator: " ")
        case .plist(let value): return value.displayText
        case .data(let bytes): return Hex.preview(bytes)
        case .unknown(let type): return "(unknown TIFF type \(type))"
        }
    }
}

/// A property-list value (Apple MakerNote entries such as RunTime are binary plists).
public indirect enum PlistValue: Sendable, Equatable {
    case dictionary([(String, PlistValue)])
    case array([PlistValue])
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case date(Double)

    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool { lhs.displayText == rhs.displayText }

    /// Decodes a binary property list; nil when it is not one or is damaged.
    public static func decode(_ bytes: [UInt8]) -> PlistValue? { BinaryPlist.decode(bytes) }

    public var displayText: String {
        switch self {
        case .dictionary(let pairs): return "{" + pairs.map { "\($0.0)=\($0.1.displayText)" }.joined(separator: ", ") + "}"
        case .array(let values): return "[" + values.map(\.displayText).joined(separator: ", ") + "]"
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .data(let bytes): return Hex.preview(bytes)
        case .date(let seconds): return "date(\(seconds))"
        }
    }
}
