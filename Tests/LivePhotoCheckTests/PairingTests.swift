import LivePhotoCheck
import LivePhotoFormats
import Testing

struct PairingTests {
    @Test("pairs by identifier across folders and names")
    func byIdentifier() {
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), Example.movie("b/other-name.MOV")])
        #expect(items.count == 1)
        #expect(items[0].kind == .pair)
        #expect(items[0].pairedBy == .identifier)
    }

    @Test("falls back to folder and base name when one side lacks the identifier")
    func byName() {
        let items = Pairing.items([Example.still("a/IMG_1.JPG", identifier: nil), Example.movie("a/IMG_1.MOV"), Example.movie("b/IMG_1.MOV", identifier: "99999999-9999-9999-9999-999999999999")])
        let pair = items.first { $0.kind == .pair }
        #expect(pair?.pairedBy == .name)
        #expect(pair?.still?.path == "a/IMG_1.JPG")
        #expect(pair?.movie?.path == "a/IMG_1.MOV")
        #expect(items.first { $0.movie?.path == "b/IMG_1.MOV" }?.kind == .movieOnly)
    }

    @Test("two plain files with one name are not made a pair")
    func plainNotPaired() {
        var movie = Example.movie("a/clip.mov", identifier: nil)
        movie.movie?.stillImageTimeTracks = []
        movie.movie?.stillImageTime = nil
        let items = Pairing.items([Example.still("a/clip.jpg", identifier: nil), movie])
        #expect(items.map(\.kind) == [.notLivePhoto, .notLivePhoto])
    }

    @Test("one identifier on several files is reported on each, never silently resolved")
    func shared() {
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), Example.still("b/IMG_1.JPG"), Example.movie("a/IMG_1.MOV")])
        #expect(items.count == 2)
        let pair = items.first { $0.kind == .pair }
        #expect(pair?.still?.path == "a/IMG_1.JPG")
        #expect(pair?.sharingIdentifier == ["b/IMG_1.JPG"])
        let lone = items.first { $0.still?.path == "b/IMG_1.JPG" }
        #expect(lone?.kind == .stillOnly)
        #expect(lone?.sharingIdentifier.sorted() == ["a/IMG_1.JPG", "a/IMG_1.MOV"])
    }

    @Test("every file lands in exactly one item, whatever the mix")
    func everyFileOnce() {
        var files: [FileFacts] = []
        for index in 0..<40 {
            let id = index % 7 == 0 ? nil : "00000000-0000-0000-0000-0000000000\(String(format: "%02d", index % 13))"
            files.append(Example.still("d\(index % 3)/IMG_\(index % 11).JPG", identifier: id))
            files.append(Example.movie("d\(index % 4)/IMG_\(index % 9).MOV", identifier: index % 5 == 0 ? nil : id))
        }
        var broken = Example.movie("x/broken.mov")
        broken.error = ParseError(.truncated, "cut", offset: 10)
        files.append(broken)
        var paths = files.map(\.path)
        // Paths must be unique for the count to mean anything.
        paths = Array(Set(paths))
        let unique = files.filter { file in paths.contains(file.path) }
        var seen = Set<String>()
        let deduplicated = unique.filter { seen.insert($0.path).inserted }
        let items = Pairing.items(deduplicated)
        let placed = items.flatMap { $0.files.map(\.path) }
        #expect(placed.count == deduplicated.count)
        #expect(Set(placed) == Set(deduplicated.map(\.path)))
        #expect(items.first { $0.files.contains { $0.path == "x/broken.mov" } }?.kind == .unreadable)
    }
}
