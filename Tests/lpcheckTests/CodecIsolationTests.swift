import Foundation
import LivePhotoTestSupport
import Testing

/// lpcheck never loads a codec library: only its helper, lpcheck-codec, links FFmpeg's. Shown
/// two ways: the binary's dynamic dependencies (and theirs) name none, and on this machine with
/// FFmpeg's libraries hidden (a mount namespace binds /dev/null over each) check, scan and dump
/// run as before while make CLIP exits 2 naming the Debian packages to install.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct CodecIsolationTests {
    static let codecLibraries = ["libavcodec", "libavformat", "libavutil", "libswscale", "libswresample", "libavfilter", "libavdevice", "libpostproc", "libx264", "libx265"]

    @Test("lpcheck's NEEDED entries and everything ldd loads with it name no codec library; lpcheck-codec's name FFmpeg's")
    func linked() throws {
        let binary = try #require(Locations.lpcheckBinary)
        let readelf = try #require(Locations.tool("readelf")), ldd = try #require(Locations.tool("ldd"))
        for tool in [readelf, ldd] {
            let listing = try ProcessResult.run(tool, tool == readelf ? ["-d", binary.path] : [binary.path])
            #expect(listing.status == 0 && !listing.text.isEmpty)
            for library in Self.codecLibraries { #expect(!listing.text.contains(library), "\(tool) lists \(library) for lpcheck") }
        }
        let helper = binary.deletingLastPathComponent().appendingPathComponent("lpcheck-codec")
        let needed = try ProcessResult.run(readelf, ["-d", helper.path])
        #expect(needed.text.contains("libavcodec") && needed.text.contains("libswscale"), "\(needed.text)")
    }

    @Test("with FFmpeg's libraries hidden, check, scan and dump run as before; make CLIP exits 2 naming the packages; the lossless HEVC still still works", .enabled(if: getuid() == 0, "a mount namespace needs root"))
    func withoutFFmpeg() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let unshare = try #require(Locations.tool("unshare"))
        let binary = try #require(Locations.lpcheckBinary).path
        let folders = ["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        var hidden: [String] = []
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where Self.codecLibraries.contains(where: { name.hasPrefix($0 + ".so") }) {
                hidden.append(folder + "/" + name)
            }
        }
        #expect(hidden.contains { $0.contains("libavcodec.so") }, "FFmpeg's libraries are not where this test looks: \(folders)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-noffmpeg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let h264 = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov")).path
        let hevc = try #require(SharedSamples.url("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV")).path
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = hidden.map { "mount --bind /dev/null \(quoted($0)) || exit 90" }.joined(separator: "\n") + """

        \(quoted(binary)) check \(quoted(Locations.samples.path)) --no-progress --format json > \(quoted(out.path + "-check.json")) 2>&1; echo "check $?"
        \(quoted(binary)) scan \(quoted(Locations.samples.path)) --no-progress > \(quoted(out.path + "-scan.ndjson")) 2>&1; echo "scan $?"
        \(quoted(binary)) dump \(quoted(h264)) > \(quoted(out.path + "-dump.txt")) 2>&1; echo "dump $?"
        \(quoted(binary)) make \(quoted(h264)) -o \(quoted(out.path + "/decoded")) --still jpeg >/dev/null 2>\(quoted(out.path + ".err")); echo "make $?"
        \(quoted(binary)) make \(quoted(hevc)) -o \(quoted(out.path + "/lossless")) --lossless-still >/dev/null 2>&1; echo "lossless $?"
        """
        let result = try ProcessResult.run(unshare, ["-m", "sh", "-c", script], timeout: 300)
        defer { for suffix in [".err", "-check.json", "-scan.ndjson", "-dump.txt"] { try? FileManager.default.removeItem(atPath: out.path + suffix) } }
        // What check, scan and dump say without the libraries is what they say with them, byte for byte.
        let outside: [(String, [String])] = [("-check.json", ["check", Locations.samples.path, "--no-progress", "--format", "json"]),
                                             ("-scan.ndjson", ["scan", Locations.samples.path, "--no-progress"]), ("-dump.txt", ["dump", h264])]
        for (suffix, arguments) in outside {
            let run = try ProcessResult.run(binary, arguments, timeout: 300)
            let inside = try Data(contentsOf: URL(fileURLWithPath: out.path + suffix))
            #expect(!inside.isEmpty && inside == run.stdout + Data(run.stderr.utf8), "\(arguments[0]) says other things without FFmpeg's libraries")
        }
        let lines = Set(result.text.split(separator: "\n").map(String.init))
        // check exits 1 on Samples/ (it holds broken pairs on purpose), as with the libraries there.
        #expect(lines == ["check 1", "scan 0", "dump 0", "make 2", "lossless 0"], "\(result.text)\(result.stderr)")
        let said = (try? String(contentsOfFile: out.path + ".err", encoding: .utf8)) ?? ""
        #expect(said.contains("apt install libavcodec59") && said.contains("cannot load FFmpeg's libraries"), "\(said)")
    }
}
