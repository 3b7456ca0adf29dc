import Foundation
import LivePhotoTestSupport
import Testing

/// The crafted inputs of issue 47 (dependable edges), made by the tests themselves: Python's
/// struct and zipfile write the archives, GIFs and patched copies of our own camera movie;
/// ffmpeg's lavfi sources make the movies that need encoding. Each crafted copy of the camera
/// movie gets an identifier of its own, so that none pairs with or contests a camera pair.
enum HostileInputs {
    /// Files written by `script`, each named after its defect.
    static let crafted = [
        "zip64-50-bytes.livp", "IMG_9999.JPG", "gif-6000-square-10000-frames.gif", "gif-0x0.gif", "gif-padded-past-limit.gif",
        "tables-description-index-0.mov", "tables-description-index-99.mov", "tables-stsd-without-entry.mov", "tables-avcC-garbage.mov",
        "tables-stts-40-stsz-30.mov", "matrix-33-degrees.mov", "member-named-twice.livp", "no-frame-shown.mov",
    ]
    /// The movies whose tables contradict each other, and the words check's finding holds.
    static let brokenTables: [(name: String, words: String)] = [
        ("tables-description-index-0.mov", "names sample description 0"), ("tables-description-index-99.mov", "names sample description 99"),
        ("tables-stsd-without-entry.mov", "its stsd describes none"), ("tables-avcC-garbage.mov", "avcC does not parse"),
        ("tables-stts-40-stsz-30.mov", "stts counts 40 samples, stsz holds 30"),
    ]

    static let script = """
    import io, math, os, struct, sys, warnings, zipfile
    out, samples = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    camera_mov = open(os.path.join(samples, 'camera-pair.mov'), 'rb').read()
    camera_jpg = open(os.path.join(samples, 'camera-pair.jpg'), 'rb').read()
    IDENT = b'8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34'
    assert IDENT in camera_mov
    def write(name, data): open(os.path.join(out, name), 'wb').write(data)
    def fresh(data, n): return data.replace(IDENT, ('%08X-0000-4000-8000-%012X' % (0x47000000 + n, n)).encode())
    zip50 = b'PK\\x03\\x04' + bytes(4) + struct.pack('<IIQI', 0x07064b50, 0, 0, 1) + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0)
    assert len(zip50) == 50
    write('zip64-50-bytes.livp', zip50)
    write('IMG_9999.JPG', zip50)
    frame = bytes([0x21, 0xF9, 4, 0x00, 1, 0, 0, 0]) + bytes([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]) + bytes([2, 2, 0x44, 0x01, 0])
    screen = lambda w, h: b'GIF89a' + struct.pack('<HH', w, h) + bytes([0x80, 0, 0]) + bytes([0, 0, 0, 255, 255, 255])
    write('gif-6000-square-10000-frames.gif', screen(6000, 6000) + frame * 10000 + b';')
    empty = bytes([0x21, 0xF9, 4, 0x00, 1, 0, 0, 0]) + bytes([0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + bytes([2, 2, 0x44, 0x01, 0])
    write('gif-0x0.gif', screen(0, 0) + empty + b';')
    write('gif-padded-past-limit.gif', screen(6325, 6324) + frame * 2 + b';')
    def boxes(data, start, end):
        at = start
        while at + 8 <= end:
            size, kind = struct.unpack('>I4s', data[at:at + 8])
            if size == 1: size = struct.unpack('>Q', data[at + 8:at + 16])[0]; head = 16
            else: head = 8
            if size == 0: size = end - at
            yield kind.decode('latin1'), at + head, at + size
            at += size
    def find(data, path):
        start, end = 0, len(data)
        for kind in path:
            for k, body, stop in boxes(data, start, end):
                if k == kind: start, end = body, stop; break
            else: raise SystemExit('no ' + kind)
        return start, end
    video = ['moov', 'trak', 'mdia', 'minf', 'stbl']
    def patched(name, n, fn):
        data = bytearray(camera_mov); fn(data); write(name, fresh(bytes(data), n))
    def index(value):
        def fn(data):
            body, end = find(data, video + ['stsc']); data[body + 16:body + 20] = struct.pack('>I', value)
        return fn
    patched('tables-description-index-0.mov', 1, index(0))
    patched('tables-description-index-99.mov', 2, index(99))
    def no_entry(data):
        body, end = find(data, video + ['stsd']); data[body + 4:body + 8] = struct.pack('>I', 0)
    patched('tables-stsd-without-entry.mov', 3, no_entry)
    def garbage(data):
        body, end = find(data, video + ['stsd']); at = data.find(b'avcC', body, end)
        size = struct.unpack('>I', data[at - 4:at])[0]; data[at + 4:at - 4 + size] = bytes([0xAB]) * (size - 8)
    patched('tables-avcC-garbage.mov', 4, garbage)
    def more(data):
        body, end = find(data, video + ['stts']); count = struct.unpack('>I', data[body + 8:body + 12])[0]
        assert count == 30
        data[body + 8:body + 12] = struct.pack('>I', count + 10)
    patched('tables-stts-40-stsz-30.mov', 5, more)
    def turned(data):
        body, end = find(data, ['moov', 'trak', 'tkhd'])
        at = body + (4 + 4 + 4 + 4 + 4 + 4 if data[body] == 0 else 4 + 8 + 8 + 4 + 4 + 8) + 8 + 8
        a, b = int(math.cos(math.radians(33)) * 65536), int(math.sin(math.radians(33)) * 65536)
        data[at:at + 36] = struct.pack('>9i', a, b, 0, -b, a, 0, 0, 0, 0x40000000)
    patched('matrix-33-degrees.mov', 6, turned)
    def unshown(data):
        body, end = find(data, ['moov', 'trak', 'edts', 'elst']); assert struct.unpack('>I', data[body + 4:body + 8])[0] == 1
        data[body + 12:body + 16] = struct.pack('>i', -1)
    patched('no-frame-shown.mov', 8, unshown)
    buffer = io.BytesIO()
    warnings.simplefilter('ignore')
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_STORED) as z:
        for member, data in (('IMG_0002.JPG', camera_jpg), ('IMG_0002.MOV', fresh(camera_mov, 7)), ('IMG_0002.JPG', camera_jpg)): z.writestr(member, data)
    write('member-named-twice.livp', buffer.getvalue())
    """

