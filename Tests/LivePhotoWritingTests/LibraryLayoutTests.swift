import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Realistic library layouts built from ../shared/samples (LibraryLayout.all): every file lands in
/// the kind a person expects, every message is checked against the facts of the scan, and a repair
/// never makes the library worse (ExifTool and ffmpeg as witnesses).
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil && Locations.tool("exiftool") != nil
    && Locations.tool("ffmpeg") != nil, "needs ../shared/samples, the built lpcheck, ExifTool and ffmpeg"))
struct LibraryLayoutTests {
    /// Error findings each layout must have (by rule), and no other.
    static let expectedErrors: [String: Set<String>] = [
        "iphone-dcim": ["movie-absent", "unreadable-file", "identifier-mismatch"],
        "icloud-export": [],
        "google-takeout": ["movie-absent"],
        "server-uuid": ["identifier-shared", "movie-absent"],
        "web-downsized": [],
        "links-and-odd-names": ["unreadable-file", "truncated-file"],
    ]

    @Test("every file lands in the kind a person expects, and every message is true", arguments: LibraryLayout.all)
    func kindsAndClaims(_ layout: LibraryLayout) throws {
        let root = try Scratch.folder("layout-\(layout.name)")
        defer { try? FileManager.default.removeItem(at: root) }
        try layout.build(in: root.path)
        let run = try Scratch.lpcheck(["check", "--format", "json", "--no-progress", root.path])
        #expect(run.status == 1 || run.status == 0, "\(run.stderr)")
        let report = try Report(run.stdout)

        // Kinds.
        for entry in layout.entries {
            let path = root.path + "/" + entry.path
            #expect(report.kind[path] == entry.kind, "\(PathBytes.display(entry.path)): \(report.kind[path] ?? "in no item"), expected \(entry.kind ?? "in no item")")
        }
        // Files in no item are named: sidecars with their item, the rest in leftOut.
        for entry in layout.entries where entry.kind == nil {
            let path = root.path + "/" + entry.path
            #expect(report.sidecars.contains(path) || report.leftOut.contains(path), "\(entry.path) is neither a sidecar nor left out")
        }
        if layout.name == "google-takeout" {
            #expect(report.sidecars.count == 3)
        }

        // Claims: what "no movie carries", "no movie has its name" and "shared" say is checked here.
        for finding in report.findings {
            let message = finding.message
            if finding.rule == "movie-absent" || finding.rule == "still-absent" {
                let other = finding.rule == "movie-absent" ? "movie" : "still"
                if let range = message.range(of: "no \(other) of the scan carries its identifier ") {
                    let identifier = String(message[range.upperBound...].prefix(36))
                    let carriers = other == "movie" ? report.movieIdentifiers : report.stillIdentifiers
                    #expect(!carriers.contains(identifier), "\(message): but a \(other) carries \(identifier)")
                }
                if message.contains("no \(other) has its folder and name"), let path = finding.path {
                    let mates = layout.entries.map { root.path + "/" + $0.path }.filter { $0 != path && Self.nameKey($0) == Self.nameKey(path) }
                    #expect(mates.isEmpty, "\(message): but \(mates) share its name")
                }
            }
            if finding.rule == "identifier-shared", let identifier = message.split(separator: " ").dropFirst(2).first {
                #expect(report.carriers[String(identifier), default: 0] >= 2, "\(message)")
            }
        }
        let errors = Set(report.findings.filter { $0.severity == "error" }.map(\.rule))
        #expect(errors == Self.expectedErrors[layout.name], "\(layout.name): \(report.findings.filter { $0.severity == "error" }.map { "\($0.rule): \($0.message)" })")

        // The JSON's lossless path escapes give back the exact bytes (Python's os.fsencode).
        try Locations.require(Locations.tool("python3") != nil, "python3")
        let python = try #require(Locations.tool("python3"))
        let file = root.appendingPathComponent("report.json")
        try run.stdout.write(to: file)
        let script = "import json,os,sys\nd=json.load(open(sys.argv[1]))\nps=[p for i in d['items'] for p in (i['still'],i['movie']) if p]\n"
            + "missing=[p for p in ps if not os.path.exists(os.fsencode(p))]\nprint(len(ps), len(missing))\nsys.exit(1 if missing else 0)"
        let check = try ProcessResult.run(python, ["-c", script, file.path])
        #expect(check.status == 0, "paths that do not round-trip: \(check.text)")
    }

