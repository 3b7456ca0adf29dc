import Foundation
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

struct DiscoveryTests {
    /// A scratch folder outside the project.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-discovery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("survives link loops and dangling links, keeps odd names, skips hidden folders and backups")
    func walk() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for folder in ["a/b [1]/Ünïcode ç", "c", ".hidden", "a/\(Discovery.backupFolder)"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["a/b [1]/Ünïcode ç/IMG 1 (copy).JPG", "c/x.mov", ".hidden/secret.jpg", "a/\(Discovery.backupFolder)/IMG_1.JPG", "top.heic"] {
            _ = fm.createFile(atPath: root.appendingPathComponent(file).path, contents: Data([0xFF, 0xD8, 0xFF]))
        }
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("c/loop").path, withDestinationPath: root.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("c/dangling.jpg").path, withDestinationPath: "/nonexistent/nowhere.jpg")
        let result = Discovery().find([root.path])
        let relative = result.files.map { String($0.dropFirst(root.path.count + 1)) }
        #expect(relative.sorted() == ["a/b [1]/Ünïcode ç/IMG 1 (copy).JPG", "c/x.mov", "top.heic"])
        #expect(result.problems.contains { $0.path.hasSuffix("dangling.jpg") })
        #expect(result.stamps.isEmpty, "stamps only when asked")

