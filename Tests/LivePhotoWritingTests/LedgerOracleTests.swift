import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoWriting
import LivePhotoTestSupport
import Testing

/// Every preservation ledger of the sample conversions and repairs equals an independent
/// comparison of the bytes read and the bytes written (`IndependentInventory`), area by area.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.tool("exiftool") != nil && Locations.tool("ffprobe") != nil,
                "needs ../shared/samples, exiftool and ffprobe"))
struct LedgerOracleTests {
    /// Areas the independent side does not list, and why: MPF images (no second MPF reader
    /// here; their bytes are in "image data" on that side); the MakerNote as an EXIF entry
    /// (ExifTool decodes it into its keys, compared as `maker-note`).
    func compared(_ name: String) -> Bool { !name.hasPrefix("mpf-image ") && !name.hasSuffix(" 0x927c") }

    /// The ledger's four lists, and the independent comparison's, as "area name" texts.
    func expectAgreement(_ ledger: PreservationLedger?, _ before: IndependentInventory, _ after: IndependentInventory, _ label: String) {
        guard let ledger else {
            Issue.record("\(label): no ledger")
            return
        }
        var independent: [String: [String]] = ["kept": [], "changed": [], "added": [], "dropped": []]
        for (name, value) in after.entries where compared(name) {
            switch before.entries[name] {
            case nil: independent["added", default: []].append(name)
            case value: independent["kept", default: []].append(name)
            default: independent["changed", default: []].append(name)
            }
        }
        independent["dropped"] = before.entries.keys.filter { after.entries[$0] == nil && compared($0) }
        let own = ["kept": ledger.kept, "changed": ledger.changed, "added": ledger.added, "dropped": ledger.dropped]
        for (word, names) in own {
            let mine = Set(names.map(\.text).filter(compared)), theirs = Set(independent[word] ?? [])
            #expect(mine == theirs, "\(label) \(word): only the ledger: \(mine.subtracting(theirs).sorted()); only the independent comparison: \(theirs.subtracting(mine).sorted())")
        }
    }

