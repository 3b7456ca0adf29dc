import Foundation
@testable import LivePhotoCheck
@testable import LivePhotoRecords
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// `check --facts --bounded-memory` checks a library one group of related files at a time and
/// makes items again when they are written: its reports must be the in-memory check's, byte for
/// byte, on libraries where files relate across folders, names and identifiers.
struct BoundedFactsCheckTests {
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The records `lpcheck scan` writes for `roots`, in `file`.
    static func scan(_ roots: [String], to file: URL) throws {
        var checker = Checker(roots: roots)
        checker.jobs = 2
        let scanned = checker.scan(Discovery().find(roots))
        let text = FactsRecords.header(version: "test", roots: roots, host: "h") + FactsRecords.leftUnread(hidden: scanned.hidden, problems: scanned.problems)
            + FactsRecords.files(scanned.files)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// A checker on two threads.
    static var checker: Checker {
        var checker = Checker(roots: [])
        checker.jobs = 2
        return checker
    }

    /// Our samples' records, in `scratch`.
    static func sampleRecords(in scratch: URL) throws -> URL {
        let records = scratch.appendingPathComponent("records.ndjson")
        try scan([Locations.samples.path], to: records)
        return records
    }

    /// Libraries: our samples, the shared samples, each realistic layout, and all of them in
    /// one scan (where same names recur across folders and identifiers across layouts).
    static func libraries(in scratch: URL) throws -> [[String]] {
        var libraries = [[Locations.samples.path]]
        guard let shared = Locations.sharedSamples else { return libraries }
        libraries.append([shared.path])
        var layouts: [String] = []
        for layout in LibraryLayout.all + [Self.namesOnly] {
            let root = scratch.appendingPathComponent(layout.name).path
            try layout.build(in: root)
            layouts.append(root)
            libraries.append([root])
        }
        libraries.append([Locations.samples.path, shared.path] + layouts)
        // One identifier on 300 files (hard links of one camera pair in 15 folders): pairing's
        // large-group path, and a bounded check's too.
        let stamped = scratch.appendingPathComponent("stamped").path
        for index in 0..<150 {
            let folder = stamped + "/\(index / 10)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: shared.appendingPathComponent("LycheeOrg__Lychee/train.jpg").path, toPath: folder + "/IMG_\(1000 + index).JPG")
            try FileManager.default.linkItem(atPath: shared.appendingPathComponent("LycheeOrg__Lychee/train.mov").path, toPath: folder + "/IMG_\(1000 + index).MOV")
        }
        libraries.append([stamped])
        return libraries
    }

    /// A still and a movie with different identifiers whose names agree once the copy mark is
    /// removed: they pair by name, related by nothing but the name without marks.
    static let namesOnly = LibraryLayout(name: "names-only", entries: [
        LibraryLayout.Entry(path: "names/IMG_7000.JPG", source: .sample("henteko__livephotoskit-react/test.JPG"), kind: "pair"),
        LibraryLayout.Entry(path: "names/IMG_7000 (1).MOV", source: .sample("Bai-Mirror__pyheic_struct/apple.MOV"), kind: "pair"),
    ])

    @Test("every report format of a bounded check equals the in-memory check's, for every library (one identifier on 300 files, every record twice, a pair by its marker alone included), whether groups are made again, kept as pairing's decisions or kept whole")
    func equalsInMemory() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = scratch.appendingPathComponent("records.ndjson")
        var compared = 0
        let libraries = try Self.libraries(in: scratch)
        // The last library's records twice over (overlapping shards): every path twice.
        for (roots, twice) in libraries.map({ ($0, false) }) + [(libraries[libraries.count - 1], true)] {
            try Self.scan(roots, to: records)
            if twice {
                let text = try String(contentsOf: records, encoding: .utf8)
                try (text + text).write(to: records, atomically: true, encoding: .utf8)
            }
            compared += try Self.compare(records, "\(roots) twice \(twice)")
        }
        // A still and a movie without identifiers, named alike, the movie with a still-image-time
        // track: they pair by that marker alone (records only: no tool removes an identifier).
        var checker = Checker(roots: [Locations.samples.path])
        checker.jobs = 2
        let samples = checker.scan(Discovery().find([Locations.samples.path])).files
        var still = try #require(samples.first { $0.fileName == "plain-frame.jpg" })
        var movie = try #require(samples.first { $0.fileName == "camera-pair.mov" && $0.movie?.stillImageTimeTracks.isEmpty == false })
        still.path = "/marker/CLIP_1.JPG"
        movie.path = "/marker/CLIP_1.MOV"
        movie.contentIdentifier = nil
        try (FactsRecords.header(version: "test", roots: ["/marker"], host: "h") + FactsRecords.files([still, movie])).write(to: records, atomically: true, encoding: .utf8)
        compared += try Self.compare(records, "marker only")
        #expect(compared >= 20)
    }

