import Foundation
import LivePhotoCodecProtocol
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The answer has one writer (`CodecAnswer.bytes`, the helper's) and one reader
/// (`CodecAnswer.Reader`, lpcheck's): every part reads back to itself however the stream is cut,
/// and what the writer never writes is refused by name.
struct CodecAnswerTests {
    static let parts: [CodecAnswer.Part] = [
        .timescale(600), .timescale(UInt32.max),
        .colour(.unspecified), .colour(CodecAnswer.Colour(primaries: 9, transfer: 16, matrix: 9, fullRange: true)),
        .track(CodecAnswer.Track(format: "avc1", configurationType: "avcC", width: 1920, height: 1080, configuration: [1, 0x64, 0, 0x28, 0xFF])),
        .track(CodecAnswer.Track(format: "hvc1", configurationType: "hvcC", width: 2, height: 2, configuration: [])),
        .sample(duration: 20, key: true, data: Array(0..<200).map { UInt8($0) }),
        .sample(duration: 0, key: false, data: []),
        .still([0xFF, 0xD8, 0xFF, 0xD9]), .still([]),
        .comparison(CodecAnswer.Comparison(marked: 7, scores: [.init(frame: 6, decibels: 27.06), .init(frame: 7, decibels: 44.48), .init(frame: 8, decibels: 17.4)])),
        .comparison(CodecAnswer.Comparison(marked: 0, scores: [.init(frame: 0, decibels: 100)])),
        .sound(CodecAnswer.Sound(sampleRate: 44_100, channels: 1, bitRate: 96_000, delay: 1024, frames: 100_044, configuration: [0x12, 0x08])),
    ]

    func read(_ stream: [UInt8], cut: Int) throws -> (parts: [CodecAnswer.Part], ended: Bool) {
        var reader = CodecAnswer.Reader(), parts: [CodecAnswer.Part] = []
        var at = 0
        while at < stream.count {
            let end = min(stream.count, at + cut)
            try reader.feed(Array(stream[at..<end])) { parts.append($0) }
            at = end
        }
        return (parts, reader.isEmpty)
    }

    @Test("every part reads back to itself, the stream fed whole, a byte at a time or in uneven pieces")
    func roundTrip() throws {
        let stream = Self.parts.flatMap(CodecAnswer.bytes)
        for cut in [stream.count, 1, 7, 4096] {
            let (parts, ended) = try read(stream, cut: cut)
            #expect(parts == Self.parts && ended, "cut \(cut)")
        }
        // A stream cut inside a part is not empty: the client says the answer ends inside one.
        let (parts, ended) = try read(Array(stream.dropLast(1)), cut: 5)
        #expect(parts == Array(Self.parts.dropLast()) && !ended)
    }

    @Test("what the writer never writes is refused: an unknown type, a part too small or too large, a payload longer or shorter than its layout, a timescale of 0")
    func refused() {
        func frame(_ type: String, _ payload: [UInt8]) -> [UInt8] { BoxWriter.box(FourCC(text: type), payload) }
        let cases: [([UInt8], String)] = [
            (frame("trak", [0, 0, 0, 1]), "unknown type trak"),
            ([0, 0, 0, 4] + Array("smpl".utf8), "a part of 4 bytes"),
            (BoxWriter.u32(UInt32(CodecAnswer.Reader.maxPart + 1)) + Array("smpl".utf8), "a part of"),
            (frame("tick", [0, 0, 2, 0x58, 0]), "1 bytes more than its layout"),
            (frame("tick", [0, 0]), "truncated"),
            (frame("tick", [0, 0, 0, 0]), "a timescale of 0"),
            (frame("clrc", [0, 1, 0, 1, 0, 1]), "truncated"),
            (frame("cmpr", [0, 0, 0, 1, 0, 0, 0, 1, 0x40]), "scores"),
            (frame("cmpr", [0, 0, 0, 1, 0, 0, 0, 1] + BoxWriter.u64(Double.nan.bitPattern)), "no number"),
        ]
        for (bytes, says) in cases {
            var reader = CodecAnswer.Reader()
            do {
                try reader.feed(bytes) { _ in }
                Issue.record("accepted \(bytes)")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
            }
        }
    }

    @Test("a still reads back: a JPEG as its bytes, an HEVC picture's three parts; a missing or repeated part is refused")
    func stills() throws {
        let jpeg = StillAnswer.jpeg([0xFF, 0xD8, 0xFF, 0xD9])
        #expect(try StillAnswer(jpeg.bytes, kind: .jpeg) == jpeg)
        let hevc = StillAnswer.hevc(configuration: [1, 2, 3], colour: Array("nclx".utf8) + [0, 1, 0, 1, 0, 1, 0x80], picture: [0, 0, 0, 2, 0x26, 0x01])
        #expect(try StillAnswer(hevc.bytes, kind: .hevc) == hevc)
        let bytes = hevc.bytes
        let first = Int(bytes[3])
        #expect(throws: CodecAnswer.Malformed.self) { try StillAnswer(Array(bytes.dropFirst(first)), kind: .hevc) }
        #expect(throws: CodecAnswer.Malformed.self) { try StillAnswer(bytes + bytes.prefix(first), kind: .hevc) }
        #expect(throws: CodecAnswer.Malformed.self) { try StillAnswer(bytes + BoxWriter.box("data", [1]), kind: .hevc) }
    }
}
