import Foundation
import LivePhotoFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photo-library layouts as people have them, built from the real files in ../shared/samples:
/// an iPhone DCIM import, an iCloud export with edits and re-exports, a Google Takeout export, a
/// server library with UUID names, a web folder with a downsized movie, hard links and odd names.
/// Files are copies (writable, so a repair can be tried), edits are made by ExifTool (a real
/// other file with the original's identifier), and every file states the item kind it must get.
public struct LibraryLayout: Sendable, CustomStringConvertible {
    public enum Source: Sendable {
        /// A copy of a shared sample (path below ../shared/samples).
        case sample(String)
        /// A copy of a shared sample rewritten by ExifTool with these arguments (another file with
        /// the same Live Photo identifier, as an editor writes it).
        case edited(String, [String])
        /// A hard link to another file of the layout.
        case hardLink(String)
        /// These bytes (an empty file, a text sidecar).
        case bytes([UInt8])
    }

    public struct Entry: Sendable {
        /// Path in the layout; bytes that are not UTF-8 are held as `PathBytes` scalars.
        public var path: String
        public var source: Source
        /// The item kind the file must land in (`check --format json`), nil for files that are in no
        /// item (sidecars, hidden and other files).
        public var kind: String?

        public init(path: String, source: Source, kind: String?) {
            (self.path, self.source, self.kind) = (path, source, kind)
        }
    }

    public var name: String
    public var entries: [Entry]
    public var description: String { name }

    public init(name: String, entries: [Entry]) {
        (self.name, self.entries) = (name, entries)
    }

    /// Builds the layout in `root` (ExifTool makes the edited entries).
    public func build(in root: String) throws {
        for entry in entries {
            let target = root + "/" + entry.path
            try Self.makeFolders(for: target)
            switch entry.source {
            case .sample(let name):
                guard let shared = Locations.sharedSamples else { throw LayoutError("../shared/samples is absent") }
                try Self.copy(shared.appendingPathComponent(name).path, to: target)
            case .edited(let name, let arguments):
                guard let shared = Locations.sharedSamples, let exiftool = Locations.tool("exiftool") else { throw LayoutError("ExifTool or the samples are absent") }
                let result = try ProcessResult.run(exiftool, ["-m", "-q", "-q"] + arguments + ["-o", target, shared.appendingPathComponent(name).path])
                guard result.status == 0 else { throw LayoutError("exiftool failed on \(name): \(result.stderr)") }
            case .hardLink(let other):
                let linked = PathBytes.withCString(root + "/" + other) { from in PathBytes.withCString(target) { to in link(from, to) } }
                guard linked == 0 else { throw LayoutError("cannot link \(other) to \(entry.path)") }
            case .bytes(let bytes):
                try Self.store(bytes, to: target)
            }
        }
    }

    static func makeFolders(for path: String) throws {
        var folder = ""
        for (index, part) in path.split(separator: "/", omittingEmptySubsequences: false).dropLast().enumerated() {
            folder = index == 0 ? String(part) : folder + "/" + part
            if !folder.isEmpty { _ = PathBytes.withCString(folder) { mkdir($0, 0o755) } }
        }
    }

    static func copy(_ source: String, to target: String) throws {
        let input = try FileSource(path: source)
        try store(try input.read(at: 0, count: Int(input.size)), to: target)
    }

    static func store(_ bytes: [UInt8], to target: String) throws {
        let descriptor = PathBytes.open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw LayoutError("cannot create \(PathBytes.display(target))") }
        defer { close(descriptor) }
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw LayoutError("cannot write \(PathBytes.display(target))") }
            done += written
        }
    }

    public struct LayoutError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}

extension LibraryLayout {
    static let train = "LycheeOrg__Lychee/train", henteko = "henteko__livephotoskit-react/test"
    static let iphone15 = "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853", iphone15Pro = "Bai-Mirror__pyheic_struct/apple"

    /// A name with two Latin-1 bytes (é) that are not UTF-8, as old Windows and Samba shares write.
    public static let latin1Name = PathBytes.string(Array("IMG_".utf8) + [0xE9] + Array("t".utf8) + [0xE9])

