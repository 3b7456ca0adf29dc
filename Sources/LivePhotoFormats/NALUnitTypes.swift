/// The NAL unit types the readers and writers name (ITU-T H.264 table 7-1, H.265 table 7-1), so
/// that no writer holds them as bare numbers.
extension NALUnit {
    public enum HEVCType {
        public static let videoParameterSet: UInt8 = 32
        public static let sequenceParameterSet: UInt8 = 33
        public static let pictureParameterSet: UInt8 = 34
        public static let accessUnitDelimiter: UInt8 = 35
        public static let prefixSEI: UInt8 = 39
        public static let suffixSEI: UInt8 = 40
        /// Parameter sets, delimiters and SEI: what a sample entry's record carries or a
        /// sample leaves out, no picture.
        public static let notPicture: Set<UInt8> = [videoParameterSet, sequenceParameterSet, pictureParameterSet, accessUnitDelimiter, prefixSEI, suffixSEI]
    }

    public enum AVCType {
        public static let sei: UInt8 = 6
        public static let sequenceParameterSet: UInt8 = 7
        public static let pictureParameterSet: UInt8 = 8
        public static let accessUnitDelimiter: UInt8 = 9
        /// What a sample leaves out: parameter sets (the record's), delimiters and SEI.
        public static let notPicture: Set<UInt8> = [sei, sequenceParameterSet, pictureParameterSet, accessUnitDelimiter]
    }

    /// The NAL unit type of an H.264 NAL unit (its header's low 5 bits).
    public static func avcUnitType(_ unit: [UInt8]) -> UInt8? { unit.first.map { $0 & 0x1F } }
}

extension DecoderConfiguration {
    /// An `avcC` record (ISO/IEC 14496-15 5.3.3.1) of these parameter sets: profile,
    /// compatibility and level from the first SPS, 4-byte NAL lengths, and for the High
    /// profiles (100, 110, 122, 144) 4:2:0 at 8 bits with no SPS extension. The layout
    /// `avcParameterSetsEnd` walks.
    public static func avcRecord(sequenceParameterSets sps: [[UInt8]], pictureParameterSets pps: [[UInt8]]) throws -> [UInt8] {
        guard let first = sps.first, first.count >= 4, !pps.isEmpty, sps.count <= 31, pps.count <= 255 else {
            throw WriteError(.fieldOverflow, "an avcC needs 1 to 31 sequence parameter sets of 4 bytes or more and 1 to 255 picture parameter sets")
        }
        var record: [UInt8] = [1, first[1], first[2], first[3], 0xFF, 0xE0 | UInt8(sps.count)]
        for unit in sps + pps {
            guard unit.count <= 0xFFFF else { throw WriteError(.fieldOverflow, "a parameter set of \(unit.count) bytes") }
        }
        for unit in sps { record += BoxWriter.u16(UInt16(unit.count)) + unit }
        record.append(UInt8(pps.count))
        for unit in pps { record += BoxWriter.u16(UInt16(unit.count)) + unit }
        if [100, 110, 122, 144].contains(first[1]) { record += [0xFD, 0xF8, 0xF8, 0] }
        return record
    }
}
