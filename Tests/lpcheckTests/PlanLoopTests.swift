import Foundation
import LivePhotoTestSupport
import Testing

/// The loop convert and export share: a second input of the run that would write the first's
/// output is blocked, by name, in a real run as in a dry run, and its words are each command's.
@Suite(.enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct PlanLoopTests {
    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, timeout: 120)
    }

    @Test("two same-named camera pairs in two folders, one output folder: convert and export write the first and block the second (a real run and a dry run say blocked alike), exit 1, one file written")
    func claimedOutputsBlock() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        for folder in ["a", "b"] {
            let into = work.appendingPathComponent("in/\(folder)")
            try FileManager.default.createDirectory(at: into, withIntermediateDirectories: true)
            for name in ["camera-pair.jpg", "camera-pair.mov"] {
                try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent(name), to: into.appendingPathComponent(name))
            }
        }
        let inputs = work.appendingPathComponent("in").path
        for (command, extra, done) in [("convert", ["--to", "motion-photo"], "converted"), ("export", ["--as", "movie"], "exported")] {
            for dry in [true, false] {
                let output = work.appendingPathComponent("out-\(command)-\(dry)")
                let run = try lpcheck([command, inputs] + extra + ["--output", output.path, "--format", "json", "--no-progress"] + (dry ? ["--dry-run"] : []))
                #expect(run.status == 1, "\(command) \(dry): \(run.text)\(run.stderr)")
                let document = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
                let items = (document["items"] as? [[String: Any]]) ?? []
                let statuses = items.compactMap { $0["status"] as? String }
                #expect(statuses == [dry ? "would-\(command)" : done, "blocked"], "\(command) \(dry): \(statuses)")
                // In a real run the first's output is there by then, which the planner says first.
                let problems = (items.last?["problems"] as? [String]) ?? []
                let claimed = problems.contains { $0.contains("is written by another input of this run") && $0.contains("\(command) this one into another folder") }
                let exists = problems.contains { $0.hasPrefix(output.path) && $0.contains("exists (use --force to replace it)") }
                #expect(dry ? claimed : claimed || exists, "\(problems)")
                let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
                #expect(written.count == (dry ? 0 : 1), "\(command) \(dry): \(written)")
            }
        }
    }
}
