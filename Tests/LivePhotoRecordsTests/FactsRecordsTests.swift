import Foundation
@testable import LivePhotoCheck
@testable import LivePhotoRecords
import LivePhotoReports
import LivePhotoTestSupport
import Testing

/// `check --facts` reads record files a block at a time: lines that cross blocks, blank lines,
/// a last line without its newline and standard input all read as the whole file would.
struct FactsRecordsTests {
    static func scratch(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-facts-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    /// What a scan result says, as records (the form that must not change with the block size).
    static func records(_ scan: ScanResult) -> String {
        FactsRecords.header(version: "test", roots: scan.roots, host: "h") + FactsRecords.leftUnread(hidden: scan.hidden, problems: scan.problems)
            + FactsRecords.files(scan.files)
    }

    @Test("records read in blocks of 1, 7, 100 and 4 MiB bytes give the same scan, blank lines and a missing last newline included")
    func blockBoundaries() throws {
        var checker = Checker(roots: [Locations.samples.path])
        checker.jobs = 2
        let scanned = checker.scan(Discovery().find([Locations.samples.path]))
        #expect(scanned.files.count > 10)
        let text = Self.records(scanned)
        // Blank lines between records and no newline after the last one.
        let altered = text.replacingOccurrences(of: "\n{\"facts\"", with: "\n\n{\"facts\"").dropLast()
        let file = try Self.scratch("scan.ndjson")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try String(altered).write(to: file, atomically: true, encoding: .utf8)
        let whole = try FactsRecords.read([file.path])
        #expect(whole.files.count == scanned.files.count)
        for size in [1, 7, 100, 4 << 20] {
            let read = try FactsRecords.read([file.path], stripPrefix: nil, prefix: "", blockSize: size)
            #expect(Self.records(read) == Self.records(whole), "block size \(size)")
        }
    }

    @Test("a line longer than the limit is refused with the byte it starts at; nothing past it is read")
    func longLine() throws {
        let file = try Self.scratch("long.ndjson")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try ("{\"type\":\"scan\"}\n" + String(repeating: "x", count: 500) + "\n{\"type\":\"hidden\"}\n").write(to: file, atomically: true, encoding: .utf8)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var reader = FactsRecords.LineReader(handle: handle, blockSize: 16, longestLine: 100)
        let first = try reader.next(lines: 1, file: "long.ndjson")
        #expect(first.map { String(decoding: $0.0[$0.1[0]], as: UTF8.self) } == "{\"type\":\"scan\"}")
        do {
            _ = try reader.next(lines: 1, file: "long.ndjson")
            Issue.record("a 500-byte line passed a 100-byte limit")
        } catch {
            #expect("\(error)".contains("long.ndjson: a line longer than 100 bytes at byte 16"))
        }
    }

    @Test("case 6: a path in two records is one file: byte-identical records are kept once (counted), differing ones are an error naming both files and lines; in memory and bounded alike")
    func repeatedPaths() throws {
        var checker = Checker(roots: [Locations.samples.path])
        checker.jobs = 2
        let scanned = checker.scan(Discovery().find([Locations.samples.path]))
        let file = try Self.scratch("shard.ndjson")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Self.records(scanned).write(to: file, atomically: true, encoding: .utf8)
        let once = try FactsRecords.read([file.path])
        let twice = try FactsRecords.read([file.path, file.path])
        #expect(twice.files.count == once.files.count)
        #expect(twice.repeatedRecords == once.files.count)
        #expect(once.repeatedRecords == 0)
        #expect(Self.records(twice) == Self.records(once))
        // The reports agree, and no pair falls apart into two absence errors.
        var single = once, double = twice
        let expected = CheckJSON.render(checker.report(&single, compare: nil))
        #expect(CheckJSON.render(checker.report(&double, compare: nil)) == expected)
        let (bounded, source) = try BoundedFactsCheck.report([file.path, file.path], checker: checker, compare: nil)
        #expect(source.repeatedRecords == once.files.count)
        #expect(CheckJSON.render(bounded) == expected)

        // One record changed in a second shard: the same path with other facts.
        let lines = Self.records(scanned).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("camera-pair.mov") && $0.contains("\"type\":\"file\"") })
        var changed = lines
        changed[index] = changed[index].replacingOccurrences(of: "\"size\":12489", with: "\"size\":12488")
        #expect(changed[index] != lines[index])
        let other = try Self.scratch("other.ndjson")
        defer { try? FileManager.default.removeItem(at: other.deletingLastPathComponent()) }
        try changed.joined(separator: "\n").write(to: other, atomically: true, encoding: .utf8)
        for read in [{ _ = try FactsRecords.read([file.path, other.path]) },
                     { _ = try BoundedFactsCheck.report([file.path, other.path], checker: checker, compare: nil) }] {
            do {
                try read()
                Issue.record("two differing records of one path were read")
            } catch {
                #expect("\(error)".contains("camera-pair.mov is in two records that differ, \(file.path):\(index + 1) and \(other.path):\(index + 1)"))
            }
        }
    }
}
