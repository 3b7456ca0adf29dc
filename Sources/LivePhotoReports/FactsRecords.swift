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

    public static func files(_ facts: [FileFacts]) -> String {
        let encoder = encoder()
        return facts.map { line(Record(type: "file", facts: $0), encoder) }.joined()
    }

    /// Reads record files (`-` is standard input) into one scan, in the order a single walk
    /// would have listed the files. Paths starting with `stripPrefix` get `prefix` instead
    /// (shards scanned on other machines or mount points).
    public static func read(_ paths: [String], stripPrefix: String? = nil, prefix: String = "") throws -> ScanResult {
        var result = ScanResult(roots: [], files: [], hidden: [], problems: [])
        let decoder = JSONDecoder()
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
            for slice in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
                lineNumber += 1
                let record: Record
                do {
                    record = try decoder.decode(Record.self, from: Data(slice))
                } catch {
                    throw Failure(description: "\(file):\(lineNumber): not a facts record (\(error))")
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
            guard sawHeader || lineNumber == 0 else { throw Failure(description: "\(file): no scan header (not written by lpcheck scan)") }
        }
        result.files.sort { Discovery.walkOrder($0.path, $1.path) }
        result.hidden.sort(by: Discovery.walkOrder)
        result.problems.sort { Discovery.walkOrder($0.path, $1.path) }
        return result
    }
}
