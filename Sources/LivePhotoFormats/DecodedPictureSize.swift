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
