import Foundation
import LivePhotoCheck

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

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func line(_ record: Record, _ encoder: JSONEncoder) -> String {
        // Every field is a plain value; encoding cannot fail.
        (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
    }

    public static func header(version: String, roots: [String], host: String = ProcessInfo.processInfo.hostName) -> String {
        line(Record(type: "scan", schema: schema, tool: "lpcheck", version: version, roots: roots, host: host), encoder())
    }

    /// The records of what discovery did not read: hidden files and unreadable paths.
    public static func leftUnread(hidden: [String], problems: [(path: String, reason: String)]) -> String {
        let encoder = encoder()
        return hidden.map { line(Record(type: "hidden", path: $0), encoder) }.joined()
            + problems.map { line(Record(type: "problem", path: $0.path, reason: $0.reason), encoder) }.joined()
    }

    /// File records, encoded on all cores, in order.
    public static func files(_ facts: [FileFacts]) -> String {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, facts.count / 64))
        let parts = LineSlots(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let encoder = encoder()
            let start = facts.count * worker / workers, end = facts.count * (worker + 1) / workers
            parts.set(worker, facts[start..<end].map { line(Record(type: "file", facts: $0), encoder) }.joined())
        }
        return parts.joined
    }

    final class LineSlots: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [String]
        init(count: Int) { slots = Array(repeating: "", count: count) }
        func set(_ index: Int, _ text: String) { lock.lock(); slots[index] = text; lock.unlock() }
        var joined: String { lock.lock(); defer { lock.unlock() }; return slots.joined() }
    }

    /// The byte ranges of the non-empty lines of `data` (found with memchr: Data.split is slow).
    static func lines(_ data: Data) -> [Range<Int>] {
        data.withUnsafeBytes { raw -> [Range<Int>] in
            guard let base = raw.baseAddress else { return [] }
            var lines: [Range<Int>] = []
            var start = 0
            while start < raw.count {
                let end = memchr(base + start, 0x0A, raw.count - start).map { UnsafeRawPointer($0) - base } ?? raw.count
                if end > start { lines.append(start..<end) }
                start = end + 1
            }
            return lines
        }
    }

    /// Decodes lines on all cores; results in order.
    static func decode(_ ranges: [Range<Int>], in data: Data) -> [Result<Record, Error>] {
        let slots = Slots(count: ranges.count)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, ranges.count / 64))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let decoder = JSONDecoder()
            var index = worker
            while index < ranges.count {
                let line = data.subdata(in: ranges[index])
                slots.set(index, Result { try decoder.decode(Record.self, from: line) })
                index += workers
            }
        }
        return slots.values
    }

    /// Result slots filled by several threads, each index by one.
    final class Slots: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Result<Record, Error>?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: Result<Record, Error>) {
            lock.lock()
            storage[index] = value
            lock.unlock()
        }
        var values: [Result<Record, Error>] { storage.map { $0 ?? .failure(Failure(description: "not decoded")) } }
    }

    /// Reads record files (`-` is standard input) into one scan, in the order a single walk
    /// would have listed the files. Paths starting with `stripPrefix` get `prefix` instead
    /// (shards scanned on other machines or mount points).
    public static func read(_ paths: [String], stripPrefix: String? = nil, prefix: String = "") throws -> ScanResult {
        var result = ScanResult(roots: [], files: [], hidden: [], problems: [])
        // Hard links are told by device and inode, which only one machine's numbers compare:
        // each (host, device) gets a number of its own.
        var devices: [String: UInt64] = [:]
        var host = ""
        func mapped(_ path: String) -> String {
            guard let stripPrefix, path.hasPrefix(stripPrefix) else { return path }
            return prefix + path.dropFirst(stripPrefix.count)
        }
        for file in paths {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let read = FileManager.default.contents(atPath: file) else { throw Failure(description: "\(file): cannot read") }
                data = read
            }
            var lineNumber = 0
            var sawHeader = false
            // Lines are decoded on all cores, in batches, then taken in order.
            let ranges = Self.lines(data)
            for batchStart in stride(from: 0, to: ranges.count, by: 4096) {
                let batch = Array(ranges[batchStart..<min(batchStart + 4096, ranges.count)])
                let decoded = Self.decode(batch, in: data)
                for outcome in decoded {
                lineNumber += 1
                let record: Record
                switch outcome {
                case .success(let value): record = value
                case .failure(let error): throw Failure(description: "\(file):\(lineNumber): not a facts record (\(error))")
                }
                switch record.type {
                case "scan":
                    guard record.schema == schema else {
                        throw Failure(description: "\(file):\(lineNumber): facts schema \(record.schema.map(String.init) ?? "none"), this lpcheck reads schema \(schema) (scan again with this version)")
                    }
                    sawHeader = true
                    host = record.host ?? ""
                    for root in record.roots ?? [] where !result.roots.contains(mapped(root)) { result.roots.append(mapped(root)) }
                case "hidden":
                    if let path = record.path { result.hidden.append(mapped(path)) }
                case "problem":
                    if let path = record.path { result.problems.append((mapped(path), record.reason ?? "")) }
                case "file":
                    guard sawHeader else { throw Failure(description: "\(file):\(lineNumber): a file record before the scan header") }
                    guard var facts = record.facts else { throw Failure(description: "\(file):\(lineNumber): a file record without facts") }
                    if let problem = facts.implausibility {
                        throw Failure(description: "\(file):\(lineNumber): facts no reader makes (\(problem)): not written by lpcheck scan, or altered")
                    }
                    facts.path = mapped(facts.path)
                    if let identity = facts.identity {
                        let key = host + "\u{0}" + String(identity.device)
                        if devices[key] == nil { devices[key] = UInt64(devices.count) }
                        facts.identity?.device = devices[key] ?? identity.device
                    }
                    result.files.append(facts)
                default:
                    throw Failure(description: "\(file):\(lineNumber): unknown record type '\(record.type)'")
                }
                }
            }
            guard sawHeader || lineNumber == 0 else { throw Failure(description: "\(file): no scan header (not written by lpcheck scan)") }
        }
        let files = result.files
        result.files = Discovery.walkOrdered(files.count) { files[$0].path }.map { files[$0] }
        let hidden = result.hidden, problems = result.problems
        result.hidden = Discovery.walkOrdered(hidden.count) { hidden[$0] }.map { hidden[$0] }
        result.problems = Discovery.walkOrdered(problems.count) { problems[$0].path }.map { problems[$0] }
        return result
    }
}
