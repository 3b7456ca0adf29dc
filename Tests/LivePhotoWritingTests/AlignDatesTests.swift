import Foundation
import LivePhotoTestSupport
import Testing

/// `repair --align-dates` on real camera pairs whose movie ExifTool dated otherwise: ExifTool
/// reads the still's instant in every date of the movie afterwards, the frames are the same, and
/// nothing happens without the flag or without a zone on the still.
@Suite(.enabled(if: Locations.hasSharedSamples && Locations.tool("exiftool") != nil && Locations.tool("ffmpeg") != nil && Locations.lpcheckBinary != nil,
                "needs ../shared/samples, exiftool, ffmpeg and the lpcheck binary"))
struct AlignDatesTests {
    static let dateTags = ["-Keys:CreationDate", "-QuickTime:CreateDate", "-QuickTime:ModifyDate", "-TrackCreateDate", "-TrackModifyDate", "-MediaCreateDate",
                           "-MediaModifyDate"]

    /// Every date ExifTool reads in the movie, by group and tag (all tracks: `-a -G1`).
    static func dates(_ movie: URL) throws -> [String: String] {
        let result = try Scratch.run("exiftool", ["-j", "-a", "-G1"] + dateTags + [movie.path])
        let record = try #require((try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])?.first)
        return record.compactMapValues { $0 as? String }.filter { $0.key != "SourceFile" }
    }

    static func pair(_ still: String, _ movie: String, moviesDates: [String]) throws -> (folder: URL, still: URL, movie: URL) {
        let folder = try Scratch.folder("align-dates")
        let files = try Scratch.copy([try #require(SharedSamples.url(still)), try #require(SharedSamples.url(movie))], into: folder)
        let result = try Scratch.run("exiftool", ["-q", "-overwrite_original"] + moviesDates + [files[1].path])
        #expect(result.status == 0, "\(result.stderr)")
        return (folder, files[0], files[1])
    }

    @Test("a movie dated a day later (Keys and mvhd), or in UTC: every date ExifTool reads becomes the still's instant; frames unchanged; the check passes",
          arguments: [["-Keys:CreationDate=2025:10:13 23:36:14+13:00", "-QuickTime:CreateDate=2025:10:14 10:00:00"], ["-Keys:CreationDate=2025:10:12 10:36:14+00:00"]])
    func aligns(_ change: [String]) throws {
        let (folder, _, movie) = try Self.pair("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV", moviesDates: change)
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try Scratch.frameChecksums(movie)
        let repair = try Scratch.lpcheck(["repair", folder.path, "--align-dates"])
        #expect(repair.status == 0, "\(repair.text)\(repair.stderr)")
        let dates = try Self.dates(movie)
        #expect(dates["Keys:CreationDate"] == "2025:10:12 23:36:14+13:00")
        // The still's 23:36:14.753 +13:00, whole seconds, in UTC: every header date of every track.
        let headers = dates.filter { $0.key != "Keys:CreationDate" }
        #expect(headers.count >= 6, "\(dates)")
        #expect(headers.values.allSatisfy { $0 == "2025:10:12 10:36:14" }, "\(dates)")
        #expect(try Scratch.frameChecksums(movie) == frames)
        let check = try Scratch.lpcheck(["check", folder.path, "--fail-on", "warning"])
        #expect(check.status == 0, "\(check.text)")
    }

    @Test("without --align-dates repair leaves the dates alone (the finding stays); a still without a zone has no instant, and nothing is written")
    func onlyWhenAskedAndKnown() throws {
        let shifted = try Self.pair("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV",
                                    moviesDates: ["-Keys:CreationDate=2025:10:13 23:36:14+13:00"])
        defer { try? FileManager.default.removeItem(at: shifted.folder) }
        let before = try Data(contentsOf: shifted.movie)
        let plain = try Scratch.lpcheck(["repair", shifted.folder.path])
        #expect(try Data(contentsOf: shifted.movie) == before, "\(plain.text)")
        let check = try Scratch.lpcheck(["check", shifted.folder.path, "--fail-on", "warning"])
        #expect(check.status == 1 && check.text.contains("capture-time-mismatch"))

        // henteko's test.JPG has no OffsetTimeOriginal: its movie, dated a day off, stays as it is.
        let unknown = try Self.pair("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov",
                                    moviesDates: ["-Keys:CreationDate=2016:09:22 03:30:55+09:00"])
        defer { try? FileManager.default.removeItem(at: unknown.folder) }
        let untouched = try Data(contentsOf: unknown.movie)
        let refused = try Scratch.lpcheck(["repair", unknown.folder.path, "--align-dates"])
        #expect(refused.text.contains("names no zone"), "\(refused.text)")
        #expect(try Data(contentsOf: unknown.movie) == untouched)
    }
}
