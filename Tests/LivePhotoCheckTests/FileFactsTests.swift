@testable import LivePhotoCheck
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Facts are values whose fields copies share until one of them changes (copy on write).
struct FileFactsTests {
    @Test("a copy of the facts is a value: changing any field of it leaves the original as it was")
    func copiesAreValues() throws {
        let original = Example.everyField()
        let before = try sortedJSON(original)
        let changes: [(field: String, change: (inout FileFacts) -> Void)] = [
            ("path", { $0.path = "other.jpg" }), ("format", { $0.format = .jpeg }), ("kind", { $0.kind = .movie }), ("size", { $0.size = 1 }),
            ("error", { $0.error = nil }), ("warnings", { $0.warnings.append(ParseError(.truncated, "more", offset: 0)) }),
            ("contentIdentifier", { $0.contentIdentifier = nil }), ("bytesRead", { $0.bytesRead = 2 }), ("identity", { $0.identity?.inode = 3 }),
            ("hasAppleMakerNote", { $0.hasAppleMakerNote.toggle() }), ("make", { $0.make = "Other" }), ("model", { $0.model = nil }),
            ("motionPhoto", { $0.motionPhoto = nil }), ("motionMovie", { $0.motionMovie?.videoTrackCount = 9 }),
            ("movie", { $0.movie?.frames.removeAll() }),
        ]
        // Every field of the facts is in the list (a new one must be added to it).
        let storage = try #require(Mirror(reflecting: original).children.first?.value)
        let fields = Set(Mirror(reflecting: storage).children.compactMap { $0.label?.trimmingPrefix("_") }.map(String.init))
        #expect(fields == Set(changes.map(\.field) + ["thumbnail"]))
        for (field, change) in changes {
            var copy = original
            change(&copy)
            #expect(try sortedJSON(copy) != before, "changing \(field) did not change the copy")
            // The same change made to facts no other value shares (no copy is made): the copy lost nothing.
            var alone = Example.everyField()
            change(&alone)
            #expect(try sortedJSON(copy) == sortedJSON(alone), "the copy made for \(field) lost a field")
            #expect(copy.thumbnail == alone.thumbnail)
            #expect(try sortedJSON(original) == before, "changing the copy's \(field) changed the original")
            #expect(!copy.sharesStorage(with: original))
        }
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.thumbnail = [1]
        #expect(original.thumbnail != [1] && copy.thumbnail == [1])
    }

    @Test("pairing's items hold the scan's facts themselves, not copies (a million files' facts are made once)")
    func itemsShareFacts() {
        let files = [Example.still("a/IMG_1.JPG"), Example.movie("b/IMG_1.MOV"), Example.still("c/IMG_2.JPG", identifier: nil),
                     Example.movie("c/IMG_2.MOV", identifier: nil), Example.still("d/IMG_3.JPG", identifier: "11111111-2222-3333-4444-555555555555")]
        let items = Pairing.items(files)
        let held = items.flatMap { item in [item.still, item.movie].compactMap { $0 } }
        #expect(held.count == files.count)
        for file in files {
            #expect(held.filter { $0.sharesStorage(with: file) }.count == 1, "\(file.path)")
        }
    }

    @Test("file name, folder, base name and extension agree with their definitions on String indices, on tricky paths")
    func nameParts() {
        // The definitions: the last slash and the name's last dot (not a leading one), found in the UTF-8 view.
        let slash = UInt8(ascii: "/"), period = UInt8(ascii: ".")
        func name(_ path: String) -> Substring { path.utf8.lastIndex(of: slash).map { path[path.utf8.index(after: $0)...] } ?? path[...] }
        let raw = PathBytes.string(Array("IMG_".utf8) + [0xE9, 0x2E, 0xFF])
        let paths = ["", "x", "/x", "x/", "/", "a/b/c.JPG", "a/.hidden", "a/.hidden.jpg", "noext", "a.b/c", "a.b/c.", ".", "dir/.", "..",
                     "é/É.HEIC", "a//b.mov", "shots/IMG_0001 (1).Jpeg", "日本/写真.MOV", raw, "d/" + raw, "a/b.tar.gz", "a/\u{301}b.\u{301}X"]
        for path in paths {
            let facts = FileFacts(path: path, format: .jpeg, kind: .still)
            let fileName = name(path)
            let dot = fileName.utf8.lastIndex(of: period).flatMap { $0 == fileName.startIndex ? nil : $0 }
            #expect(facts.fileName == String(fileName), "\(path)")
            #expect(facts.folder == (path.utf8.lastIndex(of: slash).map { String(path[..<$0]) } ?? ""), "\(path)")
            #expect(facts.baseName == String(dot.map { fileName[..<$0] } ?? fileName), "\(path)")
            #expect(facts.fileExtension == (dot.map { String(fileName[fileName.utf8.index(after: $0)...]).lowercased() } ?? ""), "\(path)")
        }
    }
}
