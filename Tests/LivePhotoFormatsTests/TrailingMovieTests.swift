import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// A motion photo whose XMP and SEF trailer were stripped (immich #30654): a JPEG and a whole
/// movie after it, found by the movie's `ftyp`; nothing else is taken for one.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct TrailingMovieTests {
    static func movieBytes() throws -> [UInt8] {
        let url = try #require(SharedSamples.url("googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"))
        let file = MediaFile.inspect(path: url.path, options: .check)
        let range = try #require(file.still?.motionPhoto?.movieRange)
        let bytes = try [UInt8](Data(contentsOf: url))
        return Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
    }

    @Test("a plain JPEG with a whole movie appended is a motion photo found by ftyp search, the movie where it was put; trailing zeros, a cut movie or a plain JPEG are none")
    func strippedMotionPhoto() throws {
        let jpeg = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("plain-frame.jpg")))
        let movie = try Self.movieBytes()
        let stripped = MediaFile.inspect(source: MemorySource(jpeg + movie), path: "stripped.jpg", options: .check)
        let motion = try #require(stripped.still?.motionPhoto)
        #expect(motion.source == .trailingMovie && motion.foundBy == .ftypSearch && motion.videoFound)
        #expect(motion.movieRange == Int64(jpeg.count)..<Int64(jpeg.count + movie.count))
        #expect(motion.videoOffset == nil && motion.videoLength == nil)
        #expect(stripped.still?.embeddedMovie?.primaryVideoTrack != nil)
        for (label, bytes) in [("zeros", jpeg + [UInt8](repeating: 0, count: 5_000)), ("a cut movie", jpeg + Array(movie.prefix(movie.count / 2))),
                               ("a plain JPEG", jpeg)] {
            #expect(MediaFile.inspect(source: MemorySource(bytes), path: "x.jpg", options: .check).still?.motionPhoto == nil, "\(label)")
        }
    }

    @Test("a JPEG cut short (no EOI) is searched no further than 32 MiB after its scan starts: a movie past that is not looked for, nor are the bytes read")
    func searchIsBounded() throws {
        let jpeg = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("plain-frame.jpg")))
        let filler = [UInt8](repeating: 0x55, count: Int(Still.trailingSearchLimit) + 1_000_000)
        let source = RecordingSource(jpeg + filler + (try Self.movieBytes()))
        let file = MediaFile.inspect(source: source, path: "cut.jpg", options: .check)
        #expect(file.still?.motionPhoto == nil)
        let read = source.ranges.reduce(Int64(0)) { $0 + Int64($1.count) }
        #expect(read <= Still.trailingSearchLimit + 1_000_000, "\(read) bytes read")
        // Within the limit the same movie is found.
        let near = MediaFile.inspect(source: MemorySource(jpeg + [UInt8](repeating: 0x55, count: 1_000_000) + (try Self.movieBytes())), path: "near.jpg", options: .check)
        #expect(near.still?.motionPhoto?.source == .trailingMovie)
    }
}
