import Foundation
@testable import LivePhotoFormats
@testable import LivePhotoWriting
import LivePhotoCheck
import LivePhotoTestSupport
import Testing

/// Issue 25, cases 1 to 5: what the readers refuse, the writers refuse; damaged inputs give no
/// output without --force; outputs are never worse than their inputs. Each case is built from
/// the bundled camera pair by `HostileStructure` (or a cut), as a hostile user would build it.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "needs lpcheck"))
struct WritersRefuseTests {
    static let still = Locations.samples.appendingPathComponent("camera-pair.jpg")
    static let movie = Locations.samples.appendingPathComponent("camera-pair.mov")

    /// The camera pair in a new folder, its movie damaged by `damage`.
    static func pair(_ label: String, movie damage: (([UInt8]) -> [UInt8])? = nil, still cut: Double? = nil) throws -> URL {
        let folder = try Scratch.folder(label)
        var stillBytes = try [UInt8](Data(contentsOf: still))
        if let cut { stillBytes = Array(stillBytes.prefix(Int(Double(stillBytes.count) * cut))) }
        try Data(stillBytes).write(to: folder.appendingPathComponent("camera-pair.jpg"))
        let movieBytes = try [UInt8](Data(contentsOf: movie))
        try Data(damage?(movieBytes) ?? movieBytes).write(to: folder.appendingPathComponent("camera-pair.mov"))
        return folder
    }

