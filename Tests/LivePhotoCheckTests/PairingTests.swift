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

    @Test("case 8: a still without identifier beside a same-named movie of an identifier group pairs with it by name, as a variant pair of the group, and still-missing-identifier says so")
    func strippedStillBesideGroupMovie() {
        let files = [Example.still("a/IMG_1.JPG"), Example.movie("a/IMG_1.MOV"),
                     Example.still("web/IMG_1.JPG", identifier: nil), Example.movie("web/IMG_1.MOV")]
        let items = Pairing.items(files)
        #expect(items.count == 2)
        let web = items.first { $0.movie?.path == "web/IMG_1.MOV" }
        #expect(web?.kind == .pair)
        #expect(web?.pairedBy == .name)
        #expect(web?.still?.path == "web/IMG_1.JPG")
        #expect(web?.variantOf == ItemReference(still: "a/IMG_1.JPG", movie: "a/IMG_1.MOV"))
        let findings = web.map { item in RuleRegistry.all.flatMap { $0.check(item, context: RuleContext()) } } ?? []
        #expect(findings.contains { $0.rule == "still-missing-identifier" && $0.severity == .error })
        // The movie alone, as before: the same finding.
        let alone = Pairing.items([Example.still("web/IMG_1.JPG", identifier: nil), Example.movie("web/IMG_1.MOV")])
        #expect(alone.map(\.kind) == [.pair])
    }

    @Test("issue 39: a web copy (a still stripped of its MakerNote) beside a byte-identical copy of the group's movie under its own name pairs with it by name, a variant of the group's Live Photo, as when the movie's bytes differ; a copy with no same-named still stays a duplicate")
    func strippedStillBesideCopiedMovie() {
        var movie = Example.movie("a/train.mov")
        movie.identity = FileIdentity(device: 1, inode: 20)
        var copy = Example.movie("a/train_sm.mov")
        copy.identity = FileIdentity(device: 1, inode: 30)
        var lone = Example.movie("a/other.mov")
        lone.identity = FileIdentity(device: 1, inode: 40)
        let files = [Example.still("a/train.jpg"), movie, Example.still("a/train_sm.jpg", identifier: nil), copy, lone]
        let items = Pairing.items(files) { $0.isMovie && $1.isMovie }
        #expect(items.count == 3, "\(items.map(\.kind))")
        let web = items.first { $0.movie?.path == "a/train_sm.mov" }
        #expect(web?.kind == .pair && web?.pairedBy == .name && web?.still?.path == "a/train_sm.jpg")
        #expect(web?.variantOf == ItemReference(still: "a/train.jpg", movie: "a/train.mov"))
        #expect(web?.duplicateOf == nil)
        let findings = web.map { item in RuleRegistry.all.flatMap { $0.check(item, context: RuleContext()) } } ?? []
        #expect(findings.contains { $0.rule == "still-missing-identifier" && $0.severity == .error })
        let other = items.first { $0.movie?.path == "a/other.mov" }
        #expect(other?.kind == .duplicate && other?.duplicateOf == "a/train.mov")
    }

    @Test("a still whose same-named movie could not be read (an I/O failure) is one unreadable item with it, whose only finding is the failure; a damaged movie (not an I/O failure) leaves the still alone, its movie absent")
    func unreadMateJoined() {
        var failed = FileFacts(path: "a/IMG_1.MOV", format: .unknown, kind: .unknown, size: 0,
                               error: ParseError(.io, "s3://b/a/IMG_1.MOV: HTTP 503 (SlowDown)", offset: 4096))
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), failed])
        #expect(items.count == 1 && items[0].kind == .unreadable, "\(items.map(\.kind))")
        #expect(items[0].still?.path == "a/IMG_1.JPG" && items[0].movie?.path == "a/IMG_1.MOV")
        #expect(checked(items).map(\.rule) == ["unreadable-file"])
        failed.error = ParseError(.invalidSize, "box 'moov' claims 9999 bytes", offset: 36)
        let damaged = Pairing.items([Example.still("a/IMG_1.JPG"), failed])
        #expect(damaged.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.stillOnly, .unreadable])
        #expect(checked(damaged).map(\.rule).sorted() == ["movie-absent", "unreadable-file"])
    }

    @Test("two plain files with one name are not made a pair")
    func plainNotPaired() {
        var movie = Example.movie("a/clip.mov", identifier: nil)
        movie.movie?.stillImageTimeTracks = []
        movie.movie?.stillImageTime = nil
        let items = Pairing.items([Example.still("a/clip.jpg", identifier: nil), movie])
        #expect(items.map(\.kind) == [.notLivePhoto, .notLivePhoto])
    }

    @Test("a same-named still in another folder is a variant of the pair, never silently dropped")
    func sharedByVariant() {
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), Example.still("b/IMG_1.JPG"), Example.movie("a/IMG_1.MOV")])
        #expect(items.count == 2)
        let pair = items.first { $0.kind == .pair }
        #expect(pair?.still?.path == "a/IMG_1.JPG")
        #expect(pair?.sharingIdentifier == ["b/IMG_1.JPG"])
        #expect(pair?.identifierConflict == false)
        let other = items.first { $0.still?.path == "b/IMG_1.JPG" }
        #expect(other?.kind == .variant)
        #expect(other?.variantOf == ItemReference(still: "a/IMG_1.JPG", movie: "a/IMG_1.MOV"))
        #expect(other?.sharingIdentifier.sorted() == ["a/IMG_1.JPG", "a/IMG_1.MOV"])
    }

    @Test("a still and two movies (full size and downsized elsewhere): one pair and one variant")
    func downsizedMovie() {
        let items = Pairing.items([Example.still("lib/IMG_2002.JPG"), Example.movie("lib/IMG_2002.MOV"), Example.movie("web/IMG_2002_sm.MOV")])
        #expect(items.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.pair, .variant])
        #expect(items.first { $0.kind == .pair }?.movie?.path == "lib/IMG_2002.MOV")
        let variant = items.first { $0.kind == .variant }
        #expect(variant?.movie?.path == "web/IMG_2002_sm.MOV")
        #expect(variant?.variantOf?.movie == "lib/IMG_2002.MOV")
        let findings = checked(items)
        #expect(!findings.contains { $0.rule == "identifier-shared" || $0.rule == "still-absent" || $0.rule == "movie-absent" })
        #expect(findings.contains { $0.rule == "identifier-variant" && $0.severity == .info })
    }

    @Test("Photos edits pair among themselves; the camera original is the primary, whatever the sort order")
    func editsAndReExports() {
        var reexport = Example.still("exp/IMG_4120 (1).HEIC", format: .heic)
        reexport.make = nil
        reexport.model = nil
        let files = [Example.still("exp/IMG_E4120.HEIC", format: .heic), Example.movie("exp/IMG_E4120.MOV"),
                     reexport, Example.still("exp/IMG_4120.HEIC", format: .heic), Example.movie("exp/IMG_4120.MOV")]
        let items = Pairing.items(files)
        let pairs = items.filter { $0.kind == .pair }
        #expect(pairs.count == 2)
        let original = pairs.first { $0.still?.path == "exp/IMG_4120.HEIC" }
        #expect(original?.movie?.path == "exp/IMG_4120.MOV")
        #expect(original?.variantOf == nil)
        let edit = pairs.first { $0.still?.path == "exp/IMG_E4120.HEIC" }
        #expect(edit?.movie?.path == "exp/IMG_E4120.MOV")
        #expect(edit?.variantOf?.still == "exp/IMG_4120.HEIC")
        #expect(edit?.variantMarks == [.photosEdit])
        let copy = items.first { $0.still?.path == "exp/IMG_4120 (1).HEIC" }
        #expect(copy?.kind == .variant)
        #expect(copy?.variantMarks == [.copyNumber])
        #expect(!checked(items).contains { $0.severity == .error })
    }

    @Test("hard links are one file; byte-identical copies are duplicates of the file they copy")
    func duplicates() {
        var still = Example.still("a/IMG_1.JPG")
        still.identity = FileIdentity(device: 1, inode: 10)
        var link = Example.still("b/link.JPG")
        link.identity = FileIdentity(device: 1, inode: 10)
        var copy = Example.movie("c/renamed.MOV")
        copy.identity = FileIdentity(device: 1, inode: 30)
        var movie = Example.movie("a/IMG_1.MOV")
        movie.identity = FileIdentity(device: 1, inode: 20)
        let items = Pairing.items([copy, link, still, movie]) { $0.size == $1.size && $0.isMovie && $1.isMovie }
        #expect(items.first { $0.kind == .pair }?.files.map(\.path) == ["a/IMG_1.JPG", "a/IMG_1.MOV"])
        let hardLink = items.first { $0.still?.path == "b/link.JPG" }
        #expect(hardLink?.kind == .duplicate)
        #expect(hardLink?.hardLink == true)
        #expect(hardLink?.duplicateOf == "a/IMG_1.JPG")
        let duplicate = items.first { $0.movie?.path == "c/renamed.MOV" }
        #expect(duplicate?.kind == .duplicate)
        #expect(duplicate?.hardLink == false)
        #expect(duplicate?.duplicateOf == "a/IMG_1.MOV")
        #expect(!checked(items).contains { $0.severity != .info })
    }

    @Test("stills named like none of the others are a true conflict, reported as an error")
    func conflict() {
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), Example.movie("a/IMG_1.MOV"), Example.still("a/DSC_9.JPG")])
        let pair = items.first { $0.kind == .pair }
        #expect(pair?.still?.path == "a/IMG_1.JPG")
        #expect(pair?.identifierConflict == false)
        let stranger = items.first { $0.still?.path == "a/DSC_9.JPG" }
        #expect(stranger?.kind == .stillOnly)
        #expect(stranger?.identifierConflict == true)
        let findings = checked(items).filter { $0.path == "a/DSC_9.JPG" }
        #expect(findings.contains { $0.rule == "identifier-shared" && $0.severity == .error })
        // The movie that carries the identifier exists: the message must not deny it.
        let absent = findings.first { $0.rule == "movie-absent" }
        #expect(absent?.message.contains("no movie of the scan carries") == false)
        #expect(absent?.message.contains("the 1 movie carrying its identifier") == true && absent?.message.contains("belongs to another item") == true, "\(absent?.message ?? "")")
    }

    @Test("a same-named movie that is unreadable or paired elsewhere is named, never denied")
    func nameMates() {
        var broken = Example.movie("a/IMG_7.MOV", identifier: nil)
        broken.error = ParseError(.truncated, "empty file", offset: 0)
        broken.movie = nil
        let items = Pairing.items([Example.still("a/IMG_7.JPG", identifier: "11111111-1111-1111-1111-111111111111"), broken])
        let still = items.first { $0.kind == .stillOnly }
        #expect(still?.nameMates.map(\.path) == ["a/IMG_7.MOV"])
        let message = checked(items).first { $0.rule == "movie-absent" }?.message ?? ""
        #expect(message.contains("a/IMG_7.MOV has its name but it is unreadable"))
        #expect(!message.contains("no movie has its folder and name"))
    }

    @Test("a copy of the paired movie is a duplicate; the stranger's message says the movies belong to other items, not that they are paired")
    func strangerBesideDuplicate() {
        var movie = Example.movie("a/IMG_1.MOV")
        movie.identity = FileIdentity(device: 1, inode: 2)
        var copy = Example.movie("b/copy.MOV")
        copy.identity = FileIdentity(device: 1, inode: 3)
        let items = Pairing.items([Example.still("a/IMG_1.JPG"), movie, copy, Example.still("a/DSC_5.JPG")]) { $0.isMovie && $1.isMovie }
        #expect(items.first { $0.movie?.path == "b/copy.MOV" }?.kind == .duplicate)
        let message = checked(items).first { $0.rule == "movie-absent" }?.message ?? ""
        #expect(message.contains("the 2 movies carrying its identifier"))
        #expect(message.contains("belong to other items"))
        #expect(!message.contains("paired with other files"))
    }

    @Test("a generator that stamped one identifier on hundreds of files: paired by exact names, in linear time, every member a conflict that says so")
    func largeGroup() {
        var files: [FileFacts] = []
        for index in 0..<200 {
            files.append(Example.still("g/IMG_\(index).JPG"))
            files.append(Example.movie("g/IMG_\(index).MOV"))
        }
        files.append(Example.still("g/extra.JPG"))
        let items = Pairing.items(files)
        #expect(items.count == 201)
        #expect(items.filter { $0.kind == .pair }.count == 200)
        #expect(items.filter { !$0.identifierConflict }.isEmpty)
        #expect(items.first { $0.kind == .pair }.map { $0.still?.baseName == $0.movie?.baseName } == true)
        let shared = checked(items).filter { $0.rule == "identifier-shared" }
        #expect(shared.count == 201)
        #expect(shared.allSatisfy { $0.message.contains("carried by 401 files (more than 256") })
    }

    @Test("each item lists the first ten other carriers of its identifier in path order, whether or not its own files are among the group's first ten")
    func sharerLists() {
        // A large group (exact names only) and a small one (resolved in full), with singles and
        // pairs among the first members and far from them.
        var files: [FileFacts] = []
        for index in 0..<300 {
            files.append(Example.still("g/\(index % 7)/IMG_\(1000 + index).JPG", identifier: "LARGE"))
            if index % 3 != 0 { files.append(Example.movie("g/\(index % 7)/IMG_\(1000 + index).MOV", identifier: "LARGE")) }
        }
        for name in ["a/IMG_1.JPG", "b/IMG_2.JPG", "c/IMG_3.HEIC"] { files.append(Example.still(name, identifier: "SMALL")) }
        files.append(Example.movie("c/IMG_3.MOV", identifier: "SMALL"))
        let items = Pairing.items(files)
        var checked = 0
        for item in items where item.sharingCount > 0 {
            let identifier = item.contentIdentifier ?? ""
            let own = item.files.map(\.path)
            let expected = files.filter { $0.contentIdentifier == identifier && !own.contains($0.path) }.map(\.path).sorted().prefix(10)
            #expect(item.sharingIdentifier == Array(expected), "\(own)")
            checked += 1
        }
        #expect(checked == items.count)
        // Items among the first ten (by path) and items after them both occur.
        let firstTen = Set(files.filter { $0.contentIdentifier == "LARGE" }.map(\.path).sorted().prefix(10))
        #expect(items.contains { $0.files.contains { firstTen.contains($0.path) } })
        #expect(items.contains { $0.contentIdentifier == "LARGE" && !$0.files.contains { firstTen.contains($0.path) } })
    }

    @Test("items that are conflicts and nothing more stay values: changing one item's relations leaves the others")
    func conflictRelationsAreValues() {
        var first = CheckItem(kind: .pair)
        first.identifierConflict = true
        var second = first
        var third = CheckItem(kind: .stillOnly)
        third.identifierConflict = true
        second.sidecars = ["a/IMG_1.AAE"]
        third.identifierConflict = false
        #expect(first.identifierConflict && first.sidecars.isEmpty)
        #expect(second.identifierConflict && second.sidecars == ["a/IMG_1.AAE"])
        #expect(!third.identifierConflict)
        first.nameMates = [NameMate(path: "b/IMG_1.MOV", reason: "it is a movie too")]
        #expect(second.nameMates.isEmpty && first.nameMates.count == 1)
    }

    @Test("variant marks: each is removed and named")
    func marks() {
        #expect(NameKey(baseName: "IMG_4120 (1)").stem == "img_4120")
        #expect(NameKey(baseName: "IMG_4120(12)").marks == [.copyNumber])
        #expect(NameKey(baseName: "IMG_0001-edited").marks == [.edited])
        #expect(NameKey(baseName: "IMG_E1234").stem == "img_1234")
        #expect(NameKey(baseName: "IMG_9881_HEVC").marks == [.hevc])
        #expect(NameKey(baseName: "IMG_E0001-edited(1)").marks.count == 3)
        #expect(NameKey(baseName: "IMG_2002_sm").isRelated(to: NameKey(baseName: "IMG_2002")))
        #expect(!NameKey(baseName: "IMG_12").isRelated(to: NameKey(baseName: "IMG_1")))
        #expect(NameKey(baseName: "Screenshot_20190528-153541_com.google.an").isRelated(to: NameKey(baseName: "Screenshot_20190528-153541_com.google.android")))
        #expect(NameKey(baseName: "Holiday (draft)").marks.isEmpty)
    }

    /// The findings a check for Photos (the default profile) gives.
    func checked(_ items: [CheckItem]) -> [Finding] {
        items.flatMap { item in RuleRegistry.all.filter { Target.photos.reports($0.description) }.flatMap { $0.check(item, context: RuleContext()) } }
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
