import Foundation
import LivePhotoTestSupport
import Testing

/// The self-contained release tree that `Scripts/test.sh` builds with `Scripts/build-release.sh`
/// into `.build-release/dist`: no Swift runtime library left dynamic, the same reports as the
/// development build, a man page, completions, and an install script that works.
enum ReleaseTree {
    static let dist = Locations.packageRoot.appendingPathComponent(".build-release/dist")
    static let binary = dist.appendingPathComponent("bin/lpcheck")
    static var built: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }
}

@Suite(.enabled(if: ReleaseTree.built, "no release build (Scripts/test.sh makes one with Scripts/build-release.sh)"))
struct ReleaseBuildTests {
    static let dist = ReleaseTree.dist
    static let binary = ReleaseTree.binary

    /// What the binary itself may load dynamically (its `NEEDED` entries): the system C
    /// libraries behind the shims and the C/C++ runtime. libcurl is not among them: it is opened
    /// at run time for s3:// paths (CCurlLoader), so a local run loads none of its libraries. What
    /// those need in turn is theirs; no Swift runtime library is among either.
    static let allowed = ["ld-linux", "libc.so", "libm.so", "libstdc++", "libgcc_s", "libexif", "libxml2", "libsqlite3", "libdl", "libpthread", "librt"]

    @Test("only system C libraries are linked dynamically: the shims' libraries and the C runtime, not libcurl (loaded for s3:// paths only); no Swift library anywhere")
    func linkedLibraries() throws {
        let readelf = try ProcessResult.run(try #require(Locations.tool("readelf")), ["-d", Self.binary.path])
        let needed = readelf.text.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains { $0.hasPrefix("libexif") } && !needed.contains { $0.hasPrefix("libcurl") }, "\(needed)")
        for library in needed { #expect(Self.allowed.contains { library.hasPrefix($0) }, "unexpected dynamic library: \(library)") }
        let ldd = try ProcessResult.run(try #require(Locations.tool("ldd")), [Self.binary.path])
        for line in ldd.text.split(separator: "\n") {
            #expect(!["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "_Testing"].contains { line.contains($0) }, "a Swift runtime library: \(line)")
        }
    }

    @Test("the release binary writes the same JSON report as the development build on Samples/")
    func sameReport() throws {
        let development = try #require(Locations.developmentBinary)
        let arguments = ["check", Locations.samples.path, "--format", "json", "--no-progress"]
        let release = try ProcessResult.run(Self.binary.path, arguments)
        let debug = try ProcessResult.run(development.path, arguments)
        #expect(release.status == 1 && debug.status == 1)
        #expect(release.stdout == debug.stdout)
        #expect(!release.stdout.isEmpty)
    }

    @Test("man page and completions are there; install.sh installs a working lpcheck under a prefix")
    func manualCompletionsInstall() throws {
        let manual = try String(contentsOf: Self.dist.appendingPathComponent("share/man/man1/lpcheck.1"), encoding: .utf8)
        #expect(manual.contains(".Dt LPCHECK 1") && manual.contains("repair"))
        for completion in ["share/bash-completion/completions/lpcheck", "share/zsh/site-functions/_lpcheck", "share/fish/vendor_completions.d/lpcheck.fish"] {
            let text = try String(contentsOf: Self.dist.appendingPathComponent(completion), encoding: .utf8)
            #expect(text.contains("lpcheck") && text.contains("repair"), "\(completion)")
        }
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try ProcessResult.run(Locations.packageRoot.appendingPathComponent("Scripts/install.sh").path, [prefix.path, Self.dist.path])
        #expect(install.status == 0, "\(install.stderr)")
        let version = try ProcessResult.run(prefix.appendingPathComponent("bin/lpcheck").path, ["--version"])
        #expect(version.status == 0)
        #expect(version.text.trimmingCharacters(in: .whitespacesAndNewlines) == (try ProcessResult.run(Self.binary.path, ["--version"])).text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1/lpcheck.1").path))
    }
}