    static func files(in folder: URL) throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
    }

    /// The offset of the first box nested deeper than 32 levels: a top-level box is at depth 0,
    /// so the box at depth 33 of the chain of `type` boxes below the top-level `moov`, found by
    /// `BoxWalk` (not lpcheck's readers).
    static func firstBoxDeeperThan32(_ path: String, type: String) throws -> Int {
        let walk = BoxWalk(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        var current = try #require(walk.children(0..<walk.bytes.count).first { $0.type == "moov" })
        for _ in 1...33 {
            current = try #require(walk.children(current.body).last { $0.type == type }, "the chain of \(type) boxes ends early")
        }
        // Every box of the chain has an 8-byte header (its size fits 32 bits).
        return current.body.lowerBound - 8
    }

    @Test("case 1: 10,000 nested trak boxes: dump, check, convert and repair all refuse the movie at its offset; nothing is written, nothing crashes",
          arguments: [HostileStructure.nestedTracks, .nestedMovies])
    func deepNesting(_ kind: HostileStructure) throws {
        let count = kind == .nestedTracks ? 10_000 : 100_000
        let folder = try Self.pair("nesting", movie: { kind.apply(to: $0, count: count) })
        defer { try? FileManager.default.removeItem(at: folder) }
        let moviePath = folder.appendingPathComponent("camera-pair.mov").path
        let dump = try Scratch.lpcheck(["dump", moviePath])
        #expect(dump.text.contains("limit-exceeded: boxes nested deeper than 32"))
        let check = try Scratch.lpcheck(["check", "--format", "json", folder.path])
        #expect(check.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let findings = (report["items"] as? [[String: Any]] ?? []).flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        let unreadable = try #require(findings.first { $0["rule"] as? String == "unreadable-file" })
        #expect((unreadable["message"] as? String ?? "").contains("nested deeper than 32"))
        // Where the first box deeper than 32 levels starts, found by the tests' own box walk
        // (the chain of nested boxes hangs from the top-level moov, at depth 0).
        let deepest = try Self.firstBoxDeeperThan32(moviePath, type: kind == .nestedTracks ? "trak" : "moov")
        #expect(unreadable["offset"] as? Int == deepest, "lpcheck \(unreadable["offset"] ?? "none"), the walk \(deepest)")
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains("camera-pair.mov: not read, nothing written from it: limit-exceeded"))
        #expect(try Self.files(in: output).isEmpty)
        for dry in [true, false] {
            let repair = try Scratch.lpcheck(["repair", folder.path, "--time", "0.2"] + (dry ? ["--dry-run"] : []))
            #expect(repair.status == 1)
            #expect(repair.stderr.contains("not read, nothing written from it: limit-exceeded"))
        }
        #expect(try Self.files(in: folder) == ["camera-pair.jpg", "camera-pair.mov", "out"])
    }

    @Test("case 1: the rewriter's chunk-offset walk follows trak/mdia/minf/stbl only and is not recursive: 100,000 nested trak boxes are copied, not descended")
    func chunkOffsetWalkIsFlat() throws {
        var nest: [UInt8] = []
        for level in 0..<100_000 { nest += BoxBuilder.u32(UInt32(8 * (100_000 - level))) + BoxBuilder.fourCC("trak") }
        let stbl = BoxBuilder.box("stbl", BoxBuilder.stco([100, 200]))
        let trak = BoxBuilder.box("trak", BoxBuilder.box("mdia", BoxBuilder.box("minf", stbl)) + nest)
        let mapped = try MovieRewriter.mappingChunkOffsets(trak) { $0 + 1000 }
        #expect(mapped.count == trak.count)
        let expected = BoxBuilder.box("trak", BoxBuilder.box("mdia", BoxBuilder.box("minf", BoxBuilder.box("stbl", BoxBuilder.stco([1100, 1200])))) + nest)
        #expect(mapped == expected)
    }

    @Test("case 3: every video chunk offset past the end: check gives sample-data-outside-file (error), dump warns, and convert refuses without --force")
    func chunksPastTheEnd() throws {
        let folder = try Self.pair("chunks", movie: { HostileStructure.chunkOffsetsPastEnd.apply(to: $0, count: 1000) })
        defer { try? FileManager.default.removeItem(at: folder) }
        let moviePath = folder.appendingPathComponent("camera-pair.mov").path
        let dump = try Scratch.lpcheck(["dump", moviePath])
        #expect(dump.text.contains("outside-file: chunk"))
        let check = try Scratch.lpcheck(["check", folder.path])
        #expect(check.status == 1)
        #expect(check.text.contains("error sample-data-outside-file: Sample data outside the file: chunk"))
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 1)
        #expect(convert.text.contains("DAMAGED INPUT: \(moviePath) is damaged (sample-data-outside-file)"))
        #expect(try Self.files(in: output).isEmpty)
    }

    @Test("case 4: a cut JPEG still converts to nothing without --allow-damaged (the plan names the damage and the flag); with it (no --force) it converts and says so")
    func truncatedStill() throws {
        let folder = try Self.pair("cut", still: 0.8)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 1)
        #expect(convert.text.contains("DAMAGED INPUT: \(folder.path)/camera-pair.jpg is damaged (truncated-file)"))
        #expect(convert.text.contains("(needs --allow-damaged)"))
        #expect(try Self.files(in: output).isEmpty)
        let dry = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path, "--dry-run", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: dry.stdout) as? [String: Any])
        let item = try #require((document["items"] as? [[String: Any]])?.first)
        #expect(item["status"] as? String == "blocked")
        #expect((item["damage"] as? [String])?.count == 1)
        let forced = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path, "--allow-damaged"])
        #expect(forced.status == 0)
        #expect(forced.text.contains("DAMAGED INPUT"))
        #expect(try Self.files(in: output) == ["camera-pair.MP.jpg"])
    }

    @Test("case 5: a motion photo whose movie's samples lie outside the file does not convert back without --force, and the plan names the damage")
    func damagedMotionPhoto() throws {
        let folder = try Self.pair("motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = folder.appendingPathComponent("made")
        #expect(try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", made.path]).status == 0)
        // The embedded movie (last, from its ftyp on) gets every chunk offset past its end.
        let url = made.appendingPathComponent("camera-pair.MP.jpg")
        let bytes = try [UInt8](Data(contentsOf: url))
        let ftyp = try #require((4..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == Array("ftyp".utf8) })
        let movieStart = ftyp - 4
        let damaged = Array(bytes[..<movieStart]) + HostileStructure.chunkOffsetsPastEnd.apply(to: Array(bytes[movieStart...]), count: 1000)
        #expect(damaged.count == bytes.count && damaged != bytes)
        try Data(damaged).write(to: url)
        let check = try Scratch.lpcheck(["check", made.path])
        #expect(check.text.contains("error sample-data-outside-file: Sample data outside the file: chunk 1 of 1 starts at byte"))
        let back = folder.appendingPathComponent("back")
        let convert = try Scratch.lpcheck(["convert", made.path, "--to", "live-photo", "--output", back.path])
        #expect(convert.status == 1)
        #expect(convert.text.contains("DAMAGED INPUT: \(url.path) is damaged (sample-data-outside-file)"))
        #expect(!convert.text.contains("unchanged"))
        #expect(try Self.files(in: back).isEmpty)
    }

    @Test("make refuses a damaged input without --force and names it")
    func makeRefusesDamage() throws {
        let folder = try Self.pair("make", still: 0.8)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out")
        let make = try Scratch.lpcheck(["make", folder.appendingPathComponent("camera-pair.jpg").path, folder.appendingPathComponent("camera-pair.mov").path,
                                        "--output", output.path])
        #expect(make.status == 1)
        #expect(make.text.contains("DAMAGED INPUT:"))
        #expect(try Self.files(in: output).isEmpty)
    }

    @Test("case 7: a write killed before its rename leaves lpcheck's temporary file; check names it as such, and the next repair or convert removes it and says so")
    func leftovers() throws {
        let folder = try Self.pair("leftover")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_FAULT_STEP"] = "1"
        let killed = try Scratch.lpcheck(["repair", folder.path, "--time", "0.2"], environment: environment)
        #expect(killed.status == 86)
        let left = try Self.files(in: folder).filter { $0.contains(".lpcheck-tmp-") }
        #expect(left.count == 1)
        let check = try Scratch.lpcheck(["check", "--verbose", folder.path])
        #expect(check.text.contains("\(left.first ?? "?"): lpcheck's temporary file, left by a write of process"))
        let repair = try Scratch.lpcheck(["repair", folder.path, "--time", "0.2"])
        #expect(repair.status == 0)
        #expect(repair.text.contains("removed \(folder.path)/\(left.first ?? "?"): lpcheck's temporary file from an interrupted write"))
        #expect(try Self.files(in: folder).filter { $0.hasPrefix(".") && $0 != ".lpcheck-backup" }.isEmpty)

        let output = folder.appendingPathComponent("out")
        let killedConvert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path], environment: environment)
        #expect(killedConvert.status == 86)
        #expect(try Self.files(in: output).count == 1)
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path])
        #expect(convert.status == 0)
        #expect(convert.text.contains("removed \(output.path)/."))
        #expect(try Self.files(in: output) == ["camera-pair.MP.jpg"])
    }

    @Test("case 10: repair takes --no-progress as check and convert do")
    func repairNoProgress() throws {
        let folder = try Self.pair("progress")
        defer { try? FileManager.default.removeItem(at: folder) }
        let repair = try Scratch.lpcheck(["repair", "--no-progress", "--dry-run", folder.path])
        #expect(repair.status == 0)
        #expect(repair.text.contains("Nothing to repair"))
    }

    @Test("case 10: a cut HEIC forced through convert is blamed as the input's damage, not as a write that does not read back",
          .enabled(if: Locations.hasSharedSamples))
    func cutHEICBlamed() throws {
        let root = try #require(Locations.sharedSamples)
        let folder = try Scratch.folder("cut-heic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let heic = try [UInt8](Data(contentsOf: root.appendingPathComponent("Bai-Mirror__pyheic_struct/apple.HEIC")))
        try Data(heic.prefix(heic.count * 9 / 10)).write(to: folder.appendingPathComponent("apple.HEIC"))
        try Data(contentsOf: root.appendingPathComponent("Bai-Mirror__pyheic_struct/apple.MOV")).write(to: folder.appendingPathComponent("apple.MOV"))
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", folder.path, "--to", "motion-photo", "--output", output.path, "--force"])
        #expect(convert.status == 1)
        #expect(convert.text.contains("FAILED, nothing written: the input \(folder.path)/apple.HEIC is damaged (truncated: box 'mdat' claims"))
        #expect(try Self.files(in: output).isEmpty)
    }

    @Test("case 12: dump of a movie with 8 bytes before its ftyp says it recognises nothing, why, and where the ftyp is, and exits 1")
    func dumpRecognisesNothing() throws {
        let folder = try Scratch.folder("shifted")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("shifted.mov")
        try Data([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0] + [UInt8](Data(contentsOf: Self.movie))).write(to: url)
        for format in ["text", "json"] {
            let dump = try Scratch.lpcheck(["dump", "--format", format, url.path])
            #expect(dump.status == 1)
            #expect(dump.stderr.contains("not recognised: its first bytes are no image signature"))
            #expect(dump.stderr.contains("an 'ftyp' box starts at byte 8: the file seems to have 8 bytes before its movie or image"))
        }
        #expect(try Scratch.lpcheck(["dump", Self.movie.path]).status == 0)
    }
}

