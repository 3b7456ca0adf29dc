import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Every file in ../shared/samples against what ExifTool 12.57 recorded in FACTS.tsv.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct RealSampleTests {
    @Test("identifiers, still-image-time and motion photos match FACTS.tsv", arguments: SampleFact.load())
    func matchesFacts(_ fact: SampleFact) throws {
        let url = try #require(fact.url)
        let file = MediaFile.inspect(path: url.path)
        #expect(file.error == nil, "\(fact.file): \(String(describing: file.error))")
        if let identifier = fact.stillIdentifier {
            #expect(file.still?.makerNote?.contentIdentifier == identifier)
        }
        if let identifier = fact.movieIdentifier {
            #expect(file.movie?.contentIdentifier == identifier)
        }
        if fact.stillIdentifier == nil && fact.movieIdentifier == nil {
            #expect(file.contentIdentifier == nil)
        }
        if let value = fact.stillImageTimeValue {
            let time = try #require(file.movie?.stillImageTime, "\(fact.file) has no still-image-time")
            #expect(time.value == value)
            // ExifTool numbers tracks by their order in moov.
            let index = try #require(file.movie?.tracks.firstIndex { $0.id == time.trackID })
            #expect(index + 1 == fact.stillImageTimeTrack)
        } else if file.movie != nil {
            #expect(file.movie?.stillImageTime == nil)
        }
        #expect((file.kind == .motionPhoto) == fact.motionPhoto, "\(fact.file): kind \(file.kind)")
        let expectedFormat: [String: [FileFormat]] = [
            "JPEG": [.jpeg], "HEIC": [.heic], "HEIF": [.heif, .heic], "AVIF": [.avif], "MOV": [.quickTime],
        ]
        #expect(expectedFormat[fact.fileType]?.contains(file.format) == true, "\(fact.file): \(file.format)")
    }

    @Test("camera movies place the still at the edit-list moment, not at media time 0")
    func trainMovEditList() throws {
        let url = try #require(SharedSamples.url("LycheeOrg__Lychee/train.mov"))
        let movie = try #require(MediaFile.inspect(path: url.path).movie)
        let track = try #require(movie.stillImageTimeTracks.first)
        #expect(track.editList == [Edit(segmentDuration: 288, mediaTime: -1, rate: 1), Edit(segmentDuration: 1, mediaTime: 0, rate: 1)])
        let time = try #require(movie.stillImageTime)
        #expect(time.mediaTime == 0)
        #expect(time.duration == 1)
        #expect(time.seconds == 288.0 / 600.0)
        // The video track's stts as stored, read by the tests' own box walk: the duration most
        // frames have, the shortest and the longest (ffmpeg cuts the last frame's 519 ticks to the
        // edit list's end, so its packet durations are not the table's).
        let stts = try Self.videoTimeToSample(url)
        let frames = stts.reduce(into: [UInt32: UInt64]()) { $0[$1.duration, default: 0] += UInt64($1.count) }
        let nominal = try #require(frames.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key)
        #expect(movie.frameDurations?.nominal == nominal)
        #expect(movie.frameDurations?.minimum == frames.keys.min())
        #expect(movie.frameDurations?.maximum == frames.keys.max())
        #expect(movie.frameDurations?.frameCount == frames.values.reduce(0, +))
    }

    /// (count, duration) entries of the first video track's `stts`, by `BoxWalk`.
    static func videoTimeToSample(_ url: URL) throws -> [(count: UInt32, duration: UInt32)] {
        let walk = BoxWalk(bytes: [UInt8](try Data(contentsOf: url)))
        let moov = try #require(walk.children(0..<walk.bytes.count).first { $0.type == "moov" })
        for trak in walk.children(moov.body) where trak.type == "trak" {
            guard let mdia = walk.children(trak.body).first(where: { $0.type == "mdia" }),
                  let hdlr = walk.children(mdia.body).first(where: { $0.type == "hdlr" }),
                  walk.bytes[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)].elementsEqual("vide".utf8),
                  let minf = walk.children(mdia.body).first(where: { $0.type == "minf" }),
                  let stbl = walk.children(minf.body).first(where: { $0.type == "stbl" }),
                  let stts = walk.children(stbl.body).first(where: { $0.type == "stts" }) else { continue }
            let count = Int(walk.be(stts.body.lowerBound + 4, 4))
            return (0..<count).map { index in
                let at = stts.body.lowerBound + 8 + 8 * index
                return (UInt32(walk.be(at, 4)), UInt32(walk.be(at + 4, 4)))
            }
        }
        throw FixtureError(message: "\(url.lastPathComponent) has no video track with an stts")
    }

    @Test("a movie starting with 'wide' (no ftyp) is read")
    func wideFirst() throws {
        let url = try #require(SharedSamples.url("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"))
        let file = MediaFile.inspect(path: url.path)
        #expect(file.movie?.boxes.first?.type == "wide")
        #expect(file.format == .quickTime)
        #expect(file.movie?.contentIdentifier == "71DCA213-5710-4A6C-BC6D-CE6306AEB8D8")
    }

    @Test("JPEG data named .HEIC is recognised as JPEG")
    func contentNotName() throws {
        let url = try #require(SharedSamples.url("TechnikTobi__little_exif/IMG_2762.HEIC"))
        #expect(MediaFile.inspect(path: url.path).format == .jpeg)
    }

    @Test("the Exif item at the end of a HEIC is found")
    func exifAtEnd() throws {
        let url = try #require(SharedSamples.url("drewnoakes__metadata-extractor-images/exif-at-eof.heic"))
        let file = MediaFile.inspect(path: url.path)
        let item = try #require(file.still?.heif?.items.first { $0.type == "Exif" })
        #expect(item.extents.first.map { item.baseOffset + $0.offset } ?? 0 > UInt64(file.size / 2))
        #expect(file.contentIdentifier == "1745E022-9712-43C7-B024-F308EC6413CB")
    }

    @Test("newer iPhones: several mebx tracks are told apart by their keys")
    func severalTimedMetadataTracks() throws {
        let url = try #require(SharedSamples.url("Bai-Mirror__pyheic_struct/apple.MOV"))
        let movie = try #require(MediaFile.inspect(path: url.path).movie)
        #expect(movie.tracks.filter(\.isTimedMetadata).count >= 3)
        #expect(movie.stillImageTimeTracks.count == 1)
        #expect(movie.stillImageTime?.value == -1)
    }

    @Test("truncated HEICs are read up to the damage and say where it is")
    func truncatedHEIC() throws {
        for name in ["perkeep__perkeep/river-truncated.heic", "perkeep__perkeep/black-seattle-truncated.heic"] {
            let url = try #require(SharedSamples.url(name))
            let file = MediaFile.inspect(path: url.path)
            let warning = try #require(file.warnings.first { $0.code == .truncated })
            #expect(warning.path == "mdat")
            #expect(warning.offset > 0 && warning.offset < file.size)
        }
    }

    @Test("motion photos: the embedded movie is where XMP says, or reported missing")
    func motionPhotos() throws {
        let good = try #require(SharedSamples.url("androidx__media/pixel-motion-photo-shortened.jpg"))
        let motion = try #require(MediaFile.inspect(path: good.path).still?.motionPhoto)
        #expect(motion.videoFound)
        #expect((motion.videoLength ?? 0) > 0)
        let removed = try #require(SharedSamples.url("androidx__media/pixel-motion-photo-video-removed-shortened.jpg"))
        #expect(MediaFile.inspect(path: removed.path).still?.motionPhoto?.videoFound == false)
        let samsung = try #require(SharedSamples.url("androidx__media/sample_MP.heic"))
        #expect(MediaFile.inspect(path: samsung.path).still?.motionPhoto?.videoFound == true)
    }
}
