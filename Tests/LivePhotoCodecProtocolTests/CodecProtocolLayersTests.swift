import Foundation
import LivePhotoTestSupport
import Testing

/// Who may know the helper's contract: the run layer knows no request, answer or box of it (its
/// client sits beside the planners in LivePhotoWriting), and the answer's layout is written in
/// one place (the protocol target) and read in one (the client). SwiftPM lets a module import a
/// dependency of its dependencies, so the sources are read.
struct CodecProtocolLayersTests {
    /// The swift files of a source folder, with their text.
    func sources(_ folder: String) throws -> [(name: String, text: String)] {
        let root = Locations.packageRoot.appendingPathComponent("Sources").appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!names.isEmpty, "no sources in \(root.path)")
        return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The contract's names, and the part types of its answer.
    static let contract = ["LivePhotoCodecProtocol", "CodecRequest", "CodecAnswer", "StillAnswer", "CodecBudget", "CodecLimits", "VideoCodec", "StillKind",
                           "BoxStream", "\"trak\"", "\"smpl\"", "\"stil\"", "\"nclc\"", "\"scal\"", "\"hvcC\"", "\"colr\""]

    @Test("the run layer imports no codec contract and names none of its types or parts")
    func runLayer() throws {
        for (name, text) in try sources("LivePhotoRun") {
            for word in Self.contract { #expect(!text.contains(word), "LivePhotoRun/\(name) names \(word)") }
        }
    }

    @Test("the helper's answer is framed in the protocol target alone: no other source writes or reads its part types")
    func answerLayout() throws {
        let parts = ["\"tick\"", "\"clrc\"", "\"vtrk\"", "\"smpl\"", "\"stil\"", "\"nals\""]
        for folder in ["LivePhotoWriting", "LivePhotoCodec", "lpcheck-codec", "LivePhotoRun", "lpcheck"] {
            for (name, text) in try sources(folder) {
                for part in parts { #expect(!text.contains(part), "\(folder)/\(name) names the answer's part \(part)") }
            }
        }
        let own = try sources("LivePhotoCodecProtocol").map(\.text).joined()
        for part in parts { #expect(own.contains(part), "the protocol target does not define \(part)") }
    }

    @Test("the helper's entry point parses no argument by hand: it reads one CodecRequest")
    func helperGrammar() throws {
        let main = try #require(try sources("lpcheck-codec").first { $0.name == "main.swift" }).text
        #expect(main.contains("CodecRequest(arguments:"))
        for handParsed in ["parsedOptions", "rest[", "--max-pixels\"", "--window\""] { #expect(!main.contains(handParsed), "main.swift holds \(handParsed)") }
    }
}