    public static let all: [LibraryLayout] = [
        LibraryLayout(name: "iphone-dcim", entries: [
            Entry(path: "DCIM/100APPLE/IMG_0001.JPG", source: .sample(train + ".jpg"), kind: "pair"),
            Entry(path: "DCIM/100APPLE/IMG_0001.MOV", source: .sample(train + ".mov"), kind: "pair"),
            Entry(path: "DCIM/100APPLE/IMG_3853.HEIC", source: .sample(iphone15 + ".HEIC"), kind: "pair"),
            Entry(path: "DCIM/100APPLE/IMG_3853.MOV", source: .sample(iphone15 + ".MOV"), kind: "pair"),
            // A still whose movie was lost on import: an empty file with its name.
            Entry(path: "DCIM/100APPLE/IMG_0005.HEIC", source: .sample("perkeep__perkeep/ski-throne.heic"), kind: "still-only"),
            Entry(path: "DCIM/100APPLE/IMG_0005.MOV", source: .bytes([]), kind: "unreadable"),
            // A still and a movie of two shots under one name: a pair by name with mismatched identifiers.
            Entry(path: "DCIM/100APPLE/IMG_0010.JPG", source: .sample(henteko + ".JPG"), kind: "pair"),
            Entry(path: "DCIM/100APPLE/IMG_0010.MOV", source: .sample(iphone15Pro + ".MOV"), kind: "pair"),
            // A movie that lost its name: hidden, named, not read.
            Entry(path: "DCIM/100APPLE/.MOV", source: .bytes([]), kind: nil),
        ]),
        LibraryLayout(name: "icloud-export", entries: [
            Entry(path: "Export/IMG_3853.HEIC", source: .sample(iphone15 + ".HEIC"), kind: "pair"),
            Entry(path: "Export/IMG_3853.MOV", source: .sample(iphone15 + ".MOV"), kind: "pair"),
            Entry(path: "Export/IMG_3853.AAE", source: .bytes(Array("<?xml version=\"1.0\"?><plist/>".utf8)), kind: nil),
            Entry(path: "Export/IMG_E3853.HEIC", source: .edited(iphone15 + ".HEIC", ["-Software=Photos edit"]), kind: "pair"),
            Entry(path: "Export/IMG_E3853.MOV", source: .edited(iphone15 + ".MOV", ["-Keys:Software=Photos edit"]), kind: "pair"),
            Entry(path: "Export/IMG_3853 (1).HEIC", source: .edited(iphone15 + ".HEIC", ["-Software=re-export"]), kind: "variant"),
            Entry(path: "Export/IMG_4120.HEIC", source: .sample(iphone15Pro + ".HEIC"), kind: "pair"),
            Entry(path: "Export/IMG_4120.MOV", source: .sample(iphone15Pro + ".MOV"), kind: "pair"),
            // A re-export without camera metadata sorts before the original: it must not win.
            Entry(path: "Export/IMG_4120 (1).HEIC", source: .edited(iphone15Pro + ".HEIC", ["-Make=", "-Model="]), kind: "variant"),
        ]),
        LibraryLayout(name: "google-takeout", entries: [
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_1234.JPG", source: .sample(train + ".jpg"), kind: "pair"),
            // Takeout hands Live Photo movies out as .MP4 (QuickTime inside).
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_1234.MP4", source: .sample(train + ".mov"), kind: "pair"),
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_1234-edited.JPG", source: .edited(train + ".jpg", ["-Software=Google"]), kind: "variant"),
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_1234.JPG.supplemental-metadata.json", source: .bytes(Array("{\"title\":\"IMG_1234.JPG\"}".utf8)), kind: nil),
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_1234.MP4.json", source: .bytes(Array("{\"title\":\"IMG_1234.MP4\"}".utf8)), kind: nil),
            // Albums repeat the year folders' files.
            Entry(path: "Takeout/Google Photos/Trip/IMG_1234.JPG", source: .sample(train + ".jpg"), kind: "duplicate"),
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_9999.JPG", source: .sample("TechnikTobi__little_exif/2017_stuttgart_07_.jpeg"), kind: "still-only"),
            Entry(path: "Takeout/Google Photos/Photos from 2021/IMG_9999.JPG.json", source: .bytes(Array("{}".utf8)), kind: nil),
        ]),
        LibraryLayout(name: "server-uuid", entries: [
            Entry(path: "library/upload/3f/2a/3f2a9c1e-5d7b-4c1a-9e2f-8b6d4a1c7e90.heic", source: .sample(iphone15Pro + ".HEIC"), kind: "pair"),
            Entry(path: "library/encoded-video/7b/1d/7b1d0e4f-2a3c-4b5d-8e6f-9a0b1c2d3e4f.mov", source: .sample(iphone15Pro + ".MOV"), kind: "pair"),
            // Two different files with one identifier and names that tell nothing: a true conflict.
            Entry(path: "library/upload/aa/01/aa01b2c3-d4e5-4f60-8192-a3b4c5d6e7f8.heic", source: .sample("drewnoakes__metadata-extractor-images/IMG_2927.HEIC"), kind: "still-only"),
            Entry(path: "library/upload/cc/02/cc02d3e4-f5a6-4b70-9283-b4c5d6e7f809.heic", source: .sample("drewnoakes__metadata-extractor-images/exif-at-eof.heic"), kind: "still-only"),
        ]),
        LibraryLayout(name: "web-downsized", entries: [
            Entry(path: "web/IMG_2002.JPG", source: .sample(henteko + ".JPG"), kind: "pair"),
            Entry(path: "web/IMG_2002.MOV", source: .sample(henteko + ".mov"), kind: "pair"),
            Entry(path: "web/small/IMG_2002_sm.MOV", source: .edited(henteko + ".mov", ["-Keys:Software=downsized"]), kind: "variant"),
        ]),
        LibraryLayout(name: "links-and-odd-names", entries: [
            Entry(path: "Library/IMG_0001.JPG", source: .sample(train + ".jpg"), kind: "pair"),
            Entry(path: "Library/IMG_0001.MOV", source: .sample(train + ".mov"), kind: "pair"),
            Entry(path: "Favorites/IMG_0001.JPG", source: .hardLink("Library/IMG_0001.JPG"), kind: "duplicate"),
            Entry(path: "Samba/\(latin1Name).HEIC", source: .sample(iphone15Pro + ".HEIC"), kind: "pair"),
            Entry(path: "Samba/\(latin1Name).MOV", source: .sample(iphone15Pro + ".MOV"), kind: "pair"),
            Entry(path: "Broken/IMG_0042.HEIC", source: .sample("perkeep__perkeep/river-truncated.heic"), kind: "unreadable"),
            Entry(path: "Broken/empty.JPG", source: .bytes([]), kind: "unreadable"),
            Entry(path: "Notes/readme.txt", source: .bytes(Array("holiday".utf8)), kind: nil),
        ]),
    ]
}