    @Test("repair never makes a library worse: pairs, camera originals, frames, owners and times kept; a second run changes nothing",
          arguments: LibraryLayout.all)
    func repairKeepsLibrary(_ layout: LibraryLayout) throws {
        let root = try Scratch.folder("repair-\(layout.name)")
        defer { try? FileManager.default.removeItem(at: root) }
        try layout.build(in: root.path)
        let paths = layout.entries.map { root.path + "/" + $0.path }
        // Owner, group, mode and times a library owner would have (as root, another user's).
        let asRoot = getuid() == 0
        let oldTime = timespec(tv_sec: 1_600_000_000, tv_nsec: 123_000_000)
        for path in Set(paths) {
            if asRoot { _ = PathBytes.withCString(path) { chown($0, 1000, 1000) } }
            _ = PathBytes.withCString(path) { chmod($0, 0o640) }
            _ = PathBytes.withCString(path) { utimensat(AT_FDCWD, $0, [oldTime, oldTime], 0) }
        }
        let before = try State(paths)
        let check = try Report(try Scratch.lpcheck(["check", "--format", "json", "--no-progress", root.path]).stdout)

        let repair = try Scratch.lpcheck(["repair", root.path])
        #expect([0, 1].contains(repair.status), "\(repair.text)\(repair.stderr)")
        // LPCHECK_LAYOUT_LOG=FILE keeps what repair said on each layout (for the closing note).
        if let log = ProcessInfo.processInfo.environment["LPCHECK_LAYOUT_LOG"], let handle = FileHandle(forWritingAtPath: log) ?? {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            return FileHandle(forWritingAtPath: log)
        }() {
            handle.seekToEndOfFile()
            handle.write(Data("== \(layout.name): exit \(repair.status)\n\(repair.text.replacingOccurrences(of: root.path + "/", with: ""))\n".utf8))
            try? handle.close()
        }
        let after = try State(paths)

        // Every pair that worked still works, with the same identifier.
        for pair in check.workingPairs {
            #expect(after.identifier[pair.still] == before.identifier[pair.still], "\(pair.still) changed its identifier")
            #expect(after.identifier[pair.movie] == before.identifier[pair.movie], "\(pair.movie) changed its identifier")
            #expect(after.identifier[pair.still] == after.identifier[pair.movie])
        }
        // Every camera original keeps its identifier.
        for path in paths where before.cameraOriginals.contains(path) {
            #expect(after.identifier[path] == before.identifier[path], "camera original \(PathBytes.display(path)) lost its identifier")
        }
        // Media frames are identical; rewritten files keep owner, group, mode and times.
        for path in Set(paths) {
            #expect(after.frames[path] == before.frames[path], "\(PathBytes.display(path)): frames differ")
            guard after.bytes[path] != before.bytes[path], let old = before.status[path], let new = after.status[path] else { continue }
            #expect(new.st_uid == old.st_uid && new.st_gid == old.st_gid, "\(PathBytes.display(path)): owner changed")
            #expect(new.st_mode == old.st_mode, "\(PathBytes.display(path)): mode changed")
            #expect(new.st_mtim.tv_sec == old.st_mtim.tv_sec && new.st_mtim.tv_nsec == old.st_mtim.tv_nsec, "\(PathBytes.display(path)): time changed")
        }
        // The broken pair of the DCIM import is repaired: the movie takes the still's identifier.
        if layout.name == "iphone-dcim" {
            let still = root.path + "/DCIM/100APPLE/IMG_0010.JPG", movie = root.path + "/DCIM/100APPLE/IMG_0010.MOV"
            #expect(after.identifier[movie] == before.identifier[still])
            #expect(after.identifier[still] == before.identifier[still])
        }
        // The conflict of two camera originals is named and waits for --force.
        if layout.name == "server-uuid" {
            #expect(repair.text.contains("LOSES:") && repair.text.contains("camera original"), "\(repair.text)")
            #expect(repair.status == 1)
        }

        // A second run changes nothing, and exits as check does.
        let second = try Scratch.lpcheck(["repair", root.path])
        #expect(!second.text.contains("wrote "), "\(second.text)")
        #expect(try State(paths).bytes == after.bytes)
        let checkAfter = try Scratch.lpcheck(["check", "--no-progress", root.path])
        #expect(second.status == checkAfter.status, "repair exits \(second.status), check \(checkAfter.status)\n\(second.text)")
    }

