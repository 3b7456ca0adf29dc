/// What an HEVC decoder configuration (`hvcC`, ISO/IEC 14496-15 8.3.3) and its sequence
/// parameter set (H.265 7.3.2.2) say of the pictures: the size the decoder outputs, chroma
/// format and bit depths, and the VUI's colour description. Read to write a HEIF still from a
/// movie's sample (its `ispe`, `pixi` and `colr nclx`), never to decode.
///
/// Every read is bounded: the record by its length fields, the SPS by its bits (emulation
/// prevention bytes removed first), its loops by H.265's own limits.
public struct HEVCConfiguration: Sendable, Equatable {
    /// `lengthSizeMinusOne + 1`: the bytes of each NAL unit's length in a sample.
    public var nalLengthSize: Int
    /// Parameter-set NAL units (VPS, SPS, PPS, SEI) by type, in record order.
    public var arrays: [(type: UInt8, units: [[UInt8]])]
    public var sequence: SequenceParameters?

    public static func == (lhs: HEVCConfiguration, rhs: HEVCConfiguration) -> Bool {
        lhs.nalLengthSize == rhs.nalLengthSize && lhs.sequence == rhs.sequence
            && lhs.arrays.map(\.type) == rhs.arrays.map(\.type) && lhs.arrays.map(\.units) == rhs.arrays.map(\.units)
    }

    public struct SequenceParameters: Sendable, Equatable {
        public var chromaFormat: Int
        public var lumaBitDepth: Int
        public var chromaBitDepth: Int
        /// The decoded size: the coded size less the conformance window.
        public var width: Int
        public var height: Int
        /// The VUI's video signal type, when present.
        public var fullRange: Bool?
        /// The VUI's colour description (ITU-T H.273 codes), when present.
        public var primaries: UInt8?
        public var transfer: UInt8?
        public var matrix: UInt8?
    }

    public static let spsType: UInt8 = 33

    public init(parsing payload: [UInt8], path: String = "hvcC") throws {
        var reader = ByteReader(payload, base: 0, path: path)
        guard try reader.u8() == 1 else { throw reader.error(.unsupported, "hvcC configurationVersion is not 1") }
        try reader.skip(20)
        nalLengthSize = Int(try reader.u8() & 3) + 1
        guard nalLengthSize != 3 else { throw reader.error(.invalidValue, "hvcC lengthSizeMinusOne is 2, which 14496-15 does not allow") }
        let count = Int(try reader.u8())
        arrays = []
        for _ in 0..<count {
            let type = try reader.u8() & 0x3F
            let units = Int(try reader.u16())
            try reader.require(units * 2, "hvcC array of \(units) NAL units")
            var list: [[UInt8]] = []
            for _ in 0..<units {
                let length = Int(try reader.u16())
                list.append(Array(try reader.read(length)))
            }
            arrays.append((type, list))
        }
        sequence = try arrays.first { $0.type == Self.spsType }?.units.first.map { try Self.sequence($0, path: path + "/SPS") }
    }

