import Foundation
import LivePhotoCheck
import LivePhotoFormats
@testable import LivePhotoRecords
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// The scan records are written by the writer every JSON report uses (`JSONValue`, escaping
/// `.minimal`), no longer by Foundation's JSONEncoder: the same bytes, key order aside for keys
/// that differ only in case or digits (byte order here, locale-free), and hostile text reads back
/// the same through both readers.
struct RecordWriterTests {
    static func foundationLine(_ record: FactsRecords.Record) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(record), as: UTF8.self) + "\n"
    }

    @Test("record lines of every sample and of the every-field example are JSONEncoder's (sorted keys, unescaped slashes) byte for byte")
    func sameBytesAsFoundation() throws {
        let facts = SharedSamples.withOurSamples().map { FileFacts(MediaFile.inspect(path: $0.path, options: .check)) } + [Example.everyField()]
        #expect(facts.count >= 9)
        for file in facts {
            let record = FactsRecords.Record(type: "file", facts: file)
            #expect(FactsRecords.line(record) == (try Self.foundationLine(record)), "\(file.path)")
        }
        let header = FactsRecords.Record(type: "scan", schema: 1, tool: "lpcheck", version: "1", roots: ["a/b", "c"], host: "h")
        #expect(FactsRecords.line(header) == (try Self.foundationLine(header)))
        // Numbers at the edges of their kinds.
        var edges = Example.everyField()
        edges.size = Int64.max
        edges.identity = FileIdentity(device: UInt64.max, inode: 0, links: 1)
        edges.movie?.durationSeconds = 1e-7
        edges.motionMovie?.durationSeconds = 123_456_789_012.5
        let record = FactsRecords.Record(type: "file", facts: edges)
        #expect(FactsRecords.line(record) == (try Self.foundationLine(record)))
    }

    @Test("hostile text (controls, DEL, U+2028, HTML specials, bytes that are not UTF-8) is written as JSONEncoder writes it and reads back the same through lpcheck's reader and Foundation's")
    func hostileText() throws {
        let raw = PathBytes.string(Array("IMG_".utf8) + [0xE9, 0xFF] + Array(".JPG".utf8))
        let texts = [String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }), "a\u{2028}b\u{2029}", "<script>&amp;</script>", "Ünïcødé 📷", raw]
        for text in texts {
            var facts = Example.everyField()
            facts.path = text
            facts.make = text
            // Keys are XML names (no quotes, controls or specials): the hostile text is a value.
            facts.motionPhoto?.directory = [XMPPacket.DirectoryItem(fields: ["Ünïcødé": text, "a10": "x", "a9": "y", "B": "z", "a": "w"])]
            let line = FactsRecords.line(FactsRecords.Record(type: "file", facts: facts))
            #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
            let back = try JSONReader.decode(FactsRecords.Record.self, from: Array(line.utf8.dropLast()))
            #expect(back.facts?.path == text && back.facts?.make == text)
            #expect(back.facts?.motionPhoto?.directory.first?.fields == ["Ünïcødé": text, "a10": "x", "a9": "y", "B": "z", "a": "w"])
            let foundation = try JSONDecoder().decode(FactsRecords.Record.self, from: Data(line.utf8))
            #expect(foundation.facts?.path == text)
            #expect(line == (try Self.foundationLine(FactsRecords.Record(type: "file", facts: facts))))
        }
    }

    @Test("object keys in byte order of their UTF-8, whatever the locale: capitals first, digits by character")
    func keyOrder() throws {
        let value = try JSONValue.encoding(["b": 1, "B": 2, "a10": 3, "a9": 4, "é": 5, "z": 6])
        #expect(value.serialized(indent: nil) == #"{"B":2,"a10":3,"a9":4,"b":1,"z":6,"é":5}"#)
    }
}
