import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The `avcC` layout has one writer (`DecoderConfiguration.avcRecord`, the encoder's) and one
/// walk (`avcParameterSetsEnd`, which the structure check and the bit-depth reader share).
struct AVCConfigurationTests {
    let sps: [UInt8] = [0x67, 100, 0, 31, 0xAC, 0xD9], pps: [UInt8] = [0x68, 0xEB, 0xE3]

    @Test("a record written from parameter sets reads back as sound, its bit depth 8, its sets in place (the bytes ISO/IEC 14496-15 lays out)")
    func roundTrip() throws {
        let record = try DecoderConfiguration.avcRecord(sequenceParameterSets: [sps], pictureParameterSets: [pps])
        #expect(record == [1, 100, 0, 31, 0xFF, 0xE1, 0, 6] + sps + [1, 0, 3] + pps + [0xFD, 0xF8, 0xF8, 0])
        #expect(DecoderConfiguration.problem("avcC", ByteReader(record, path: "t")) == nil)
        #expect(DecoderConfiguration.avcLumaBitDepth(record) == 8)
        let baseline = try DecoderConfiguration.avcRecord(sequenceParameterSets: [[0x67, 66, 0, 30]], pictureParameterSets: [pps])
        #expect(baseline.count == 6 + 2 + 4 + 1 + 2 + 3 && DecoderConfiguration.avcLumaBitDepth(baseline) == 8)
    }

    @Test("a High 10 extension says 10 bits; a record cut inside its sets says nothing and is named by the check")
    func depthAndDamage() throws {
        var record = try DecoderConfiguration.avcRecord(sequenceParameterSets: [sps], pictureParameterSets: [pps])
        record[1] = 110
        record[record.count - 3] = 0xF8 | 2
        #expect(DecoderConfiguration.avcLumaBitDepth(record) == 10)
        let cut = Array(record.prefix(10))
        #expect(DecoderConfiguration.avcLumaBitDepth(cut) == nil)
        #expect(DecoderConfiguration.problem("avcC", ByteReader(cut, path: "t"))?.contains("sequence parameter set 1 of 6 bytes runs past") == true)
        #expect(throws: WriteError.self) { try DecoderConfiguration.avcRecord(sequenceParameterSets: [], pictureParameterSets: [pps]) }
    }
}
