import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Samples/corrupt/: broken files named after their defect (made by Samples/generate.py from our
/// own samples). Each gives a clear error or warning with its code, offset and path.
struct CorruptSampleTests {
    struct Case: CustomStringConvertible, Sendable {
        var file: String
        /// Fatal (the file is unreadable) or a warning (the rest was read).
        var fatal: Bool
        var code: ParseError.Code
        var path: String
        var description: String { file }
    }

    static let cases: [Case] = [
        Case(file: "box-size-below-header.mov", fatal: true, code: .invalidSize, path: "moov"),
        Case(file: "box-size-64bit-overflow.mov", fatal: true, code: .invalidSize, path: "moov"),
        Case(file: "moov-past-eof.mov", fatal: true, code: .truncated, path: "moov"),
        Case(file: "tkhd-past-parent.mov", fatal: true, code: .invalidSize, path: "moov/trak/tkhd"),
        Case(file: "stsz-count-huge.mov", fatal: true, code: .invalidSize, path: "moov/trak/mdia/minf/stbl/stsz"),
        Case(file: "timed-sample-past-eof.mov", fatal: false, code: .truncated, path: "moov/trak[2]/sample[1]"),
        Case(file: "exif-segment-past-eof.jpg", fatal: false, code: .truncated, path: "APP1@2"),
        Case(file: "makernote-offset-past-end.jpg", fatal: false, code: .invalidSize, path: "APP1 Exif/MakerApple"),
        Case(file: "jpeg-truncated-scan.jpg", fatal: false, code: .truncated, path: "EOI"),
    ]

    @Test("each broken file gives its error with offset and path", arguments: cases)
    func corrupt(_ expected: Case) throws {
        let url = Locations.samples.appendingPathComponent("corrupt/\(expected.file)")
        let file = MediaFile.inspect(path: url.path)
        let problem = try #require(expected.fatal ? file.error : file.warnings.first { $0.code == expected.code }, "\(file.warnings)")
        #expect(problem.code == expected.code)
        #expect(problem.path == expected.path)
        #expect(problem.offset >= 0 && problem.offset <= file.size)
        #expect(!problem.message.isEmpty)
    }

    @Test("every file in Samples/corrupt has a case")
    func allCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Locations.samples.appendingPathComponent("corrupt").path)
        let covered = Set(Self.cases.map(\.file)).union(["jpeg-without-soi.jpg"])
        #expect(Set(names) == covered)
    }

    @Test("content that matches no format is unknown, and check reports a media name holding it")
    func notMedia() {
        let file = MediaFile.inspect(path: Locations.samples.appendingPathComponent("corrupt/jpeg-without-soi.jpg").path)
        #expect(file.format == .unknown)
        #expect(file.kind == .unknown)
    }
}
