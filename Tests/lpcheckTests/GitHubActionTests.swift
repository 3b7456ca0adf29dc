import Foundation
import LivePhotoTestSupport
import Testing

/// `action.yml`: its check step, taken from the file and run by bash as the runner would (inputs
/// as environment variables), gates on findings, writes SARIF, and never runs an input as code.
@Suite(.enabled(if: Locations.tool("python3") != nil && Locations.lpcheckBinary != nil, "needs python3 (with PyYAML) and the built lpcheck"))
struct GitHubActionTests {
    /// The `run` script of the step named `name`, read with PyYAML.
    func script(_ name: String) throws -> String {
        let action = Locations.packageRoot.appendingPathComponent("action.yml").path
        let code = "import sys,yaml\na=yaml.safe_load(open(sys.argv[1]))\nprint(next(s['run'] for s in a['runs']['steps'] if s.get('name')==sys.argv[2]), end='')"
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", code, action, name])
        try #require(result.status == 0, "PyYAML could not read action.yml: \(result.stderr)")
        return result.text
    }

    func runStep(paths: String, failOn: String, sarif: URL) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = try #require(Locations.lpcheckBinary).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["LPCHECK_PATHS"] = paths
        environment["LPCHECK_FAIL_ON"] = failOn
        environment["LPCHECK_SARIF"] = sarif.path
        return try ProcessResult.run("/bin/bash", ["-e", "-c", try script("Check Live Photos")], environment: environment)
    }

    @Test("the check step fails on the broken samples, passes with fail-on never, and writes SARIF 2.1.0 either way")
    func gatesAndWritesSARIF() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-action-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("out.sarif")
        let failing = try runStep(paths: Locations.samples.path, failOn: "error", sarif: sarif)
        #expect(failing.status == 1, "\(failing.text)\(failing.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        try FileManager.default.removeItem(at: sarif)
        let passing = try runStep(paths: Locations.samples.appendingPathComponent("camera-pair.jpg").path + " " + Locations.samples.appendingPathComponent("camera-pair.mov").path, failOn: "never", sarif: sarif)
        #expect(passing.status == 0, "\(passing.text)\(passing.stderr)")
        #expect(FileManager.default.fileExists(atPath: sarif.path))
    }

    @Test("an input holding shell syntax stays a path")
    func noInjection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-action-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("pwned")
        let result = try runStep(paths: "$(touch \(marker.path)) `touch \(marker.path)`", failOn: "error", sarif: folder.appendingPathComponent("out.sarif"))
        #expect(result.status == 2, "\(result.text)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
}