    /// Compares the bounded check of `records` with the in-memory one: every format, the totals;
    /// with groups made again for each item (one group remembered), kept as pairing's decisions
    /// (all of them, or all but single files), the default, and the default with the record
    /// file opened for each read. Returns the reports compared.
    static func compare(_ records: URL, _ label: String) throws -> Int {
        var checker = Self.checker
        var scanned = try FactsRecords.read([records.path])
        checker.roots = scanned.roots
        let memory = checker.report(&scanned)
        #expect(!memory.items.isEmpty)
        var compared = 0
        // The last: no record file kept open (each read opens it, as with hundreds of shards).
        for (pinAbove, cacheSize, openAtOnce) in [(64, 512, 256), (Int.max, 1, 256), (0, 1, 256), (1, 1, 256), (64, 512, 0)] {
            let bounded = try BoundedFactsCheck.report([records.path], checker: checker, pinAbove: pinAbove, cacheSize: cacheSize, openAtOnce: openAtOnce)
            #expect(bounded.report.items.madeOnDemand)
            #expect(bounded.report.totals == memory.totals, "\(label)")
            for reporter in CheckReporters.all where reporter.identifier != CheckHTML.identifier {
                #expect(reporter.render(bounded.report) == reporter.render(memory), "\(reporter.identifier) \(label) pin \(pinAbove)")
                compared += 1
            }
            #expect(bounded.report.items.readFailure == nil)
        }
        return compared
    }

    @Test("a report's counts follow an item changed in place, whether its items are held or made on demand")
    func countsFollowChanges() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = try Self.sampleRecords(in: scratch)
        let checker = Self.checker
        var scanned = try FactsRecords.read([records.path])
        let memory = checker.report(&scanned)
        let bounded = try BoundedFactsCheck.report([records.path], checker: checker, cacheSize: 1).report
        for var report in [memory, bounded] {
            let errors = report.count(.error)
            let index = try #require(report.items.indices.first { position in report.items[position].findings.contains { $0.severity == .error } })
            let removed = report.items[index].findings.filter { $0.severity == .error && !$0.baselined }.count
            #expect(removed > 0 && !report.passed)
            report.items[index].findings = []
            #expect(report.items[index].findings.isEmpty)
            #expect(report.count(.error) == errors - removed, "made on demand: \(report.items.madeOnDemand)")
            // The other items are still the report's own.
            #expect(report.items.count == memory.items.count)
            #expect(CheckJSON.item(report.items[index == 0 ? 1 : 0]) == CheckJSON.item(memory.items[index == 0 ? 1 : 0]))
        }
    }

    @Test("records that change after they were indexed are not trusted: the failure names the record file")
    func changedRecords() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = try Self.sampleRecords(in: scratch)
        let checker = Self.checker
        let bounded = try BoundedFactsCheck.report([records.path], checker: checker, pinAbove: Int.max, cacheSize: 1)
        #expect(bounded.report.items.readFailure == nil)
        // Another scan's records in their place: lines no longer where the index says.
        let text = try String(contentsOf: records, encoding: .utf8)
        try text.replacingOccurrences(of: "\"facts\":{", with: "\"facts\":  {").write(to: records, atomically: false, encoding: .utf8)
        // The source says so itself when an item is made, and the collection keeps it.
        #expect(throws: (any Error).self) { try bounded.source.item(at: 0) }
        for index in bounded.report.items.indices { _ = bounded.report.items[index] }
        #expect(bounded.report.items.allSatisfy { $0.kind == .unreadable })
        let failure = try #require(bounded.report.items.readFailure)
        #expect(failure.contains(records.path))
    }

    @Test("standard input and other pipes are refused: their records cannot be read twice")
    func pipes() throws {
        #expect(throws: BoundedFactsCheck.Failure.self) { try BoundedFactsCheck.report(["-"], checker: Checker(roots: [])) }
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("records.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            _ = try BoundedFactsCheck.report([fifo], checker: Checker(roots: []))
            Issue.record("a FIFO was accepted")
        } catch {
            #expect("\(error)".contains("not a regular file"))
        }
    }
}
