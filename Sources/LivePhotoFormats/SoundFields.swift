/// What a PCM sound sample entry says its samples are (QuickTime sound descriptions, versions
/// 0, 1 and 2; QTFF "Sound Sample Descriptions"): channels, rate, and each value's layout. Read
/// only for the uncompressed formats a writer re-encodes (`formats`).
public struct SoundFields: Sendable, Equatable {
    public var channels: Int
    public var sampleRate: Double
    public var bitsPerChannel: Int
    public var isFloat: Bool
    public var isBigEndian: Bool
    public var isSigned: Bool
    /// A version 2 entry's constBytesPerAudioPacket (a frame's bytes, as stored), nil before.
    public var bytesPerPacket: Int? = nil

    /// Bytes of one frame: a value for each channel (0 when the fields overflow).
    public var bytesPerFrame: Int {
        let (bits, overflow) = channels.multipliedReportingOverflow(by: bitsPerChannel)
        return overflow ? 0 : bits / 8
    }

    /// The PCM formats read: 'lpcm' (version 2, flags say the layout), 'sowt' (16-bit little-endian),
    /// 'twos', 'in24', 'in32', 'fl32', 'fl64' (big-endian), 'raw ' (8-bit unsigned).
    public static let formats: Set<FourCC> = ["lpcm", "sowt", "twos", "in24", "in32", "fl32", "fl64", "raw "]

    /// The fields of an entry of `format`, `entry` just past its data reference index; nil when
    /// the entry is too short or says something no PCM is (a rate of 0, 0 channels).
    static func read(_ format: FourCC, _ entry: ByteReader) -> SoundFields? {
        var reader = entry
        guard let version = try? reader.u16(), (try? reader.skip(6)) != nil, let channels = try? reader.u16(), let bits = try? reader.u16(),
              (try? reader.skip(4)) != nil, let rate = try? reader.u32() else { return nil }
        var fields = SoundFields(channels: Int(channels), sampleRate: Double(rate) / 65536, bitsPerChannel: Int(bits), isFloat: false, isBigEndian: true, isSigned: true)
        switch format {
        case "sowt": (fields.bitsPerChannel, fields.isBigEndian) = (16, false)
        case "twos": fields.bitsPerChannel = 16
        case "in24": fields.bitsPerChannel = 24
        case "in32": fields.bitsPerChannel = 32
        case "fl32": (fields.bitsPerChannel, fields.isFloat) = (32, true)
        case "fl64": (fields.bitsPerChannel, fields.isFloat) = (64, true)
        case "raw ": (fields.bitsPerChannel, fields.isSigned) = (8, false)
        default: break
        }
        if version == 2 {
            // sizeOfStructOnly, audioSampleRate (a double), numAudioChannels, 0x7F000000,
            // constBitsPerChannel, formatSpecificFlags (1 float, 2 big-endian, 4 signed integer).
            guard (try? reader.skip(4)) != nil, let rateBits = try? reader.u64(), let count = try? reader.u32(), (try? reader.skip(4)) != nil,
                  let valueBits = try? reader.u32(), let flags = try? reader.u32(), let packet = try? reader.u32() else { return nil }
            fields.bytesPerPacket = Int(clamping: packet)
            fields.sampleRate = Double(bitPattern: rateBits)
            (fields.channels, fields.bitsPerChannel) = (Int(clamping: count), Int(clamping: valueBits))
            if format == "lpcm" { (fields.isFloat, fields.isBigEndian, fields.isSigned) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0) }
        } else if format == "lpcm" {
            return nil
        }
        // A rate a sound has (a double read from the file may be anything).
        guard fields.channels > 0, fields.sampleRate.isFinite, fields.sampleRate > 0, fields.sampleRate <= 1_000_000 else { return nil }
        return fields
    }
}