    /// The SPS fields up to the VUI's colour description.
    static func sequence(_ unit: [UInt8], path: String) throws -> SequenceParameters {
        var bits = BitReader(NALUnit.payload(unit, headerBytes: 2), path: path)
        _ = try bits.read(4)  // sps_video_parameter_set_id
        let subLayers = try bits.read(3)
        _ = try bits.read(1)
        try skipProfileTierLevel(&bits, maxSubLayersMinus1: subLayers)
        _ = try bits.unsignedGolomb(max: 15)
        let chroma = try bits.unsignedGolomb(max: 3)
        if chroma == 3 { _ = try bits.read(1) }
        var width = try bits.unsignedGolomb(max: 1 << 16), height = try bits.unsignedGolomb(max: 1 << 16)
        if try bits.flag() {
            // Offsets in chroma units: two luma samples across for 4:2:0 and 4:2:2, two down for 4:2:0.
            let (unitX, unitY) = (chroma == 1 || chroma == 2 ? 2 : 1, chroma == 1 ? 2 : 1)
            let left = try bits.unsignedGolomb(max: 1 << 16), right = try bits.unsignedGolomb(max: 1 << 16)
            let top = try bits.unsignedGolomb(max: 1 << 16), bottom = try bits.unsignedGolomb(max: 1 << 16)
            width -= unitX * (left + right)
            height -= unitY * (top + bottom)
            guard width > 0, height > 0 else { throw bits.error("the conformance window leaves no picture") }
        }
        let luma = try bits.unsignedGolomb(max: 8) + 8, chromaDepth = try bits.unsignedGolomb(max: 8) + 8
        var sequence = SequenceParameters(chromaFormat: chroma, lumaBitDepth: luma, chromaBitDepth: chromaDepth, width: width, height: height)
        let pocBits = try bits.unsignedGolomb(max: 12) + 4
        let ordering = try bits.flag()
        for _ in (ordering ? 0 : subLayers)...subLayers { for _ in 0..<3 { _ = try bits.unsignedGolomb(max: 1 << 16) } }
        for _ in 0..<6 { _ = try bits.unsignedGolomb(max: 64) }
        if try bits.flag(), try bits.flag() { try skipScalingLists(&bits) }
        _ = try bits.read(2)  // amp, sample adaptive offset
        if try bits.flag() {  // pcm
            _ = try bits.read(8)
            _ = try bits.unsignedGolomb(max: 8)
            _ = try bits.unsignedGolomb(max: 8)
            _ = try bits.read(1)
        }
        try skipShortTermReferenceSets(&bits, count: try bits.unsignedGolomb(max: 64))
        if try bits.flag() {
            let longTerm = try bits.unsignedGolomb(max: 32)
            for _ in 0..<longTerm { _ = try bits.read(pocBits + 1) }
        }
        _ = try bits.read(2)  // temporal mvp, strong intra smoothing
        guard try bits.flag() else { return sequence }  // vui_parameters_present_flag
        if try bits.flag(), try bits.read(8) == 255 { _ = try bits.read(32) }  // aspect ratio
        if try bits.flag() { _ = try bits.read(1) }  // overscan
        if try bits.flag() {  // video signal type
            _ = try bits.read(3)
            sequence.fullRange = try bits.flag()
            if try bits.flag() {
                sequence.primaries = UInt8(try bits.read(8))
                sequence.transfer = UInt8(try bits.read(8))
                sequence.matrix = UInt8(try bits.read(8))
            }
        }
        return sequence
    }

    static func skipProfileTierLevel(_ bits: inout BitReader, maxSubLayersMinus1: Int) throws {
        _ = try bits.read(32)
        _ = try bits.read(32)
        _ = try bits.read(32)  // 96 bits: profile space to the general flags' end
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try bits.flag())
            levelPresent.append(try bits.flag())
        }
        if maxSubLayersMinus1 > 0 { for _ in maxSubLayersMinus1..<8 { _ = try bits.read(2) } }
        for index in 0..<maxSubLayersMinus1 {
            if profilePresent[index] { _ = try bits.read(32); _ = try bits.read(32); _ = try bits.read(24) }
            if levelPresent[index] { _ = try bits.read(8) }
        }
    }

    static func skipScalingLists(_ bits: inout BitReader) throws {
        for size in 0..<4 {
            for _ in stride(from: 0, to: 6, by: size == 3 ? 3 : 1) {
                if try bits.flag() {
                    if size > 1 { _ = try bits.signedGolomb() }
                    for _ in 0..<min(64, 1 << (4 + (size << 1))) { _ = try bits.signedGolomb() }
                } else {
                    _ = try bits.unsignedGolomb(max: 5)
                }
            }
        }
    }

    /// `st_ref_pic_set` as the SPS holds them (7.3.7): a set predicted from the one before it
    /// counts that one's pictures, so the counts are kept.
    static func skipShortTermReferenceSets(_ bits: inout BitReader, count: Int) throws {
        var pictures: [Int] = []
        for index in 0..<count {
            if index > 0, try bits.flag() {
                _ = try bits.read(1)
                _ = try bits.unsignedGolomb(max: 1 << 15)
                var kept = 0
                for _ in 0...pictures[index - 1] {
                    if try bits.flag() || (try bits.flag()) { kept += 1 }
                }
                pictures.append(min(kept, 32))
            } else {
                let negative = try bits.unsignedGolomb(max: 16), positive = try bits.unsignedGolomb(max: 16)
                for _ in 0..<(negative + positive) {
                    _ = try bits.unsignedGolomb(max: 1 << 15)
                    _ = try bits.read(1)
                }
                pictures.append(negative + positive)
            }
        }
    }
}