        // A stamping walk (a link to a file among the files, a name that is not UTF-8, folders
        // spread over threads, a file given as a root) finds the same files, each with the stamp
        // a stat by path gives.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("c/link.mov").path, withDestinationPath: root.appendingPathComponent("c/x.mov").path)
        let raw = root.path + "/c/" + PathBytes.string(Array("IMG_".utf8) + [0xE9] + Array(".jpg".utf8))
        let descriptor = PathBytes.open(raw, O_WRONLY | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)
        for jobs in [1, 4] {
            let stamped = Discovery(stamping: true, jobs: jobs).find([root.path, root.path + "/top.heic"])
            #expect(stamped.files == Discovery().find([root.path, root.path + "/top.heic"]).files)
            #expect(stamped.stamps.count == stamped.files.count)
            #expect(stamped.stamps == stamped.files.map { FileStamp.of($0) }, "jobs \(jobs)")
            #expect(stamped.stamps.allSatisfy { $0 != nil })
            #expect(stamped.files.contains { $0.hasSuffix("c/link.mov") } && stamped.files.contains(raw))
        }
    }

    @Test("walk order from paths: a walk's own list comes back as it is, any shuffle of it sorts back to it")
    func walkOrder() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for folder in ["B", "a/z", "a/b", "a/b/c", "É", "a b", "a-b"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["z.jpg", "A.mov", "a.mov", "B/1.jpg", "B/10.jpg", "B/2.jpg", "a/z/x.heic", "a/b/y.mov", "a/b/c/w.jpg", "a/b.jpg",
                     "É/é.jpg", "a b/q.jpg", "a-b/q.jpg"] {
            _ = fm.createFile(atPath: root.appendingPathComponent(file).path, contents: Data([0]))
        }
        let walked = Discovery().find([root.path]).files
        #expect(walked.count == 13)
        #expect(Discovery.walkOrdered(walked.count) { walked[$0] } == Array(walked.indices))
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<20 {
            let shuffled = walked.shuffled(using: &generator)
            #expect(Discovery.walkOrdered(shuffled.count) { shuffled[$0] }.map { shuffled[$0] } == walked)
        }
        // Equal paths keep the order they came in (records of one file in two shards).
        let twice = [walked[3], walked[0], walked[3]]
        #expect(Discovery.walkOrdered(3) { twice[$0] } == [1, 0, 2])
    }

    @Test("walk order compared in place agrees with comparing split paths (empty components, a decomposed é, deep against shallow)")
    func walkOrderInPlace() {
        // The order by definition: folders component by component, then fewer folders first, then the name.
        func reference(_ a: String, _ b: String) -> Bool {
            let left = a.split(separator: "/", omittingEmptySubsequences: false), right = b.split(separator: "/", omittingEmptySubsequences: false)
            for (x, y) in zip(left.dropLast(), right.dropLast()) where x != y { return x < y }
            if left.count != right.count { return left.count < right.count }
            return (left.last ?? "") < (right.last ?? "")
        }
        let parts = ["a", "A", "b", "a b", "a-b", "", "\u{E9}", "e\u{301}", "z.jpg", "IMG_1.HEIC", "."]
        var generator = SeededGenerator(seed: 7)
        let paths = (0..<400).map { _ in
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in parts.randomElement(using: &generator) ?? "" }.joined(separator: "/")
        }
        let expected = Array(paths.indices).sorted { reference(paths[$0], paths[$1]) }
        #expect(Discovery.walkOrdered(paths.count) { paths[$0] } == expected)
    }

    @Test("exclusion patterns")
    func exclusion() {
        #expect(Glob.matches("*.tmp", "a/b/file.tmp"))
        #expect(Glob.matches("**/exports/**", "lib/exports/x/y.jpg"))
        #expect(Glob.matches("exports", "lib/exports/y.jpg"))
        #expect(!Glob.matches("exports/*.jpg", "lib/exports/x/y.jpg"))
        #expect(Glob.matches("lib/*/y.jpg", "lib/exports/y.jpg"))
        #expect(!Glob.matches("*.jpg", "a/b.mov"))
    }

    /// Glob's meaning written plainly, the way the text says it (recursive, exponential at worst:
    /// for short words only): `*` any run without `/`, `**` any run, `**/` also no folder, `?`
    /// one character but `/`.
    static func reference(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            let double = pattern.dropFirst().first == "*"
            var rest = pattern.drop { $0 == "*" }
            if double, rest.first == "/", reference(rest.dropFirst(), text) { return true }
            if double { rest = pattern.dropFirst(2).drop { $0 == "*" } }
            var remaining = text
            while true {
                if reference(rest, remaining) { return true }
                guard let next = remaining.first, double || next != "/" else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let next = text.first else { return false }
        return (first == "?" ? next != "/" : first == next) && reference(pattern.dropFirst(), text.dropFirst())
    }

    @Test("exclusion patterns against their plain meaning: 20,000 random patterns (a, b, /, *, ?) and paths, the whole path for those with a /, any component's name otherwise")
    func exclusionAgainstReference() {
        let seed = SeededGenerator.seed(47)
        var random = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            let pattern = String((0..<Int.random(in: 1...7, using: &random)).map { _ in "ab/*?".randomElement(using: &random) ?? "a" })
            let path = String((0..<Int.random(in: 1...8, using: &random)).map { _ in "ab/".randomElement(using: &random) ?? "a" })
            let expected: Bool
            if pattern.contains("/") {
                let trimmed = Array(path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
                expected = Self.reference(Array(pattern)[...], trimmed[...]) || Self.reference(Array("**/" + pattern)[...], trimmed[...])
            } else {
                expected = path.split(separator: "/").contains { Self.reference(Array(pattern)[...], Array($0)[...]) }
            }
            #expect(Glob.matches(pattern, path) == expected, "\(pattern) on \(path) (LPCHECK_TEST_SEED=\(seed))")
        }
    }

    @Test("configuration: rules off or re-graded, settings, unknown names refused")
    func configuration() throws {
        let config = try Configuration.parse("""
            rules:
              movie-too-long: off
              identifier-not-canonical: info
            exclude: ["**/tmp/**"]
            settings:
              maxMovieSeconds: 10
            failOn: warning
            """)
        #expect(config.severities["movie-too-long"] == .some(nil))
        #expect(config.severities["identifier-not-canonical"] == .some(.info))
        #expect(config.exclude == ["**/tmp/**"])
        #expect(config.context.maxMovieSeconds == 10)
        #expect(config.failOn == .warning)
        #expect(throws: Configuration.Problem.self) { try Configuration.parse("rules:\n  no-such-rule: off\n") }
        #expect(throws: Configuration.Problem.self) { try Configuration.parse("colour: blue\n") }
        #expect(throws: Configuration.Problem.self) { try Configuration.parse("rules:\n  movie-too-long: loud\n") }
    }
}