    static func nameKey(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        return folder + "/" + base
    }

    /// What a check's JSON report says, keyed by the PathBytes form of each path.
    struct Report {
        var kind: [String: String] = [:]
        var findings: [(rule: String, severity: String, message: String, path: String?)] = []
        var movieIdentifiers = Set<String>(), stillIdentifiers = Set<String>()
        var carriers: [String: Int] = [:]
        var sidecars = Set<String>(), leftOut = Set<String>()
        var workingPairs: [(still: String, movie: String)] = []

        init(_ data: Data) throws {
            // Raw bytes come as \udcXX; Foundation's parser wants whole characters: use the
            // private-use scalar lpcheck holds them as (UTF-16 DBFF DF80+).
            var text = String(decoding: data, as: UTF8.self)
            for byte in 0x80...0xFF {
                let escape = "\\udc" + String(byte, radix: 16)
                let low = String(0xDF80 + byte - 0x80, radix: 16)
                text = text.replacingOccurrences(of: escape, with: "\\udbff\\u" + low)
            }
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            for item in json["items"] as? [[String: Any]] ?? [] {
                let kind = item["kind"] as? String ?? "?"
                let still = item["still"] as? String, movie = item["movie"] as? String
                for path in [still, movie].compactMap({ $0 }) { self.kind[path] = kind }
                if let id = item["stillIdentifier"] as? String { stillIdentifiers.insert(id); carriers[id, default: 0] += 1 }
                if let id = item["movieIdentifier"] as? String { movieIdentifiers.insert(id); carriers[id, default: 0] += 1 }
                for sidecar in item["sidecars"] as? [String] ?? [] { sidecars.insert(sidecar) }
                let itemFindings = item["findings"] as? [[String: Any]] ?? []
                for finding in itemFindings {
                    findings.append((finding["rule"] as? String ?? "", finding["severity"] as? String ?? "", finding["message"] as? String ?? "", finding["path"] as? String))
                }
                if kind == "pair", let still, let movie, !itemFindings.contains(where: { ($0["severity"] as? String) != "info" }) {
                    workingPairs.append((still, movie))
                }
            }
            let summary = json["summary"] as? [String: Any] ?? [:]
            for file in summary["leftOut"] as? [[String: Any]] ?? [] { if let path = file["path"] as? String { leftOut.insert(path) } }
        }
    }

    /// Identifiers (ExifTool, or lpcheck's reader for names ExifTool's JSON cannot carry), frames
    /// (ffmpeg's checksums of every video packet, its timing and the decoder configuration:
    /// repair never touches a sample byte, which decoding every frame of every movie twice
    /// proved at twenty times the cost), bytes and status of every file.
    struct State {
        var identifier: [String: String] = [:]
        var frames: [String: String] = [:]
        var bytes: [String: [UInt8]] = [:]
        var status: [String: stat] = [:]
        var cameraOriginals = Set<String>()

        init(_ paths: [String]) throws {
            var asExifTool: [String] = []
            for path in Set(paths) {
                var info = stat()
                guard PathBytes.status(path, &info) == 0 else { continue }
                status[path] = info
                let source = try FileSource(path: path)
                bytes[path] = try source.read(at: 0, count: Int(source.size))
                let file = MediaFile.inspect(path: path, options: .check)
                if PathBytes.hasRawBytes(path) {
                    identifier[path] = file.contentIdentifier
                } else if file.error == nil, file.format != .unknown {
                    asExifTool.append(path)
                }
                if file.movie != nil, !PathBytes.hasRawBytes(path) {
                    frames[path] = try Scratch.packetChecksums(URL(fileURLWithPath: path))
                }
                let facts = FileFacts(file)
                if facts.isStill, facts.hasCameraMetadata, facts.nameKey.marks.isEmpty, facts.contentIdentifier != nil { cameraOriginals.insert(path) }
            }
            // One ExifTool run for the layout's files (it read them one run each before).
            let records = try Scratch.exiftool(asExifTool.map { URL(fileURLWithPath: $0) })
            for path in asExifTool {
                let record = try #require(records[path], "ExifTool gave no record for \(path)")
                identifier[path] = Scratch.stillIdentifier(record) ?? record["Keys:ContentIdentifier"] as? String
            }
        }
    }
}