    /// A motion photo's still part and the movie ExifTool extracts: a JPEG's bytes before the
    /// movie, a HEIC whole (its items may lie anywhere; the box walk reads no movie).
    func split(_ url: URL, folder: URL) throws -> (still: URL, movie: URL) {
        let movie = try #require(try ConvertTests.extractedMovie(url, into: folder), "\(url.lastPathComponent): ExifTool extracts no movie")
        let bytes = try Data(contentsOf: url)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return (url, movie) }
        let start = try #require(bytes.range(of: try Data(contentsOf: movie).prefix(4096))?.lowerBound)
        let still = folder.appendingPathComponent("still-part-" + url.lastPathComponent)
        try bytes.prefix(upTo: start).write(to: still)
        return (still, movie)
    }

    func merged(_ parts: IndependentInventory...) -> IndependentInventory {
        var result = IndependentInventory()
        for part in parts { result.entries.merge(part.entries) { first, _ in first } }
        return result
    }

    @Test("convert, motion photo to Live Photo: each output's ledger equals the independent comparison with the part it comes from")
    func motionPhotosToPairs() throws {
        var converted = 0
        let inputs = ConvertTests.motionPhotos()
        defer { #expect(converted == inputs.count && converted >= 8, "\(converted) of \(inputs.count) motion photos converted") }
        for url in inputs {
            let folder = try Scratch.folder("ledger-mp")
            defer { try? FileManager.default.removeItem(at: folder) }
            let input = try Scratch.copy([url], into: folder)[0]
            let item = try #require(Checker(roots: [input.path]).run().items.first { $0.kind == .motionPhoto })
            var options = RepairOptions()
            options.force = true
            let plan = Converter.plan(item, to: .livePhoto, folder: folder.appendingPathComponent("out").path, options: options)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
            let outcome = PlanWriter.apply(plan, options: options)
            guard outcome.failure == nil, plan.files.count == 2 else {
                Issue.record("\(url.lastPathComponent) did not convert: \(outcome.failure ?? "\(plan.files.count) files planned") \(plan.problems)")
                continue
            }
            converted += 1
            let parts = try split(input, folder: folder)
            expectAgreement(plan.files[0].ledger, try .still(parts.still), try .still(URL(fileURLWithPath: plan.files[0].destination)), url.lastPathComponent + " still")
            expectAgreement(plan.files[1].ledger, try .movie(parts.movie), try .movie(URL(fileURLWithPath: plan.files[1].destination)), url.lastPathComponent + " movie")
        }
    }

    @Test("convert, camera pair to motion photo: the ledger equals the independent comparison with the still and the movie together")
    func pairsToMotionPhotos() throws {
        for (stillName, movieName) in ConvertTests.cameraPairs {
            let folder = try Scratch.folder("ledger-pair")
            defer { try? FileManager.default.removeItem(at: folder) }
            let files = try Scratch.copy([try #require(SharedSamples.url(stillName)), try #require(SharedSamples.url(movieName))], into: folder)
            let item = try #require(Checker(roots: [folder.path]).run().items.first { $0.kind == .pair })
            let out = folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            var options = RepairOptions()
            options.force = true
            let plan = Converter.plan(item, to: .motionPhoto, folder: out.path, options: options)
            #expect(PlanWriter.apply(plan, options: options).failure == nil, "\(stillName)")
            let file = try #require(plan.files.first)
            let parts = try split(URL(fileURLWithPath: file.destination), folder: folder)
            expectAgreement(file.ledger, merged(try .still(files[0]), try .movie(files[1])), merged(try .still(parts.still), try .movie(parts.movie)), stillName)
            if stillName.hasSuffix("IMG_3853.HEIC") {
                // The HDR gain map (an auxiliary image and its tone map item) is named and kept.
                let kept = file.ledger?.kept.map(\.name) ?? []
                #expect(kept.contains { $0.hasSuffix("urn:com:apple:photo:2020:aux:hdrgainmap") }, "\(kept.filter { $0.contains("aux") })")
                #expect(kept.contains { $0.hasSuffix(" tmap") })
            }
        }
    }

    @Test("repair with new identifiers, and --align-dates: each rewritten file's ledger equals the independent comparison with its original")
    func repairs() throws {
        for (stillName, movieName) in ConvertTests.cameraPairs {
            // henteko's still has no zone: --align-dates refuses it (AlignDatesTests).
            for alignDates in [false, true] where !(alignDates && stillName.hasPrefix("henteko")) {
                let folder = try Scratch.folder("ledger-repair")
                defer { try? FileManager.default.removeItem(at: folder) }
                let files = try Scratch.copy([try #require(SharedSamples.url(stillName)), try #require(SharedSamples.url(movieName))], into: folder)
                var options = RepairOptions()
                if alignDates {
                    // The movie a day late: only its date is rewritten.
                    _ = try Scratch.run("exiftool", ["-q", "-overwrite_original", "-Keys:CreationDate+=0:0:1 0:0:0", files[1].path])
                    options.alignDates = true
                } else {
                    options.prefer = .new
                    // A changed movie identifier makes the pair disagree; `new` rewrites both files.
                    let identifier = try #require(Scratch.exiftool(files[1])["Keys:ContentIdentifier"] as? String)
                    var movie = try Data(contentsOf: files[1])
                    while let range = movie.range(of: Data(identifier.utf8)) { movie.replaceSubrange(range, with: Data("11111111-2222-3333-4444-555555555555".utf8)) }
                    try movie.write(to: files[1])
                }
                let originals = try Scratch.copy(files, into: try Scratch.folder("ledger-originals"))
                defer { for url in originals { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) } }
                let plans = RepairPlanner.plan(Checker(roots: [folder.path]).run(), options: options)
                let plan = try #require(plans.first { !$0.files.isEmpty }, "\(stillName): nothing planned")
                #expect(PlanWriter.apply(plan, options: options).failure == nil)
                for file in plan.files {
                    let index = file.path == files[0].path ? 0 : 1
                    let before = index == 0 ? try IndependentInventory.still(originals[index]) : try IndependentInventory.movie(originals[index])
                    let after = index == 0 ? try IndependentInventory.still(files[index]) : try IndependentInventory.movie(files[index])
                    expectAgreement(file.ledger, before, after, "\(stillName) alignDates=\(alignDates) \(file.path)")
                }
            }
        }
    }

    @Test("make from our plain frame and clip: both outputs' ledgers equal the independent comparison with the inputs")
    func make() throws {
        let folder = try Scratch.folder("ledger-make")
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = Locations.samples.appendingPathComponent("plain-frame.jpg")
        let movie = Locations.samples.appendingPathComponent("plain-clip.mov")
        let stillFacts = FileFacts(MediaFile.inspect(path: still.path, options: .check))
        let movieFacts = FileFacts(MediaFile.inspect(path: movie.path, options: .check))
        let item = CheckItem(kind: .pair, still: stillFacts, movie: movieFacts, pairedBy: .name)
        let destinations = [still.path: folder.appendingPathComponent("a.JPG").path, movie.path: folder.appendingPathComponent("a.MOV").path]
        let moment = try RepairPlanner.moment(forMake: movieFacts.movie ?? MovieFacts(), options: RepairOptions())
        let plan = PlanWriter.plan(item, edits: ItemEdits(identifier: "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E35", moment: moment, brand: true), acting: [], destinations: destinations)
        var options = RepairOptions()
        options.backup = false
        #expect(PlanWriter.apply(plan, options: options).failure == nil)
        for file in plan.files {
            let isStill = file.path == still.path
            let before = isStill ? try IndependentInventory.still(still) : try IndependentInventory.movie(movie)
            let output = URL(fileURLWithPath: file.destination)
            let after = isStill ? try IndependentInventory.still(output) : try IndependentInventory.movie(output)
            expectAgreement(file.ledger, before, after, "make \(file.path)")
        }
    }
}
