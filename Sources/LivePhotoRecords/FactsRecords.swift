import Foundation
import LivePhotoFormats
import LivePhotoCheck
import LivePhotoReports

/// `lpcheck scan --format ndjson`: one JSON record per line (Reports/facts.schema.json). A
/// `scan` header, then `hidden` and `problem` records for what discovery left unread, then one
/// `file` record per file with its facts: everything pairing and the rules read, nothing more.
/// `check --facts` reads the records of one or many scans back into one `ScanResult`.
public enum FactsRecords {
    /// Raised when the records change shape; readers refuse other schemas.
    public static let schema = 1

    struct Record: Codable {
        var type: String
        var schema: Int?
        var tool: String?
        var version: String?
        var roots: [String]?
        /// The machine that scanned: device numbers are only comparable within one.
        var host: String?
        var path: String?
        var reason: String?
        var facts: FileFacts?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A record's line: compact JSON, keys in byte order, written as the reports' JSON is.
    static func line(_ record: Record) -> String {
        // Every field is a plain value; encoding cannot fail.
        (try? JSONValue.encoding(record)).map { $0.serialized(indent: nil, escaping: .minimal) + "\n" } ?? ""
    }

    public static func header(version: String, roots: [String], host: String = ProcessInfo.processInfo.hostName) -> String {
        line(Record(type: "scan", schema: schema, tool: "lpcheck", version: version, roots: roots, host: host))
    }

    /// The records of what discovery did not read: hidden files and unreadable paths.
    public static func leftUnread(hidden: [String], problems: [(path: String, reason: String)]) -> String {
        hidden.map { line(Record(type: "hidden", path: $0)) }.joined()
            + problems.map { line(Record(type: "problem", path: $0.path, reason: $0.reason)) }.joined()
    }