/// NAL unit helpers shared by the HEVC and AVC readers.
public enum NALUnit {
    /// HEVC's NAL unit types of an intra random access point picture (IDR, CRA, BLA: 16 to 23,
    /// ITU-T H.265 table 7-1): a picture that decodes with no other.
    public static let hevcRandomAccess: ClosedRange<UInt8> = 16...23

    /// Whether a sample of an entry with decoder configuration `type` (`hvcC`, `avcC`: its record
    /// `record`) decodes by itself, by its own NAL units: HEVC slices all of an IRAP picture,
    /// H.264 slices all of an IDR picture (type 5). nil when the entry is neither or its lengths
    /// do not tile the sample: the tables' word is all there is then.
    public static func decodesAlone(_ sample: [UInt8], configurationType type: FourCC, record: [UInt8]) -> Bool? {
        switch type {
        case "hvcC":
            guard record.count >= 23, let types = hevcSliceTypes(sample, lengthSize: Int(record[21] & 3) + 1), !types.isEmpty else { return nil }
            return types.allSatisfy { hevcRandomAccess.contains($0) }
        case "avcC":
            guard record.count >= 5, let types = unitTypes(sample, lengthSize: Int(record[4] & 3) + 1) else { return nil }
            let slices = types.map { $0 & 0x1F }.filter { (1...5).contains($0) }
            return slices.isEmpty ? nil : slices.allSatisfy { $0 == 5 }
        default:
            return nil
        }
    }

    /// Each unit's first byte, for units that each start with a `lengthSize`-byte length; nil
    /// when the lengths do not tile the sample.
    static func unitTypes(_ sample: [UInt8], lengthSize: Int) -> [UInt8]? {
        guard (1...4).contains(lengthSize) else { return nil }
        var heads: [UInt8] = []
        var at = 0
        while at < sample.count {
            guard at + lengthSize <= sample.count else { return nil }
            var length = 0
            for byte in sample[at..<(at + lengthSize)] { length = length << 8 | Int(byte) }
            at += lengthSize
            guard length >= 1, length <= sample.count - at else { return nil }
            heads.append(sample[at])
            at += length
        }
        return heads
    }

    /// The types of the coded-slice (VCL, 0 to 31) units of an HEVC sample whose units each
    /// start with a `lengthSize`-byte length; nil when the lengths do not tile the sample.
    public static func hevcSliceTypes(_ sample: [UInt8], lengthSize: Int) -> [UInt8]? {
        unitTypes(sample, lengthSize: lengthSize)?.map { $0 >> 1 & 0x3F }.filter { $0 <= 31 }
    }

