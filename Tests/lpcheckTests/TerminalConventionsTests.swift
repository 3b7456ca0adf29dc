import Foundation
import LivePhotoTestSupport
import Testing

/// The conventions people already type (issue 52): include and exclude globs on the command
/// line, a quoted glob as a path, scan's help without the options that do nothing there, and the
/// first run on `Samples/` telling the truth about the good samples.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct TerminalConventionsTests {
    func lpcheck(_ arguments: [String], in folder: URL? = nil) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, currentDirectory: folder)
    }

    /// The paths of every file of a JSON check report's items.
    func checkedPaths(_ result: ProcessResult) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        return (report["items"] as? [[String: Any]] ?? []).flatMap { item in [item["still"], item["movie"]].compactMap { $0 as? String } }
    }

    /// The media files below `Samples/` as the file system lists them (relative, not hidden).
    func samples(_ keep: (String) -> Bool) throws -> Set<String> {
        let walker = try #require(FileManager.default.enumerator(atPath: Locations.samples.path))
        var found = Set<String>()
        for case let path as String in walker where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: Locations.samples.appendingPathComponent(path).path, isDirectory: &folder), !folder.boolValue, keep(path) {
                found.insert("Samples/" + path)
            }
        }
        return found
    }

    @Test("--include and --exclude on the command line, and a quoted glob as a path, choose the files the file system's own listing says they match; without them the broken samples are checked")
    func includeAndExclude() throws {
        let root = Locations.samples.deletingLastPathComponent()
        let all = Set(try checkedPaths(try lpcheck(["check", "Samples", "--format", "json", "--no-progress"], in: root)))
        #expect(all.contains { $0.hasPrefix("Samples/corrupt/") }, "\(all)")
        let excluded = Set(try checkedPaths(try lpcheck(["check", "Samples", "--exclude", "corrupt/**", "--format", "json", "--no-progress"], in: root)))
        #expect(!excluded.isEmpty && excluded == all.filter { !$0.hasPrefix("Samples/corrupt/") }, "\(excluded)")
        let movies = Set(try checkedPaths(try lpcheck(["check", "Samples", "--include", "*.mov", "--format", "json", "--no-progress"], in: root)))
        #expect(movies == (try samples { $0.hasSuffix(".mov") }), "\(movies)")
        // A quoted glob: the folder before its wildcard walked, the files the pattern names kept.
        let stills = Set(try checkedPaths(try lpcheck(["check", "Samples/*.jpg", "--format", "json", "--no-progress"], in: root)))
        #expect(stills == (try samples { !$0.contains("/") && $0.hasSuffix(".jpg") }) && stills.count >= 3, "\(stills)")
        // Beside a glob, a folder keeps all it holds.
        let mixed = Set(try checkedPaths(try lpcheck(["check", "Samples/*.jpg", "Samples/corrupt/fuzz", "--format", "json", "--no-progress"], in: root)))
        #expect(mixed == stills.union(try samples { $0.hasPrefix("corrupt/fuzz/") }.filter { all.contains($0) }), "\(mixed.subtracting(stills))")
    }

    @Test("scan's help leaves out the options that do nothing there (--fail-on, --expect, --baseline, --profile, --no-progress), which it still accepts; it lists --include and --exclude")
    func scanHelp() throws {
        let help = try lpcheck(["scan", "--help"])
        for option in ["--fail-on", "--expect", "--baseline", "--profile", "--no-progress"] {
            #expect(!help.text.contains(option), "scan --help lists \(option)")
        }
        #expect(help.text.contains("--include") && help.text.contains("--exclude"))
        let root = Locations.samples.deletingLastPathComponent()
        let scanned = try lpcheck(["scan", "Samples/camera-pair.jpg", "--fail-on", "warning", "--no-progress", "--expect", "live-photo"], in: root)
        #expect(scanned.status == 0 && scanned.text.contains("camera-pair.jpg"), "\(scanned.stderr)")
    }

    @Test("the first run on Samples/ passes the good pairs: no finding on camera-pair or software-pair (the broken copies carry an identifier of their own), every failing item is under corrupt/ or the hostile sample, none is a variant of a good one or names one in a finding")
    func firstRunTellsTheTruth() throws {
        let root = Locations.samples.deletingLastPathComponent()
        let result = try lpcheck(["check", "Samples", "--format", "json", "--no-progress"], in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var good = 0
        for item in report["items"] as? [[String: Any]] ?? [] {
            let paths = [item["still"], item["movie"]].compactMap { $0 as? String }
            let findings = (item["findings"] as? [[String: Any]] ?? []).filter { ($0["severity"] as? String) != "info" }
            // No broken item is taken for a rendition of a good one, nor names one as sharing its identifier.
            #expect(item["variantOf"] == nil, "\(paths) is called a variant of \(item["variantOf"] ?? "")")
            for finding in findings {
                let message = finding["message"] as? String ?? ""
                #expect(!message.contains("camera-pair") && !message.contains("software-pair"), "\(paths): \(message)")
            }
            if paths.contains(where: { $0.contains("corrupt/") || $0.contains("hostile-metadata") }) { continue }
            #expect(findings.isEmpty, "\(paths): \(findings)")
            good += 1
        }
        #expect(good >= 4, "\(good) good items")
    }
}
