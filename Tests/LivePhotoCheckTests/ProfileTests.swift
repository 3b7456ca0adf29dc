import Foundation
import LivePhotoCheck
import LivePhotoTestSupport
import Testing

/// Profiles (which rules a check reports) and verdicts (whether an item will work on each target).
struct ProfileTests {
    static func checked(_ item: CheckItem, profile: Target = .photos, configure: (inout Configuration) -> Void = { _ in }) -> CheckItem {
        var checker = Checker(roots: [])
        checker.configuration.profile = profile
        configure(&checker.configuration)
        var item = item
        checker.ruleRun.check(&item)
        return item
    }

    @Test("verdicts: a JPEG camera-like pair passes Photos and is uncertain as a wallpaper (only a low-confidence rule fails); a pair without a movie identifier fails both")
    func verdicts() {
        let pair = Self.checked(Example.pair())
        #expect(pair.verdicts[.photos] == .pass && pair.verdicts[.wallpaper] == .uncertain && pair.verdicts[.googlePhotos] == nil)
        // The wallpaper's rules are not reported for Photos, yet decide the wallpaper's verdict.
        #expect(pair.findings.isEmpty)
        let broken = Self.checked(Example.pair(movie: Example.movie(identifier: nil)))
        #expect(broken.verdicts[.photos] == .fail && broken.verdicts[.wallpaper] == .fail)
        let heic = Self.checked(Example.pair(still: Example.still("IMG_0001.HEIC", format: .heic)))
        #expect(heic.verdicts[.wallpaper] == .pass)
        // A rule switched off in the configuration still decides the verdict: the platform does not read it.
        let off = Self.checked(Example.pair(movie: Example.movie(identifier: nil))) { $0.severities["movie-missing-identifier"] = .some(nil); $0.severities["identifier-mismatch"] = .some(nil) }
        #expect(off.verdicts[.photos] == .fail && !off.findings.contains { $0.rule == "movie-missing-identifier" })
    }

    @Test("every verdict other than pass names what decided it: the wallpaper's uncertain verdict of a JPEG pair names the low-confidence rules the Photos report does not list (reported false); a fail names the reported rule's finding; a switched-off rule that fails it is named unreported; a pass has no reason; the check report's JSON carries them in its schema")
    func verdictReasons() throws {
        let pair = Self.checked(Example.pair())
        let wallpaper = pair.verdictReasons.filter { $0.target == .wallpaper }
        #expect(!wallpaper.isEmpty && wallpaper.allSatisfy { !$0.reported } && pair.verdictReasons.allSatisfy { $0.target == .wallpaper }, "\(pair.verdictReasons)")
        #expect(wallpaper.map(\.rule).contains("wallpaper-still-not-heic"), "\(wallpaper)")
        let broken = Self.checked(Example.pair(movie: Example.movie(identifier: nil)))
        let photos = broken.verdictReasons.filter { $0.target == .photos }
        #expect(photos.contains { $0.rule == "movie-missing-identifier" && $0.reported } && photos.allSatisfy { rule in broken.findings.contains { $0.rule == rule.rule } }, "\(photos)")
        let off = Self.checked(Example.pair(movie: Example.movie(identifier: nil))) { $0.severities["movie-missing-identifier"] = .some(nil) }
        #expect(off.verdictReasons.contains { $0.target == .photos && $0.rule == "movie-missing-identifier" && !$0.reported }, "\(off.verdictReasons)")
        let heic = Self.checked(Example.pair(still: Example.still("IMG_0001.HEIC", format: .heic)))
        #expect(heic.verdictReasons.isEmpty && heic.verdicts[.photos] == .pass && heic.verdicts[.wallpaper] == .pass, "\(heic.verdictReasons)")
    }

    @Test("motion photos get a google-photos verdict, nothing else; plain stills none")
    func googlePhotos() {
        let motion = Self.checked(Example.motionPhotoItem())
        #expect(motion.verdicts.all.map(\.target) == [.googlePhotos])
        // The example declares its movie by the Container directory alone (no GCamera:MotionPhoto)
        // and its movie's facts count no video track: two requirements of Google's checker, so
        // exactly those two rules' errors, and a fail.
        let errors = Set(motion.findings.filter { $0.severity == .error }.map(\.rule))
        #expect(errors == ["motion-photo-version", "motion-photo-video-tracks"], "\(errors)")
        #expect(motion.verdicts[.googlePhotos] == .fail)
        // The same example with both made good (GCamera:MotionPhoto 1, one video track) passes.
        var whole = Example.motionPhotoItem(video: 1)
        whole.still?.motionPhoto?.cameraMotionPhoto = "1"
        let passing = Self.checked(whole)
        #expect(passing.verdicts[.googlePhotos] == .pass, "\(passing.findings.map(\.rule))")
        let missing = Self.checked(Example.motionPhotoItem { $0.videoFound = false })
        #expect(missing.verdicts[.googlePhotos] == .fail, "\(missing.findings.map(\.rule))")
        #expect(Self.checked(CheckItem(kind: .notLivePhoto, still: Example.still(identifier: nil))).verdicts.all.isEmpty)
    }

    @Test("profiles: photos leaves the wallpaper's rules out, wallpaper reports them, google-photos leaves the Live Photo rules out and keeps damage, agreement and motion photos")
    func profiles() throws {
        func reports(_ profile: Target, _ identifier: String) throws -> Bool {
            var configuration = Configuration()
            configuration.profile = profile
            return configuration.severity(of: try #require(RuleRegistry.rule(identifier)).description) != nil
        }
        #expect(try !reports(.photos, "wallpaper-keys-missing") && reports(.wallpaper, "wallpaper-keys-missing") && !reports(.googlePhotos, "wallpaper-keys-missing"))
        #expect(try reports(.photos, "movie-missing-identifier") && reports(.wallpaper, "movie-missing-identifier") && !reports(.googlePhotos, "movie-missing-identifier"))
        #expect(try reports(.photos, "motion-photo-size-sum") && reports(.googlePhotos, "motion-photo-size-sum"))
        #expect(try reports(.googlePhotos, "truncated-file") && reports(.googlePhotos, "capture-time-mismatch") && reports(.googlePhotos, "unexpected-item"))
        let wallpaper = Self.checked(Example.pair(), profile: .wallpaper)
        #expect(wallpaper.findings.map(\.rule) == ["wallpaper-still-not-heic"])
        #expect(try Configuration.parse("profile: google-photos\n").profile == .googlePhotos)
        #expect(throws: Configuration.Problem.self) { try Configuration.parse("profile: lockscreen\n") }
    }
}