    /// The unit's payload after its header, emulation prevention bytes (0x000003) removed.
    public static func payload(_ unit: [UInt8], headerBytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(unit.count)
        var zeros = 0
        for byte in unit.dropFirst(headerBytes) {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}

/// Reads bits most significant first, with Exp-Golomb codes bounded by the caller's maximum.
struct BitReader {
    let bytes: [UInt8]
    let path: String
    var position = 0

    init(_ bytes: [UInt8], path: String) { (self.bytes, self.path) = (bytes, path) }

    func error(_ message: String) -> ParseError {
        ParseError(.invalidValue, message, offset: Int64(position / 8), path: path)
    }

    mutating func read(_ count: Int) throws -> Int {
        guard count <= 32, position + count <= bytes.count * 8 else { throw ParseError(.truncated, "the parameter set ends inside a field", offset: Int64(position / 8), path: path) }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    mutating func flag() throws -> Bool { try read(1) == 1 }

    mutating func unsignedGolomb(max: Int) throws -> Int {
        var zeros = 0
        while try read(1) == 0 {
            zeros += 1
            guard zeros <= 31 else { throw error("an Exp-Golomb code longer than 32 bits") }
        }
        let value = (1 << zeros) - 1 + (try read(zeros))
        guard value <= max else { throw error("a value of \(value), more than the \(max) H.265 allows here") }
        return value
    }

    mutating func signedGolomb() throws -> Int {
        let code = try unsignedGolomb(max: Int(UInt32.max))
        return code & 1 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}

extension HEVCConfiguration {
    /// An `hvcC` payload for parameter sets (VPS, SPS, PPS, each a NAL unit with its header):
    /// profile, tier, level and the layers from the SPS's profile_tier_level, chroma format and
    /// bit depths from its fields, every array complete, 4-byte NAL lengths.
    public static func record(videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws -> [UInt8] {
        guard let sps = sequenceParameterSets.first, !videoParameterSets.isEmpty, !pictureParameterSets.isEmpty else {
            throw WriteError(.missingStructure, "an hvcC needs a VPS, an SPS and a PPS")
        }
        let rbsp = NALUnit.payload(sps, headerBytes: 2)
        guard rbsp.count >= 13 else { throw WriteError(.inconsistentInput, "an SPS of \(rbsp.count) bytes holds no profile_tier_level") }
        let sequence = try self.sequence(sps, path: "SPS")
        let layers = UInt8(rbsp[0] >> 1 & 7) + 1, nested = rbsp[0] & 1
        var record: [UInt8] = [1] + rbsp[1...12]
        record += [0xF0, 0x00, 0xFC, 0xFC | UInt8(sequence.chromaFormat & 3), 0xF8 | UInt8((sequence.lumaBitDepth - 8) & 7), 0xF8 | UInt8((sequence.chromaBitDepth - 8) & 7)]
        record += [0, 0, layers << 3 | nested << 2 | 3, 3]
        for (type, units) in [(NALUnit.HEVCType.videoParameterSet, videoParameterSets), (NALUnit.HEVCType.sequenceParameterSet, sequenceParameterSets),
                              (NALUnit.HEVCType.pictureParameterSet, pictureParameterSets)] {
            record += [0x80 | type] + BoxWriter.u16(UInt16(clamping: units.count))
            for unit in units {
                guard unit.count <= 0xFFFF else { throw WriteError(.fieldOverflow, "a parameter set of \(unit.count) bytes") }
                record += BoxWriter.u16(UInt16(unit.count)) + unit
            }
        }
        return record
    }

    /// The NAL unit type of an HEVC NAL unit (its header's bits 1–6).
    public static func unitType(_ unit: [UInt8]) -> UInt8? { unit.first.map { $0 >> 1 & 0x3F } }
}

extension NALUnit {
    /// The NAL units of an Annex B byte stream (start codes 00 00 01 or 00 00 00 01), without
    /// their start codes or trailing zero bytes.
    public static func annexB(_ stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var start: Int? = nil
        var index = 0
        func close(at end: Int) {
            guard let begin = start else { return }
            var stop = end
            while stop > begin && stream[stop - 1] == 0 { stop -= 1 }
            if stop > begin { units.append(Array(stream[begin..<stop])) }
        }
        while index + 2 < stream.count {
            if stream[index] == 0 && stream[index + 1] == 0 && stream[index + 2] == 1 {
                close(at: index)
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        close(at: stream.count)
        return units
    }

    /// NAL units each after its 4-byte big-endian length, as samples and HEIF items store them.
    public static func lengthPrefixed(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { BoxWriter.u32(UInt32(clamping: $0.count)) + $0 }
    }
}