    /// Writes every crafted file into `folder`.
    static func make(in folder: URL) throws {
        let python = try #require(Locations.tool("python3"))
        let made = try ProcessResult.run(python, ["-c", script, folder.path, Locations.samples.path], timeout: 120)
        guard made.status == 0 else { throw FixtureError(message: "the hostile inputs were not made: \(made.stderr)") }
    }

    /// A fresh folder of the crafted files alone.
    static func folder(_ scratch: URL, named name: String = "hostile", only: [String]? = nil) throws -> URL {
        let all = scratch.appendingPathComponent("all-\(name)")
        try make(in: all)
        let folder = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in only ?? crafted { try FileManager.default.copyItem(at: all.appendingPathComponent(file), to: folder.appendingPathComponent(file)) }
        try FileManager.default.removeItem(at: all)
        return folder
    }

    /// An lpcheck run measured by getrusage (itself and the codec helper it waited for).
    static func measured(_ arguments: [String], in folder: URL, environment: [String: String] = [:], timeout: Double = 120) throws -> (status: Int, stderr: String, kilobytes: Int, cpu: Double) {
        let binary = try #require(Locations.lpcheckBinary).path
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try ProcessResult.measured("/usr/bin/env", assignments + [binary] + arguments, in: folder, timeout: timeout)
    }

    /// Our camera pair copied into `folder` (made if missing); returns `folder`.
    @discardableResult
    static func cameraPair(into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["camera-pair.jpg", "camera-pair.mov"] {
            try FileManager.default.copyItem(at: Locations.samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// The files left in `folder` (none when it does not exist).
    static func left(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}