    /// File records, encoded on all cores, in order.
    public static func files(_ facts: [FileFacts]) -> String {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, facts.count / 64))
        let parts = LineSlots(count: workers)
        Parallel.chunks(facts.count, chunks: workers) { worker, range in
            parts.set(worker, facts[range].map { line(Record(type: "file", facts: $0)) }.joined())
        }
        return parts.joined
    }

    final class LineSlots: Sendable {
        private let slots: Locked<[String]>
        init(count: Int) { slots = Locked(Array(repeating: "", count: count)) }
        func set(_ index: Int, _ text: String) { slots.withLock { $0[index] = text } }
        var joined: String { slots.withLock { $0.joined() } }
    }

    /// The first `limit` non-empty lines of `data` (found with memchr: Data.split is slow), and where the bytes they take end (after the
    /// last newline taken); with `completeOnly`, a last line without its newline is left out.
    static func lineRanges(_ data: Data, completeOnly: Bool, limit: Int) -> (ranges: [Range<Int>], end: Int) {
        data.withUnsafeBytes { raw -> ([Range<Int>], Int) in
            guard let base = raw.baseAddress else { return ([], 0) }
            var lines: [Range<Int>] = []
            var start = 0
            while start < raw.count, lines.count < limit {
                guard let newline = memchr(base + start, 0x0A, raw.count - start) else {
                    if completeOnly { break }
                    lines.append(start..<raw.count)
                    return (lines, raw.count)
                }
                let end = UnsafeRawPointer(newline) - base
                if end > start { lines.append(start..<end) }
                start = end + 1
            }
            return (lines, start)
        }
    }

    /// Decodes lines on all cores; results in order.
    static func decode(_ ranges: [Range<Int>], in data: Data) -> [Result<Record, Error>] {
        let slots = Slots(count: ranges.count)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, ranges.count / 64))
        data.withUnsafeBytes { raw in
            // Read only, by every worker, while `data` is held here.
            let block = SharedBytes(raw: raw)
            Parallel.workers(workers) { worker in
                var index = worker
                while index < ranges.count {
                    let line = UnsafeRawBufferPointer(rebasing: block.raw[ranges[index]])
                    slots.set(index, Result { try JSONReader.decode(Record.self, from: line) })
                    index += workers
                }
            }
        }
        return slots.values
    }

    /// The record of a batch slot, moved out of it (the slot is left an empty failure): the
    /// facts in it are then the only copy, and mapping their path changes them in place.
    static func take(_ slot: inout Result<Record, Error>) throws -> Record {
        var outcome: Result<Record, Error> = .failure(Failure(description: ""))
        swap(&outcome, &slot)
        return try outcome.get()
    }

    struct SharedBytes: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
    }

    /// Result slots filled by several threads, each index by one.
    final class Slots: Sendable {
        private let storage: Locked<[Result<Record, Error>?]>
        init(count: Int) { storage = Locked(Array(repeating: nil, count: count)) }
        func set(_ index: Int, _ value: Result<Record, Error>) { storage.withLock { $0[index] = value } }
        var values: [Result<Record, Error>] { storage.withLock { $0.map { $0 ?? .failure(Failure(description: "not decoded")) } } }
    }

    /// Puts `values[order[i]]` at `i` in place, one cycle at a time (no second array: the facts
    /// of a million files are 200 MB).
    static func permute<T>(_ values: inout [T], by order: [Int]) {
        var placed = [Bool](repeating: false, count: values.count)
        for start in values.indices where !placed[start] {
            let first = values[start]
            var index = start
            while order[index] != start {
                values[index] = values[order[index]]
                placed[index] = true
                index = order[index]
            }
            values[index] = first
            placed[index] = true
        }
    }

    /// Lines of a record file, read in blocks: each call gives the next complete lines (at most
    /// `lines`, non-empty ones) and the bytes they are ranges of.
    public struct LineReader {
        let handle: FileHandle
        /// Bytes read and not yet handed out (a partial line at the end).
        var pending = Data()
        var atEnd = false
        /// Bytes handed out before `pending`.
        var consumed = 0
        public static let block = 4 << 20
        /// No record is anywhere near this long; a longer line is not a facts record.
        static let longestLine = 64 << 20
        let blockSize: Int
        let longestLine: Int

        init(handle: FileHandle, blockSize: Int = Self.block, longestLine: Int = Self.longestLine) {
            self.handle = handle
            self.blockSize = max(1, blockSize)
            self.longestLine = longestLine
        }

        mutating func next(lines wanted: Int, file: String) throws -> (Data, [Range<Int>])? {
            while true {
                let (ranges, end) = FactsRecords.lineRanges(pending, completeOnly: !atEnd, limit: wanted)
                if ranges.count == wanted || (atEnd && !ranges.isEmpty) {
                    let data = Data(pending.prefix(end))
                    pending = Data(pending.dropFirst(end))
                    consumed += end
                    return (data, ranges)
                }
                if atEnd { return nil }
                guard pending.count - end <= longestLine else {
                    throw Failure(description: "\(file): a line longer than \(longestLine) bytes at byte \(consumed + end) (not a facts record)")
                }
                try fill(file: file)
            }
        }

        private mutating func fill(file: String) throws {
            let block: Data?
            do {
                block = try handle.read(upToCount: blockSize)
            } catch {
                throw Failure(description: "\(file): cannot read (\(error.localizedDescription))")
            }
            if let block, !block.isEmpty { pending.append(block) } else { atEnd = true }
        }
    }

    /// Reads record files (`-` is standard input) into one scan, in the order a single walk
    /// would have listed the files. Paths starting with `stripPrefix` get `prefix` instead
    /// (shards scanned on other machines or mount points).
    /// `blockSize`: bytes read at a time (tests and the fuzzer read with tiny blocks, so that
    /// lines cross them).
    public static func read(_ paths: [String], stripPrefix: String? = nil, prefix: String = "", blockSize: Int = LineReader.block) throws -> ScanResult {
        var files: [FileFacts] = []
        var result = try visit(paths, stripPrefix: stripPrefix, prefix: prefix, blockSize: blockSize) { facts, _ in files.append(facts) }.scan
        let order = Discovery.walkOrdered(files.count) { files[$0].path }
        Self.permute(&files, by: order)
        result.files = files
        return result
    }

    /// Where a file record is: its record file (an index into the paths read), the byte range
    /// of its line, and the scan header it came under.
    public struct Location: Sendable {
        public var file: Int32
        public var header: Int32
        public var offset: Int64
        public var length: Int32
        /// The line's number in its record file (1-based), for messages.
        public var line: Int32 = 0
    }

    /// How records' facts are made the scan's: paths mapped, and each scanning machine's device
    /// numbers made numbers of their own (hard links are told by device and inode, which only
    /// one machine's numbers compare). Read only once the records are read.
    public struct Mapping: Sendable {
        let stripPrefix: String?
        let prefix: String
        /// The host of each scan header, in the order read.
        var hosts: [String] = []
        var devices: [String: UInt64] = [:]

        func path(_ path: String) -> String {
            guard let stripPrefix, path.hasPrefix(stripPrefix) else { return path }
            return prefix + path.dropFirst(stripPrefix.count)
        }

        mutating func adopt(_ facts: inout FileFacts, header: Int) {
            facts.path = path(facts.path)
            guard let identity = facts.identity else { return }
            let key = (hosts.indices.contains(header) ? hosts[header] : "") + "\u{0}" + String(identity.device)
            if devices[key] == nil { devices[key] = UInt64(devices.count) }
            facts.identity?.device = devices[key] ?? identity.device
        }

        /// The facts of one file record read again (`check --facts --bounded-memory`), made the
        /// scan's as they were the first time.
        public func facts(line: UnsafeRawBufferPointer, header: Int) throws -> FileFacts {
            let record = try JSONReader.decode(Record.self, from: line)
            guard record.type == "file", var facts = record.facts else { throw Failure(description: "not a file record") }
            if let problem = facts.implausibility { throw Failure(description: "facts no reader makes (\(problem))") }
            var mapping = self
            mapping.adopt(&facts, header: header)
            return facts
        }
    }

    /// Reads record files in order and hands each file's facts to `body` with where its record
    /// is; the scan returned holds the roots, hidden files and problems (sorted in walk order),
    /// no files.
    public static func visit(_ paths: [String], stripPrefix: String? = nil, prefix: String = "", blockSize: Int = LineReader.block,
                             _ body: (FileFacts, Location) throws -> Void) throws -> (scan: ScanResult, mapping: Mapping) {
        var result = ScanResult(roots: [], files: [], hidden: [], problems: [])
        var mapping = Mapping(stripPrefix: stripPrefix, prefix: prefix)
        // The first record of each path, by the path's hash (a path read twice is looked up
        // and compared; two paths of one hash are told apart there).
        var firstRecord: [Int: Location] = [:]
        for (fileIndex, file) in paths.enumerated() {
            // Read a block at a time (a million files make 750 MB of records; holding them whole
            // doubled the peak memory of check --facts).
            guard let handle = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file) else {
                throw Failure(description: "\(file): cannot read")
            }
            defer { if file != "-" { try? handle.close() } }
            var reader = LineReader(handle: handle, blockSize: blockSize)
            var lineNumber = 0
            var header = -1
            // Lines are decoded on all cores, in batches, then taken in order.
            while true {
                let base = reader.consumed
                guard let (data, batch) = try reader.next(lines: 4096, file: file) else { break }
                var decoded = Self.decode(batch, in: data)
                for slot in decoded.indices {
                    lineNumber += 1
                    var record: Record
                    do {
                        record = try Self.take(&decoded[slot])
                    } catch {
                        throw Failure(description: "\(file):\(lineNumber): not a facts record (\(error))")
                    }
                    switch record.type {
                    case "scan":
                        guard record.schema == schema else {
                            throw Failure(description: "\(file):\(lineNumber): facts schema \(record.schema.map(String.init) ?? "none"), this lpcheck reads schema \(schema) (scan again with this version)")
                        }
                        header = mapping.hosts.count
                        mapping.hosts.append(record.host ?? "")
                        for root in record.roots ?? [] where !result.roots.contains(mapping.path(root)) { result.roots.append(mapping.path(root)) }
                    case "hidden":
                        if let path = record.path { result.hidden.append(mapping.path(path)) }
                    case "problem":
                        if let path = record.path { result.problems.append((mapping.path(path), record.reason ?? "")) }
                    case "file":
                        guard header >= 0 else { throw Failure(description: "\(file):\(lineNumber): a file record before the scan header") }
                        guard var facts = record.facts else { throw Failure(description: "\(file):\(lineNumber): a file record without facts") }
                        record.facts = nil
                        if let problem = facts.implausibility {
                            throw Failure(description: "\(file):\(lineNumber): facts no reader makes (\(problem)): not written by lpcheck scan, or altered")
                        }
                        mapping.adopt(&facts, header: header)
                        let range = batch[slot]
                        let location = Location(file: Int32(clamping: fileIndex), header: Int32(clamping: header),
                                                offset: Int64(base + range.lowerBound), length: Int32(clamping: range.count), line: Int32(clamping: lineNumber))
                        // A path seen before (overlapping shards, a record file passed twice) is one file.
                        var hasher = Hasher()
                        hasher.combine(facts.path)
                        let key = hasher.finalize()
                        if let first = firstRecord[key] {
                            if try Self.sameRecord(path: facts.path, line: data[range], at: "\(file):\(lineNumber)", as: first, in: paths, mapping: mapping) {
                                result.repeatedRecords += 1
                                continue
                            }
                        } else {
                            firstRecord[key] = location
                        }
                        try body(facts, location)
                    default:
                        throw Failure(description: "\(file):\(lineNumber): unknown record type '\(record.type)'")
                    }
                }
            }
            guard header >= 0 || lineNumber == 0 else { throw Failure(description: "\(file): no scan header (not written by lpcheck scan)") }
        }
        let hidden = result.hidden, problems = result.problems
        result.hidden = Discovery.walkOrdered(hidden.count) { hidden[$0] }.map { hidden[$0] }
        result.problems = Discovery.walkOrdered(problems.count) { problems[$0].path }.map { problems[$0] }
        return (result, mapping)
    }

    /// Whether the record `line` of `path` (at `later`) repeats, byte for byte, the first record of the same
    /// hash (`first`): true, it is dropped; the same path with other bytes is an error naming
    /// both records (the scan would count the file twice and may pair it with itself); another
    /// path (the hashes collided) is false, the record is taken.
    static func sameRecord(path: String, line: Data, at later: String, as first: Location, in paths: [String], mapping: Mapping) throws -> Bool {
        let file = paths[Int(first.file)]
        let earlier = "\(file):\(first.line)"
        guard file != "-", let handle = FileHandle(forReadingAtPath: file) else {
            throw Failure(description: "\(path) is in two records (\(earlier) and \(later)): each file may be listed once (overlapping shards?)")
        }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(first.offset))
        let bytes = try handle.read(upToCount: Int(first.length)) ?? Data()
        let firstPath = bytes.withUnsafeBytes { try? mapping.facts(line: $0, header: Int(first.header)).path }
        guard firstPath == path else { return false }
        if bytes == line { return true }
        throw Failure(description: "\(path) is in two records that differ, \(earlier) and \(later): each file may be listed once (overlapping shards, or one scanned twice at different times?)")
    }
}
