extension SampleDescription {
    /// Tenths of a byte a decoded picture of this entry holds each pixel: an HEVC entry's by its
    /// configuration's chroma format and bit depth (FFmpeg lays out 9 to 16 bits in two bytes),
    /// else 8-bit 4:2:0's 15.
    public var decodedTenthsOfBytePerPixel: Int {
        guard let record = configuration("hvcC"), let sequence = (try? HEVCConfiguration(parsing: record))?.sequence else { return 15 }
        let samples = [10, 15, 20, 30][min(3, max(0, sequence.chromaFormat))]
        return max(sequence.lumaBitDepth, sequence.chromaBitDepth) > 8 ? samples * 2 : samples
    }
}

extension SampleDescription {
    /// Bits per luma sample the track's configuration states: an `hvcC`'s SPS, an `avcC`'s
    /// High-profile extension (8 without one); nil when neither says.
    public var lumaBitDepth: Int? {
        if let hvcC = configuration("hvcC") { return (try? HEVCConfiguration(parsing: hvcC))?.sequence?.lumaBitDepth }
        return configuration("avcC").flatMap(DecoderConfiguration.avcLumaBitDepth)
    }

    /// The colour primaries (ITU-T H.273) a `colr` (`nclx` or `nclc`) states.
    public var colourPrimaries: Int? {
        guard let colr = configuration("colr"), colr.count >= 6 else { return nil }
        let kind = String(decoding: colr.prefix(4), as: UTF8.self)
        return kind == "nclx" || kind == "nclc" ? Int(colr[4]) << 8 | Int(colr[5]) : nil
    }
}
