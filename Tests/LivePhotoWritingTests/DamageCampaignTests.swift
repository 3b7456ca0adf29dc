import Foundation
import LivePhotoTestSupport
import Testing

/// Issue 25's campaign: every real Live Photo pair and motion photo cut at every 10% of each of
/// its files, and with bytes flipped, goes through `convert` both ways and `repair`. No output is
/// written from an input that `check` finds damaged (unreadable, or an error of the damage rules),
/// nothing crashes, and what is written has no error its inputs did not have.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.lpcheckBinary != nil, "needs ../shared/samples and lpcheck"))
struct DamageCampaignTests {
    static let damageRules: Set<String> = ["unreadable-file", "truncated-file", "sample-data-outside-file"]

    /// Writes `bytes` as a variant (`name` + `label` + extension) into `folder`.
    static func write(_ bytes: [UInt8], _ source: URL, label: String, into folder: URL) throws {
        let base = source.deletingPathExtension().lastPathComponent
        try Data(bytes).write(to: folder.appendingPathComponent("\(base)-\(label).\(source.pathExtension)"))
    }

    /// The variants of one file: cut at 10% … 90%, and two with 16 bytes flipped (seeded).
    static func variants(_ bytes: [UInt8], seed: UInt64) -> [(String, [UInt8])] {
        var result = (1...9).map { tenth in ("cut\(tenth)0", Array(bytes.prefix(bytes.count * tenth / 10))) }
        var generator = SeededGenerator(seed: seed)
        for flip in 1...2 {
            var flipped = bytes
            for _ in 0..<16 { flipped[Int.random(in: 0..<flipped.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            result.append(("flip\(flip)", flipped))
        }
        return result
    }

    /// `check --format json` of `folder`: each file's error findings' rules.
    static func errors(in folder: URL) throws -> [String: Set<String>] {
        let check = try Scratch.lpcheck(["check", "--format", "json", "--no-progress", folder.path])
        #expect(check.status == 0 || check.status == 1, "check: \(check.status) \(check.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        var result: [String: Set<String>] = [:]
        for item in report["items"] as? [[String: Any]] ?? [] {
            for finding in item["findings"] as? [[String: Any]] ?? [] where finding["severity"] as? String == "error" {
                if let path = finding["path"] as? String, let rule = finding["rule"] as? String { result[path, default: []].insert(rule) }
            }
        }
        return result
    }

    static func sizes(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { result[url.path] = try Data(contentsOf: url) }
        }
        return result
    }

    /// Converts `folder` into `folder/out` and holds it to the campaign's promise: no item
    /// converted from a `damaged` input, some converted, and no damage error in what was written.
    static func convertWritesNothingDamaged(_ folder: URL, to target: String, damaged: Set<String>) throws -> ProcessResult {
        let output = folder.appendingPathComponent("out")
        let convert = try Scratch.lpcheck(["convert", "--format", "json", "--no-progress", folder.path, "--to", target, "--output", output.path])
        #expect(convert.status == 0 || convert.status == 1, "convert: \(convert.status) \(convert.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: convert.stdout) as? [String: Any])
        var converted = 0
        for item in document["items"] as? [[String: Any]] ?? [] where item["status"] as? String == "converted" {
            converted += 1
            let inputs = item["inputs"] as? [String] ?? []
            #expect(inputs.allSatisfy { !damaged.contains($0) }, "converted from a damaged input: \(inputs)")
        }
        #expect(converted > 0)
        let outputErrors = try errors(in: output)
        #expect(outputErrors.values.allSatisfy { $0.isDisjoint(with: damageRules) }, "\(outputErrors)")
        return convert
    }

    @Test("damaged Live Photo pairs: convert --to motion-photo and repair write nothing from a damaged input, and never crash")
    func pairs() throws {
        let root = try #require(Locations.sharedSamples)
        let folder = try Scratch.folder("campaign-pairs")
        defer { try? FileManager.default.removeItem(at: folder) }
        var seed: UInt64 = 25
        for (still, movie) in ConvertTests.cameraPairs {
            let stillURL = root.appendingPathComponent(still), movieURL = root.appendingPathComponent(movie)
            let stillBytes = try [UInt8](Data(contentsOf: stillURL)), movieBytes = try [UInt8](Data(contentsOf: movieURL))
            seed += 1
            for (label, bytes) in Self.variants(stillBytes, seed: seed) {
                try Self.write(bytes, stillURL, label: "s" + label, into: folder)
                try Self.write(movieBytes, movieURL, label: "s" + label, into: folder)
            }
            for (label, bytes) in Self.variants(movieBytes, seed: seed + 100) {
                try Self.write(stillBytes, stillURL, label: "m" + label, into: folder)
                try Self.write(bytes, movieURL, label: "m" + label, into: folder)
            }
        }
        let errors = try Self.errors(in: folder)
        let damaged = Set(errors.filter { !$0.value.isDisjoint(with: Self.damageRules) }.keys)
        #expect(damaged.count >= 40, "the campaign damages files: \(damaged.count)")

        // convert: nothing converted from a damaged input.
        let convert = try Self.convertWritesNothingDamaged(folder, to: "motion-photo", damaged: damaged)
        #expect(convert.status == 1, "some inputs are damaged: \(convert.stderr)")

        // repair moves every pair's moment: only undamaged files are rewritten.
        let before = try Self.sizes(folder)
        let repair = try Scratch.lpcheck(["repair", "--no-progress", "--no-backup", folder.path, "--time", "0.1"])
        #expect(repair.status == 0 || repair.status == 1, "repair: \(repair.status)")
        let after = try Self.sizes(folder)
        let rewritten = before.keys.filter { before[$0] != after[$0] }
        #expect(!rewritten.isEmpty)
        for path in rewritten { #expect(!damaged.contains(path), "repair rewrote the damaged \(path)") }
    }

    @Test("damaged motion photos: convert --to live-photo writes nothing from a damaged input, and never crashes")
    func motionPhotos() throws {
        let folder = try Scratch.folder("campaign-motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        var seed: UInt64 = 250
        for url in ConvertTests.motionPhotos() {
            seed += 1
            for (label, bytes) in Self.variants(try [UInt8](Data(contentsOf: url)), seed: seed) {
                try Self.write(bytes, url, label: label + "-\(seed)", into: folder)
            }
        }
        let errors = try Self.errors(in: folder)
        let damaged = Set(errors.filter { !$0.value.isDisjoint(with: Self.damageRules) }.keys)
        #expect(!damaged.isEmpty)
        _ = try Self.convertWritesNothingDamaged(folder, to: "live-photo", damaged: damaged)
    }
}
