import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The `.livp` reader: archives written by Python's zipfile (stored, deflated, zip64), and
/// hostile ones made from them byte by byte. Each is read or refused with the offset, quickly,
/// and nothing is inflated.
@Suite(.serialized, .enabled(if: Locations.tool("python3") != nil, "needs python3"))
struct ZipArchiveTests {
    /// Writes the archives into a folder of their own; the script states each one.
    static let archives: Result<URL, Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-zip-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        RemovedAtExit.register(folder)
        let script = """
        import os, struct, sys, zipfile, zlib
        out, still, movie = sys.argv[1], sys.argv[2], sys.argv[3]
        def path(name): return os.path.join(out, name)
        # Stored, named as iCloud names them.
        with zipfile.ZipFile(path('pair.livp'), 'w', zipfile.ZIP_STORED) as z:
            z.write(still, 'IMG_0001.JPG.jpeg'); z.write(movie, 'IMG_0001.JPG.mov')
        # zip64 extended information on every member.
        with zipfile.ZipFile(path('zip64.livp'), 'w', zipfile.ZIP_STORED, allowZip64=True) as z:
            for name, source in (('IMG_0002.HEIC', still), ('IMG_0002.MOV', movie)):
                with open(source, 'rb') as f, z.open(zipfile.ZipInfo(name), 'w', force_zip64=True) as w: w.write(f.read())
        # zip64's end records and locator, and extended fields on every member: Python writes
        # them past its limits, lowered here to one member and one byte.
        zipfile.ZIP_FILECOUNT_LIMIT, zipfile.ZIP64_LIMIT = 1, 1
        with zipfile.ZipFile(path('zip64-records.livp'), 'w', zipfile.ZIP_STORED, allowZip64=True) as z:
            z.write(still, 'IMG_0003.HEIC'); z.write(movie, 'IMG_0003.MOV')
        zipfile.ZIP_FILECOUNT_LIMIT, zipfile.ZIP64_LIMIT = 0xFFFF, (1 << 31) - 1
        # 50 bytes: a local header's signature and 4 bytes, a zip64 locator pointing at byte 0,
        # an end record of 0xFFFF members (every command trapped on it: issue 47).
        open(path('fifty.livp'), 'wb').write(b'PK\\x03\\x04' + bytes(4) + struct.pack('<IIQI', 0x07064b50, 0, 0, 1)
                                             + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0))
        # A member stored twice under one name: unzip tools take the last copy.
        import warnings
        warnings.simplefilter('ignore')
        with zipfile.ZipFile(path('twice.livp'), 'w', zipfile.ZIP_STORED) as z:
            z.write(still, 'IMG_0004.JPG'); z.write(movie, 'IMG_0004.MOV'); z.write(movie, 'IMG_0004.JPG')
        # A deflate bomb: 1 GB of zeros in about a megabyte.
        with zipfile.ZipFile(path('bomb.livp'), 'w', zipfile.ZIP_DEFLATED) as z:
            with z.open('zeros.mov', 'w') as w:
                block = bytes(1 << 24)
                for _ in range(64): w.write(block)
        pair = open(path('pair.livp'), 'rb').read()
        central = pair.find(b'PK\\x01\\x02'); second = pair.find(b'PK\\x01\\x02', central + 4)
        def patched(name, at, value):
            data = bytearray(pair); data[at:at + len(value)] = value; open(path(name), 'wb').write(data)
        # The first member claims 4 GB, in its local header and the directory.
        patched('huge.livp', central + 20, struct.pack('<II', 0xFFFFFFF0, 0xFFFFFFF0))
        data = bytearray(open(path('huge.livp'), 'rb').read()); data[18:26] = struct.pack('<II', 0xFFFFFFF0, 0xFFFFFFF0); open(path('huge.livp'), 'wb').write(data)
        # The second entry points at the first member's local header: two members, one place.
        patched('overlap.livp', second + 42, struct.pack('<I', 0))
        # The directory says another size than the local header.
        size = struct.unpack('<I', pair[central + 20:central + 24])[0]
        patched('disagree.livp', central + 20, struct.pack('<II', size - 1, size - 1))
        # Encrypted (flag bit 0 in both headers).
        data = bytearray(pair); data[6] |= 1; data[central + 8] |= 1; open(path('encrypted.livp'), 'wb').write(data)
        # Names that climb out, are absolute, or hold a NUL (same length as the first name).
        for label, name in (('climb', b'../../etc/x.jpeg'), ('absolute', b'/etc/passwd.jpeg'), ('nul', b'IMG_0001\\x00JPG.jpeg')):
            data = bytearray(pair)
            first = pair[central + 46:central + 46 + len(name)]
            data[central + 46:central + 46 + len(name)] = name
            data[30:30 + len(name)] = name
            open(path(label + '.livp'), 'wb').write(data)
        # Truncated: the end of central directory cut off.
        open(path('truncated.livp'), 'wb').write(pair[:len(pair) - 30])
        # 100,000 members.
        with zipfile.ZipFile(path('many.zip'), 'w', zipfile.ZIP_STORED) as z:
            for index in range(100000): z.writestr('m%d' % index, b'')
        """
        let python = try #require(Locations.tool("python3"))
        let still = Locations.samples.appendingPathComponent("camera-pair.jpg").path, movie = Locations.samples.appendingPathComponent("camera-pair.mov").path
        let result = try ProcessResult.run(python, ["-c", script, folder.path, still, movie], timeout: 300)
        guard result.status == 0 else { throw FixtureError(message: "the archives were not made: \(result.stderr)") }
        return folder
    }

    func read(_ name: String) throws -> Result<ZipArchive, ParseError> {
        let url = try Self.archives.get().appendingPathComponent(name)
        let source = try FileSource(path: url.path)
        do { return .success(try ZipArchive(source: source, path: url.path)) } catch let error as ParseError { return .failure(error) }
    }

    @Test("stored members are found where they are: their bytes are the files', named as stored; zip64 fields read the same")
    func storedPair() throws {
        let still = try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.jpg"))
        let movie = try Data(contentsOf: Locations.samples.appendingPathComponent("camera-pair.mov"))
        for (name, names, zip64) in [("pair.livp", ["IMG_0001.JPG.jpeg", "IMG_0001.JPG.mov"], false), ("zip64.livp", ["IMG_0002.HEIC", "IMG_0002.MOV"], false),
                                     ("zip64-records.livp", ["IMG_0003.HEIC", "IMG_0003.MOV"], true)] {
            let archive = try read(name).get()
            #expect(archive.members.map(\.name) == names && archive.zip64 == zip64)
            let source = try FileSource(path: try Self.archives.get().appendingPathComponent(name).path)
            for (member, expected) in zip(archive.members, [still, movie]) {
                #expect(member.readable)
                #expect(Data(try source.read(at: member.data.lowerBound, count: Int(member.data.count))) == expected, "\(name): \(member.name)")
            }
        }
    }

    @Test("a deflated member (a 1 GB bomb) is listed as compressed and not readable: nothing is inflated; an encrypted one likewise")
    func notRead() throws {
        let bomb = try read("bomb.livp").get()
        #expect(bomb.members.count == 1 && bomb.members[0].method == 8 && bomb.members[0].uncompressedSize == 1 << 30 && !bomb.members[0].readable)
        #expect(bomb.members[0].compressedSize < 2 << 20)
        let encrypted = try read("encrypted.livp").get()
        #expect(encrypted.members.first?.encrypted == true && encrypted.members.first?.readable == false)
    }

    @Test("hostile archives are refused with what is wrong and where: a 4 GB claim, overlapping members, a directory that disagrees, names that climb, are absolute or hold a NUL, a truncated archive, 100,000 members",
          arguments: [("huge.livp", "past the archive"), ("overlap.livp", "overlap"), ("disagree.livp", "central directory"),
                      ("climb.livp", "climbs out"), ("absolute.livp", "absolute path"), ("nul.livp", "NUL"),
                      ("truncated.livp", "no end-of-central-directory"), ("many.zip", "100000 members"),
                      ("fifty.livp", "zip64 end record's 56 bytes are said to start at byte 0, and the archive holds 50"), ("twice.livp", "both named \"IMG_0004.JPG\"")])
    func refused(_ name: String, _ words: String) throws {
        switch try read(name) {
        case .success(let archive): Issue.record("\(name) was read: \(archive.members.map(\.name))")
        case .failure(let error): #expect(error.description.contains(words), "\(name): \(error)")
        }
    }
}
