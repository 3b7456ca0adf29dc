import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Issue 25, case 9: a Samsung JPEG whose only motion-photo marker is its SEF trailer.
struct SamsungTrailerTests {
    static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }

    /// `still` with `movie` in a `MotionPhoto_Data` record and the SEF directory after it, as
    /// Samsung's camera writes them (record type 0x0A30).
    static func samsung(still: [UInt8], movie: [UInt8]) -> (bytes: [UInt8], movieAt: Int) {
        let name = Array("MotionPhoto_Data".utf8)
        let record = [0, 0, 0x30, 0x0A] + le(UInt32(name.count)) + name + movie
        let directoryStart = still.count + record.count
        let directory = Array("SEFH".utf8) + le(106) + le(1) + [0, 0, 0x30, 0x0A] + le(UInt32(record.count)) + le(UInt32(record.count))
        return (still + record + directory + le(UInt32(directory.count)) + Array("SEFT".utf8), directoryStart - movie.count)
    }

    @Test("a JPEG whose SEF trailer holds MotionPhoto_Data and that has no XMP is a motion photo, its movie where the record says (ExifTool extracts the same bytes)")
    func trailerOnly() throws {
        let still = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("plain-frame.jpg")))
        let movie = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let (bytes, movieAt) = Self.samsung(still: still, movie: movie)
        let read = try Still.read(from: MemorySource(bytes), format: .jpeg, options: .check)
        #expect(read.xmp == nil)
        let motion = try #require(read.motionPhoto)
        #expect(motion.source == .samsungTrailer)
        #expect(motion.movieRange == Int64(movieAt)..<Int64(movieAt + movie.count))
        #expect(motion.foundBy == .samsungTrailer)
        #expect(read.embeddedMovie?.primaryVideoTrack != nil)
        // Without the trailer the same file is found by its trailing movie alone (issue 28).
        let stripped = try Still.read(from: MemorySource(still + movie), format: .jpeg, options: .check).motionPhoto
        #expect(stripped?.source == .trailingMovie && stripped?.movieRange == Int64(still.count)..<Int64(still.count + movie.count))
        // ExifTool extracts the same movie (a dependency the bootstrap installs: missing, the
        // test fails rather than skipping this half).
        try Locations.require(Locations.tool("exiftool") != nil, "exiftool")
        let exiftool = try #require(Locations.tool("exiftool"))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-samsung-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(bytes).write(to: url)
        let extracted = try ProcessResult.run(exiftool, ["-b", "-EmbeddedVideoFile", url.path])
        #expect([UInt8](extracted.stdout) == movie)
    }

    @Test("case 11: a movie followed by a 32-byte SEFH…SEFT tail (what motion-photo-splitter writes) reads whole: the tail is named as bytes that are not a box, never a cut box")
    func trailingSamsungTail() throws {
        let movie = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let tail = Array("SEFH".utf8) + Self.le(106) + Self.le(0) + [UInt8](repeating: 0, count: 12) + Self.le(20) + Array("SEFT".utf8)
        #expect(tail.count == 32)
        let file = MediaFile.inspect(source: MemorySource(movie + tail), path: "clip.mp4")
        #expect(file.error == nil)
        #expect(!file.warnings.contains { $0.code == .truncated })
        let warning = try #require(file.warnings.first { $0.code == .invalidValue })
        #expect(warning.message == "32 bytes after the last box are not a box (a Samsung SEF trailer, ending 'SEFT')")
        #expect(warning.offset == Int64(movie.count))
        #expect(file.movie?.stillImageTime != nil)
        // Zero padding stays what it was: no warning.
        let padded = MediaFile.inspect(source: MemorySource(movie + [UInt8](repeating: 0, count: 32)), path: "padded.mov")
        #expect(padded.error == nil && padded.warnings.isEmpty, "\(padded.warnings)")
        // A box cut short is still a truncation.
        let cut = MediaFile.inspect(source: MemorySource(movie + [0, 0, 0x10, 0] + Array("mdat".utf8) + [1, 2, 3, 4]), path: "cut.mov")
        #expect(cut.warnings.contains { $0.code == .truncated })
    }
}