/// The read-back's last question: does every rule find an error in the output that its inputs
/// did not have? (`PlanWriter.newErrors`; `verify` refuses such an output unless --force.)
struct OutputNeverWorseTests {
    @Test("an error the inputs lacked is new; one they had, or a pairing rule's, is not")
    func newErrorsOnly() {
        var input = Example.pair()
        input.findings = PlanWriter.fileFindings(input)
        #expect(PlanWriter.newErrors(in: input, against: input).isEmpty)
        // The output lost its video: no-video-track is an error the input did not have.
        let broken = Example.pair(movie: Example.movie { $0.videoTrackCount = 0; $0.frameDurations = nil; $0.frames = [] })
        #expect(PlanWriter.newErrors(in: broken, against: input).map(\.rule) == ["no-video-track"])
        // The same error already in the input is not new.
        var alreadyBroken = broken
        alreadyBroken.findings = PlanWriter.fileFindings(broken)
        #expect(PlanWriter.newErrors(in: broken, against: alreadyBroken).isEmpty)
        // A movie alone is a pairing matter (still-absent), never an output's new error.
        let alone = CheckItem(kind: .movieOnly, movie: Example.movie())
        #expect(!PlanWriter.newErrors(in: alone, against: input).contains { $0.rule == "still-absent" })
    }
}
