import Foundation
import LivePhotoTestSupport
import Testing

/// `.pre-commit-hooks.yaml`, tried as a user would with `pre-commit try-repo` on a repository of
/// stills and movies: it passes a good pair and fails, saying why, on a still whose movie is not it.
@Suite(.enabled(if: Locations.tool("pre-commit") != nil && Locations.tool("git") != nil && Locations.lpcheckBinary != nil,
                "needs pre-commit (Scripts/bootstrap.sh installs it), git and the built lpcheck"))
struct PreCommitHookTests {
    func run(_ tool: String, _ arguments: [String], in folder: URL) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        let binaries = try #require(Locations.lpcheckBinary).deletingLastPathComponent().path
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["PRE_COMMIT_COLOR"] = "never"
        let script = "cd \"$1\" && shift && exec \"$@\""
        return try ProcessResult.run("/bin/sh", ["-c", script, "sh", folder.path, try #require(Locations.tool(tool))] + arguments, environment: environment)
    }

    @Test("lpcheck-system passes a camera pair and fails a still whose same-named movie is another Live Photo's")
    func tryRepo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-precommit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run("git", ["init", "-q"], in: folder)
        for name in ["camera-pair.jpg", "camera-pair.mov"] {
            try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        _ = try run("git", ["add", "."], in: folder)
        let hookRepo = Locations.packageRoot.path
        let good = try run("pre-commit", ["try-repo", hookRepo, "lpcheck-system", "--all-files"], in: folder)
        #expect(good.status == 0, "\(good.text)\(good.stderr)")
        #expect(good.text.contains("Passed"))

        try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent("software-pair.jpg"), to: folder.appendingPathComponent("IMG_9.jpg"))
        try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent("camera-pair.mov"), to: folder.appendingPathComponent("IMG_9.mov"))
        _ = try run("git", ["add", "."], in: folder)
        let bad = try run("pre-commit", ["try-repo", hookRepo, "lpcheck-system", "--all-files"], in: folder)
        #expect(bad.status != 0)
        #expect(bad.text.contains("Failed"))
        #expect(bad.text.contains("movie-absent") && bad.text.contains("IMG_9.mov has its name but it carries another identifier"), "\(bad.text)")
    }
}
