import Foundation
@testable import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// A moov with a hundred thousand children (found by the convert fuzz target, which timed out):
/// the writers name every child once, in one pass.
struct ManyChildrenTests {
    @Test("child paths are what counting each child's earlier siblings of its type gives")
    func pathsByDefinition() {
        let types: [FourCC] = ["mvhd", "trak", "free", "trak", "meta", "trak", "free", "udta"]
        let children = types.map { (box: Box(type: $0, offset: 0, size: 8, headerSize: 8), bytes: [UInt8]()) }
        let expected = children.indices.map { index -> String in
            let position = children[..<index].filter { $0.box.type == children[index].box.type }.count + 1
            return position > 1 ? "moov/\(children[index].box.type)[\(position)]" : "moov/\(children[index].box.type)"
        }
        #expect(MovieRewriter.childPaths(children) == expected)
        #expect(expected[5] == "moov/trak[3]")
    }

    @Test("99,000 free boxes in moov (the readers' limit is 100,000 children): the MP4 writer and the rewriter name the tracks among them and finish (quadratic naming took minutes)")
    func hundredThousandChildren() throws {
        let original = try [UInt8](Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov")))
        let bytes = HostileStructure.manyBoxes.apply(to: original, count: 99_000)
        let source = MemorySource(bytes)
        let movie = try #require(MediaFile.inspect(source: source, path: "many.mov", options: .check).movie)
        #expect(movie.tracks.count >= 1)
        let patch = try ISOMovieWriter.mp4(movie, source: source)
        let output = try patch.render(from: source)
        #expect(MediaFile.inspect(source: MemorySource(output), path: "many.mp4", options: .check).movie?.tracks.isEmpty == false)
        // The rewriter names the same children for a new track and for the header times.
        let edits = MovieEdits(stillImageTime: StillImagePlacement(seconds: 0.5), captureDate: CaptureDateEdit(keyText: "2025-10-12T23:36:14+1300", quickTimeSeconds: 3_843_110_174))
        let rewritten = try MovieRewriter.rewrite(movie, source: source, edits: edits).render(from: source)
        let read = try #require(MediaFile.inspect(source: MemorySource(rewritten), path: "rewritten.mov", options: .check).movie)
        #expect(read.creationTime == 3_843_110_174 && read.stillImageTimeTracks.count == 1)
    }
}
