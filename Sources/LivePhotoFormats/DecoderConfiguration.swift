/// Whether a video entry's decoder configuration record is one a decoder can take: its
/// structure (version, counts, and every parameter set's length inside the record), not its
/// parameter sets' contents. An `avcC` or `hvcC` of garbage reads as a movie with every marker
/// right, and no player shows a frame of it.
public enum DecoderConfiguration {
    /// Why `payload` (the box's body) is no `type` record, or nil when it is one.
    public static func problem(_ type: FourCC, _ payload: ByteReader) -> String? {
        var reader = payload
        // The record's bytes where they are (a slice, not a copy: check reads every video entry),
        // indexed from 0.
        let bytes = Record(slice: reader.restSlice())
        switch type {
        case "avcC": return avc(bytes)
        case "hvcC": return hevc(bytes)
        default: return nil
        }
    }

    /// ISO/IEC 14496-15 5.3.3.1: version 1, profile, compatibility, level, 6 bits set and the
    /// NAL length size, 3 bits set and the sequence parameter sets' count, each a 16-bit length
    /// and its bytes, then the picture parameter sets likewise. Extensions after them are not judged.
    /// A record's bytes indexed from 0, wherever its slice starts.
    struct Record {
        let slice: ArraySlice<UInt8>
        var count: Int { slice.count }
        subscript(_ index: Int) -> UInt8 { slice[slice.startIndex + index] }
    }

    static func avc(_ bytes: Record) -> String? {
        guard bytes.count >= 7 else { return "\(bytes.count) bytes, fewer than the record's 7" }
        guard bytes[0] == 1 else { return "configuration version \(bytes[0]), not 1" }
        if case .failure(let problem) = avcParameterSetsEnd(bytes) { return problem.description }
        return nil
    }

    struct Problem: Error { var description: String }

    /// Where an `avcC` record's picture parameter sets end (a High profile's chroma format and
    /// bit depths follow), or why the record ends before; the one walk of the layout.
    static func avcParameterSetsEnd(_ bytes: Record) -> Result<Int, Problem> {
        guard bytes.count >= 7 else { return .failure(Problem(description: "\(bytes.count) bytes, fewer than the record's 7")) }
        var at = 5
        // None is allowed: an avc3 entry carries its parameter sets in the samples.
        let sequenceSets = Int(bytes[at] & 0x1F)
        at += 1
        for (name, count) in [("sequence", sequenceSets), ("picture", -1)] {
            var count = count
            if count < 0 {
                guard at < bytes.count else { return .failure(Problem(description: "it ends before the picture parameter sets' count")) }
                count = Int(bytes[at])
                at += 1
            }
            for index in 0..<count {
                guard at + 2 <= bytes.count else { return .failure(Problem(description: "it ends inside \(name) parameter set \(index + 1)'s length")) }
                let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard length > 0, at + 2 + length <= bytes.count else {
                    return .failure(Problem(description: "\(name) parameter set \(index + 1) of \(length) bytes runs past the record's \(bytes.count)"))
                }
                at += 2 + length
            }
        }
        return .success(at)
    }

    /// Bits per luma sample an `avcC` record states: a High profile's (100, 110, 122, 144)
    /// extension after the picture parameter sets, else 8; nil when the record does not hold.
    public static func avcLumaBitDepth(_ record: [UInt8]) -> Int? {
        let bytes = Record(slice: record[...])
        guard case .success(let at) = avcParameterSetsEnd(bytes) else { return nil }
        guard [100, 110, 122, 144].contains(bytes[1]), at + 1 < bytes.count else { return 8 }
        return Int(bytes[at + 1] & 7) + 8
    }

    /// ISO/IEC 14496-15 8.3.3.1: version 1, 22 bytes of fields, the arrays' count, each array a
    /// type byte, a 16-bit count and that many 16-bit lengths with their bytes.
    static func hevc(_ bytes: Record) -> String? {
        guard bytes.count >= 23 else { return "\(bytes.count) bytes, fewer than the record's 23" }
        guard bytes[0] == 1 else { return "configuration version \(bytes[0]), not 1" }
        var at = 23
        for array in 0..<Int(bytes[22]) {
            guard at + 3 <= bytes.count else { return "it ends inside array \(array + 1)'s header" }
            let count = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
            at += 3
            for index in 0..<count {
                guard at + 2 <= bytes.count else { return "it ends inside array \(array + 1)'s unit \(index + 1) length" }
                let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard length >= 2, at + 2 + length <= bytes.count else { return "array \(array + 1)'s unit \(index + 1) of \(length) bytes runs past the record's \(bytes.count)" }
                at += 2 + length
            }
        }
        return nil
    }
}
