import Foundation
import LivePhotoFormats
import LivePhotoWriting
import LivePhotoTestSupport
import Testing

/// The movie rewriter's layouts, read back by our reader.
struct RewriterTests {
    static let identifier = "4C1D2E3F-5A6B-4C7D-8E9F-0A1B2C3D4E5F"

    static func rewrite(_ bytes: [UInt8], _ edits: MovieEdits) throws -> (FilePatch, Movie) {
        let source = MemorySource(bytes)
        let patch = try MovieRewriter.rewrite(try Movie.read(from: source), source: source, edits: edits)
        let output = try patch.render(from: source)
        return (patch, try Movie.read(from: MemorySource(output)))
    }

    @Test("moov's own free space absorbs a new track: moov keeps its size and place (fuzz regression: exclusive access while fitting)")
    func inPlaceWithFreeSpace() throws {
        let movie = BoxBuilder.movie(identifier: nil, stillImageTime: nil, extraMoovBoxes: [BoxBuilder.box("free", [UInt8](repeating: 0, count: 3000))])
        let before = try Movie.read(from: MemorySource(movie))
        let (patch, after) = try Self.rewrite(movie, MovieEdits(contentIdentifier: Self.identifier, stillImageTime: StillImagePlacement(seconds: 0.05)))
        #expect(patch.notes.contains { $0.contains("rewritten in place") && $0.contains("free space absorbs") })
        let oldMoov = try #require(before.boxes.first { $0.type == "moov" })
        let newMoov = try #require(after.boxes.first { $0.type == "moov" })
        #expect(oldMoov.offset == newMoov.offset && oldMoov.size == newMoov.size)
        #expect(after.contentIdentifier == Self.identifier)
        #expect(after.stillImageTime?.value == -1)
        #expect(abs((after.stillImageTime?.seconds ?? -1) - 0.05) < 0.002)
        // The video's chunk offsets did not move.
        #expect(after.primaryVideoTrack?.sampleTable.chunkOffsets == before.primaryVideoTrack?.sampleTable.chunkOffsets)
    }

    @Test("moov last without free space: rewritten at its place, larger")
    func moovLast() throws {
        let movie = BoxBuilder.movie(identifier: nil, stillImageTime: nil)
        let (patch, after) = try Self.rewrite(movie, MovieEdits(contentIdentifier: Self.identifier, stillImageTime: StillImagePlacement(seconds: 0.04)))
        #expect(patch.notes.contains { $0.contains("moov follows mdat") })
        #expect(after.contentIdentifier == Self.identifier)
        #expect(after.stillImageTime?.seconds.map { abs($0 - 0.04) < 0.002 } == true)
        #expect(after.stillImageTimeTracks.first?.references.first?.trackIDs == [1])
    }

    @Test("an existing identifier is replaced, other metadata items kept, one still-image-time track remains")
    func replaceExisting() throws {
        let movie = BoxBuilder.movie(identifier: "11111111-2222-3333-4444-555555555555")
        let (_, after) = try Self.rewrite(movie, MovieEdits(contentIdentifier: Self.identifier, stillImageTime: StillImagePlacement(seconds: 0.02)))
        #expect(after.metadata.filter { $0.key == LivePhotoKeys.contentIdentifier }.map(\.value) == [.string(Self.identifier)])
        #expect(after.stillImageTimeTracks.count == 1)
    }

    @Test("a track ID of 0xFFFFFFFF leaves no room for a new track: refused, not trapped (fuzz find)")
    func exhaustedTrackIDs() throws {
        var movie = BoxBuilder.movie(identifier: nil, stillImageTime: nil)
        let tkhd = try #require((0..<(movie.count - 4)).first { movie[$0..<($0 + 4)].elementsEqual(Array("tkhd".utf8)) })
        movie.replaceSubrange((tkhd + 16)..<(tkhd + 20), with: BoxBuilder.u32(UInt32.max))
        let source = MemorySource(movie)
        let parsed = try Movie.read(from: source)
        #expect(parsed.tracks.first?.id == UInt32.max)
        #expect {
            try MovieRewriter.rewrite(parsed, source: source, edits: MovieEdits(stillImageTime: StillImagePlacement(seconds: 0.01)))
        } throws: { ($0 as? WriteError)?.code == .fieldOverflow }
    }

    @Test("the real iPhone 15 movie that the fuzzer crashed on rewrites in place", .enabled(if: Locations.hasSharedSamples))
    func iPhone15() throws {
        let url = try #require(SharedSamples.url("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"))
        let source = try FileSource(path: url.path)
        let movie = try Movie.read(from: source)
        let patch = try MovieRewriter.rewrite(movie, source: source, edits: MovieEdits(contentIdentifier: Self.identifier, stillImageTime: StillImagePlacement(seconds: 0.5), quickTimeBrand: true))
        let after = try Movie.read(from: MemorySource(try patch.render(from: source)))
        #expect(after.contentIdentifier == Self.identifier)
        #expect(abs((after.stillImageTime?.seconds ?? -1) - 0.5) < 0.002)
        #expect(after.tracks.count == movie.tracks.count)
    }
}
