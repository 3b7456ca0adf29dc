import Foundation
import LivePhotoTestSupport
import Testing

/// `check --cache` when a cache cannot be trusted, is shared by two runs, or outlives files.
extension FactsCacheTests {
    @Test("a cache from another build is emptied, a damaged one made anew, a locked one not written: each said, the report right")
    func distrust() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder) = (scratch.cache, scratch.samples)
        let direct = try Self.lpcheck(["check", folder, "--format", "json"])
        #expect(try Self.lpcheck(["check", folder, "--cache", cache, "--quiet"]).status == direct.status)

        // Another build wrote it.
        let python = try #require(Locations.tool("python3"))
        // An older build, with the table of its own time (no thumbnail columns).
        let edit = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update meta set value='lpcheck-facts-cache 0' where key='build'\"); "
            + "c.execute('drop table files'); c.execute('create table files (path BLOB PRIMARY KEY, device INTEGER, inode INTEGER, size INTEGER, modified INTEGER, changed INTEGER, facts BLOB)'); "
            + "c.execute(\"insert into files values (x'2f78', 1, 2, 3, 4, 5, x'00')\"); c.commit()"
        #expect(try ProcessResult.run(python, ["-c", edit, cache]).status == 0)
        let other = try Self.lpcheck(["check", folder, "--cache", cache, "--stats", "--format", "json"])
        #expect(other.stderr.contains("written by another build") && other.stderr.contains("emptied"), "\(other.stderr)")
        #expect(try Self.stats(other).hits == 0)
        #expect(Self.report(other) == Self.report(direct))
        let afterOther = try Self.lpcheck(["check", folder, "--cache", cache, "--stats", "--format", "json"])
        #expect(try Self.stats(afterOther).bytes == 0, "\(afterOther.stderr)")
        #expect(Self.report(afterOther) == Self.report(direct))

        // Damaged: garbage where the database was.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache + suffix) }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: cache))
        let damaged = try Self.lpcheck(["check", folder, "--cache", cache, "--stats", "--format", "json"])
        #expect(damaged.stderr.contains("damaged") && damaged.stderr.contains("made anew"), "\(damaged.stderr)")
        #expect(try Self.stats(damaged).hits == 0)
        #expect(Self.report(damaged) == Self.report(direct))
        let after = try Self.lpcheck(["check", folder, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.stats(after).bytes == 0, "the remade cache serves the next run")

        // Locked: another process holds the write lock for longer than this run waits.
        try? FileManager.default.removeItem(atPath: cache)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache + suffix) }
        let locked = try Self.whileLocked(cache) {
            try Self.lpcheck(["check", folder, "--cache", cache, "--format", "json"], environment: ["LPCHECK_CACHE_WAIT_MS": "200"])
        }
        #expect(locked.stderr.contains("locked"), "\(locked.stderr)")
        #expect(Self.report(locked) == Self.report(direct))
    }

    @Test("two runs on one cache at once: both right, and the cache serves the next run whole")
    func concurrentRuns() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let (cache, folder) = (scratch.cache, scratch.samples)
        let direct = try Self.lpcheck(["check", folder, "--format", "json"])
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            results.add(try? Self.lpcheck(["check", folder, "--cache", cache, "--format", "json"]))
        }
        #expect(results.values.count == 4)
        for result in results.values {
            #expect(Self.report(result) == Self.report(direct), "\(result.stderr)")
            #expect(!result.stderr.contains("damaged"))
        }
        let next = try Self.lpcheck(["check", folder, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.stats(next).bytes == 0, "\(next.stderr)")
    }

    /// The cache rows a run removed (files the walk no longer finds), from --stats.
    static func pruned(_ result: ProcessResult) throws -> Int {
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("stats:") }, "\(result.stderr)")
        let range = try #require(line.range(of: " cache rows of files the walk no longer finds removed"))
        return try #require(Int(line[..<range.lowerBound].split(separator: " ").last ?? ""))
    }

    @Test("rows of files gone from a checked folder are removed; a run on another folder keeps them; nothing else is served stale")
    func pruning() throws {
        let scratch = try Self.scratch()
        defer { scratch.remove() }
        let root = scratch.root
        let (cache, samples) = (scratch.cache, scratch.samples)
        let other = root.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: samples + "/plain-frame.jpg", toPath: other + "/frame.jpg")
        let first = try Self.lpcheck(["check", samples, other, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.pruned(first) == 0)

        // Two files of Samples go (one deleted, one moved out of every checked folder), one of
        // other goes too.
        try FileManager.default.removeItem(atPath: samples + "/plain-clip.mov")
        try FileManager.default.moveItem(atPath: samples + "/software-pair.mov", toPath: root.appendingPathComponent("software-pair.mov").path)
        try FileManager.default.removeItem(atPath: other + "/frame.jpg")
        // A run on Samples (given with a trailing slash) removes its two, not other's.
        let samplesOnly = try Self.lpcheck(["check", samples + "/", "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.pruned(samplesOnly) == 2, "\(samplesOnly.stderr)")
        #expect(try Self.stats(samplesOnly).bytes == 0)
        let again = try Self.lpcheck(["check", samples, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.pruned(again) == 0)
        let both = try Self.lpcheck(["check", samples, other, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.pruned(both) == 1)

        // A root that is gone for the moment (an unmounted share) or empty prunes nothing below it.
        try FileManager.default.copyItem(atPath: samples + "/plain-frame.jpg", toPath: other + "/again.jpg")
        #expect(try Self.lpcheck(["check", other, "--cache", cache, "--quiet"]).status != 2)
        let away = root.appendingPathComponent("away").path
        try FileManager.default.moveItem(atPath: other, toPath: away)
        let unmounted = try Self.lpcheck(["check", samples, other, "", "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.pruned(unmounted) == 0, "\(unmounted.stderr)")
        try FileManager.default.moveItem(atPath: away, toPath: other)
        let remounted = try Self.lpcheck(["check", other, "--cache", cache, "--stats", "--quiet"])
        #expect(try Self.stats(remounted).bytes == 0, "\(remounted.stderr)")

        // A file put back is read again (its row went), and the report is the direct one.
        try FileManager.default.moveItem(atPath: root.appendingPathComponent("software-pair.mov").path, toPath: samples + "/software-pair.mov")
        let back = try Self.lpcheck(["check", samples, "--cache", cache, "--stats", "--format", "json"])
        #expect(try Self.stats(back).bytes > 0)
        #expect(Self.report(back) == Self.report(try Self.lpcheck(["check", samples, "--format", "json"])))
    }

    final class ResultsBox: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var values: [ProcessResult] = []
        func add(_ result: ProcessResult?) {
            lock.lock()
            if let result { values.append(result) }
            lock.unlock()
        }
    }
}
