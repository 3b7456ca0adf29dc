import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
@testable import LivePhotoWriting
import Testing

/// make's read-back of a still made from its movie (`PlanWriter.compareStill`), held to a still
/// of another frame staged beside a movie: issue 50, item 4.
struct StillMomentReadBackTests {
    /// Two Live Photos `lpcheck make` writes from train.mov at two moments.
    func twoMoments(in work: URL, early: String, late: String) throws -> (early: (still: URL, movie: URL), late: (still: URL, movie: URL)) {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let clip = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))
        let lpcheck = try #require(Locations.lpcheckBinary)
        var made: [(URL, URL)] = []
        for (name, time) in [("early", early), ("late", late)] {
            let out = work.appendingPathComponent(name)
            let result = try ProcessResult.run(lpcheck.path, ["make", clip.path, "-o", out.path, "--time", time, "--no-progress"], timeout: 300)
            try #require(result.status == 0, "\(result.text)\(result.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
            made.append((out.appendingPathComponent(try #require(names.first { !$0.hasSuffix(".MOV") })), out.appendingPathComponent(try #require(names.first { $0.hasSuffix(".MOV") }))))
        }
        return (made[0], made[1])
    }

    @Test("the read-back refuses a still that is not the frame at the written movie's moment (the still of the next frame, 0.55 s, staged beside a movie marked at 0.5 s) and passes the pair make wrote")
    func readBackRefusesAnotherFrame() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-moment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let pairs = try twoMoments(in: work, early: "0.5", late: "0.55")
        func staged(_ still: URL, _ movie: URL) -> [(FilePlan, SafeFileWriter.Staged)] {
            var made = FilePlan(path: movie.path, destination: still.path, patch: FilePatch())
            made.made = true
            let plain = FilePlan(path: movie.path, destination: movie.path, patch: FilePatch())
            return [(made, SafeFileWriter.Staged(temporary: still.path, destination: still.path, original: still.path, identity: nil, newBytes: 0, size: 0)),
                    (plain, SafeFileWriter.Staged(temporary: movie.path, destination: movie.path, original: movie.path, identity: nil, newBytes: 0, size: 0))]
        }
        setenv("LPCHECK_CODEC", try #require(Locations.lpcheckBinary).deletingLastPathComponent().appendingPathComponent("lpcheck-codec").path, 1)
        try PlanWriter.compareStill(staged(pairs.early.still, pairs.early.movie), budget: .standard)
        #expect { try PlanWriter.compareStill(staged(pairs.late.still, pairs.early.movie), budget: .standard) } throws: { error in
            "\(error)".contains("not frame") && "\(error)".contains("at its still-image-time")
        }
    }
}
