import Foundation
import LivePhotoCheck
import LivePhotoFormats
@testable import LivePhotoRecords
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// `check --facts` reads records with its own JSON reader: it must read what Foundation's
/// decoder reads, the same way, and refuse what is not JSON without trapping.
struct JSONReaderTests {
    /// Record lines of real files (our samples and ../shared/samples when present) and of the
    /// facts with every field set.
    static func recordLines() -> [String] {
        let facts = SharedSamples.withOurSamples().map { FileFacts(MediaFile.inspect(path: $0.path, options: .check)) } + [Example.everyField()]
        let text = FactsRecords.header(version: "test", roots: ["r"], host: "h")
            + FactsRecords.leftUnread(hidden: [".hidden"], problems: [("gone", "Permission denied")]) + FactsRecords.files(facts)
        return text.split(separator: "\n").map(String.init)
    }

    @Test("every record line (real files, every field set) reads as Foundation's decoder reads it")
    func sameAsFoundation() throws {
        let lines = Self.recordLines()
        #expect(lines.count >= 12)
        for line in lines {
            let ours = try JSONReader.decode(FactsRecords.Record.self, from: Array(line.utf8))
            let foundation = try JSONDecoder().decode(FactsRecords.Record.self, from: Data(line.utf8))
            #expect(try sortedJSON(ours) == sortedJSON(foundation), "\(line.prefix(80))")
        }
        let every = try #require(lines.last)
        #expect(every.contains("\"links\":2") && every.contains("\"movieCutShort\""))
    }

    @Test("JSON values: escapes, surrogate pairs, numbers at their limits, white space")
    func values() throws {
        struct Sample: Decodable, Equatable {
            var text: String
            var small: Int64
            var large: UInt64
            var real: Double
            var list: [Int64]
            var flag: Bool
            var none: String?
        }
        let text = #" { "text" : "a\"b\\c\/d\n\t\u00e9\ud83d\ude00é" , "small":-9223372036854775808, "large":18446744073709551615, "#
            + #""real":-1.5e-3, "list":[ 0 , 1,2 ], "flag":true, "none":null } "#
        let sample = try JSONReader.decode(Sample.self, from: Array(text.utf8))
        #expect(sample == Sample(text: "a\"b\\c/d\n\t\u{E9}\u{1F600}\u{E9}", small: .min, large: .max, real: -0.0015, list: [0, 1, 2], flag: true, none: nil))
        #expect(try JSONDecoder().decode(Sample.self, from: Data(text.utf8)) == sample)
    }

    @Test("what is not JSON, or not the type asked for, throws with where it went wrong; nothing traps")
    func refusals() throws {
        struct One: Decodable { var a: Int32 }
        let bad = [
            "", "{", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1,]", "{\"a\":01}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":-}",
            "{\"a\":1} x", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\u{01}\"}", "{\"a\":tru}",
            "{\"a\":1e999}", "{\"a\":\"\\u12\"}",
        ]
        for text in bad {
            #expect(throws: (any Error).self, "\(text)") { try JSONReader.decode([String: Int].self, from: Array(text.utf8)) }
        }
        // Invalid UTF-8 inside a string.
        #expect(throws: (any Error).self) { try JSONReader.decode([String: String].self, from: Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)) }
        // Types: a number too large for the field, a string for a number, a missing key.
        for text in ["{\"a\":4294967296}", "{\"a\":\"1\"}", "{\"a\":1.5}", "{}", "{\"a\":null}", "[]"] {
            #expect(throws: (any Error).self, "\(text)") { try JSONReader.decode(One.self, from: Array(text.utf8)) }
        }
        // Nesting past the limit is refused before the stack is at risk.
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: (any Error).self) { try JSONReader.decode([Int].self, from: deep) }
        do {
            _ = try JSONReader.decode(One.self, from: Array("{\"a\": 1,, }".utf8))
            Issue.record("accepted a double comma")
        } catch {
            #expect("\(error)".contains("at byte 8"), "\(error)")
        }
    }

    @Test("every prefix and every single-byte change of real record lines reads or throws, never traps")
    func mutations() throws {
        for line in Self.recordLines().suffix(4) {
            let bytes = Array(line.utf8)
            for cut in 0..<bytes.count { _ = try? JSONReader.decode(FactsRecords.Record.self, from: Array(bytes[..<cut])) }
            for index in stride(from: 0, to: bytes.count, by: 3) {
                for value: UInt8 in [0x22, 0x5C, 0x7B, 0x5B, 0x30, 0xFF] {
                    var altered = bytes
                    altered[index] = value
                    _ = try? JSONReader.decode(FactsRecords.Record.self, from: altered)
                }
            }
        }
    }
}
