#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from Samples/ and (when present) ../shared/samples.

Media files are reduced to skeletons so the fuzzer spends its time on structure: movies and
HEIFs keep every box but `mdat` (emptied), JPEGs keep their segments up to the start of scan.
MakerNotes, EXIF and XMP blocks are extracted with ExifTool (-b). Usage: make_seeds.py OUTDIR
"""
import os
import shutil
import struct
import base64
import json
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [os.path.join(ROOT, "Samples"), os.path.join(os.path.dirname(ROOT), "shared", "samples")]


def media_files():
    for folder in SOURCES:
        if not os.path.isdir(folder):
            continue
        for base, _, names in os.walk(folder):
            for name in sorted(names):
                if name.lower().endswith((".jpg", ".jpeg", ".heic", ".avif", ".mov", ".mp4")):
                    yield os.path.join(base, name)


def skeleton_boxes(data):
    out, pos = b"", 0
    while pos + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1 and pos + 16 <= len(data):
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
            header = 16
        elif size == 0:
            size = len(data) - pos
        if size < header:
            break
        box = data[pos:pos + size]
        if kind == b"mdat":
            box = struct.pack(">I4s", 8, b"mdat")
        out += box
        pos += size
    return out


def skeleton_jpeg(data):
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        pos += 2 + length
        if marker == 0xDA:
            break
    return data[:pos] + b"\x00" * 16 + b"\xff\xd9"


def png_chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


def png_seed(tiff, xmp):
    """A 1x1 PNG carrying `tiff` in eXIf (the Apple MakerNote inside) and `xmp` in iTXt."""
    seed = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    if tiff:
        seed += png_chunk(b"eXIf", tiff)
    if xmp:
        seed += png_chunk(b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00" + xmp)
    return seed + png_chunk(b"IDAT", zlib.compress(b"\x00\x00")) + png_chunk(b"IEND", b"")


def exiftool_blocks(paths):
    """Each file's MakerNotes, EXIF and XMP blocks, from one ExifTool run over every file (a run
    per file and block started Perl 400 times: 80 s of every fresh test run). `-j -b` gives
    binary values as base64 and text as it is."""
    try:
        result = subprocess.run(["exiftool", "-j", "-b", "-MakerNotes", "-EXIF", "-XMP", *paths],
                                capture_output=True, check=False, timeout=600)
        records = json.loads(result.stdout or b"[]")
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {}

    def raw(value):
        if value is None:
            return b""
        if isinstance(value, str):
            return base64.b64decode(value[len("base64:"):]) if value.startswith("base64:") else value.encode()
        return str(value).encode()

    def blocks(record):
        # The MakerNotes shortcut names its tag by maker (MakerNoteApple, ...).
        maker = next((value for key, value in record.items() if key.startswith("MakerNote")), None)
        return {"MakerNotes": raw(maker), "EXIF": raw(record.get("EXIF")), "XMP": raw(record.get("XMP"))}

    return {record["SourceFile"]: blocks(record) for record in records}


# HostileStructure cases by raw value, each with its count: nested trak, nested moov, many free
# boxes, huge table counts, chunk offsets past the end, largest offsets.
RECIPES = [(0, 10_000), (1, 100_000), (2, 100_000), (3, 0), (4, 1000), (5, 0), (0, 31), (1, 33)]


def main():
    out = sys.argv[1]
    targets = ["movie", "jpeg", "heif", "makerapple", "exif", "xmp", "inspect", "repair", "convert", "records", "configuration", "gif", "hevc", "zip"]
    for target in targets:
        os.makedirs(os.path.join(out, target), exist_ok=True)
    paths = list(media_files())
    tagged = exiftool_blocks(paths)
    for index, path in enumerate(paths):
        data = open(path, "rb").read()
        name = f"{index:03d}-{os.path.basename(path)}"
        is_jpeg = data[:3] == b"\xff\xd8\xff"
        seed = skeleton_jpeg(data) if is_jpeg else skeleton_boxes(data)
        if len(seed) > 1 << 20:
            continue
        kind = "jpeg" if is_jpeg else ("movie" if path.lower().endswith((".mov", ".mp4")) else "heif")
        for target in (kind, "inspect", "repair", "convert"):
            open(os.path.join(out, target, name), "wb").write(seed)
        # Structure recipes (HostileStructure.expand in the writer targets): a small input that
        # grows into deep nesting, many boxes, huge counts and offsets, chunks past the end.
        if kind == "movie":
            for case, count in RECIPES:
                recipe = b"LPHS" + bytes([case]) + count.to_bytes(3, "big") + seed
                for target in ("repair", "convert"):
                    open(os.path.join(out, target, f"{name}.recipe{case}"), "wb").write(recipe)
        # Motion photos for convert: whole when small, else the still's skeleton with the movie's.
        if is_jpeg and (b"MotionPhoto" in data or b"MicroVideo" in data):
            if len(data) <= 1 << 16:
                motion = data
            else:
                start = data.find(b"ftyp", len(seed)) - 4
                motion = seed + (skeleton_boxes(data[start:]) if start > 0 else b"")
            open(os.path.join(out, "convert", name + ".motion.jpg"), "wb").write(motion)
        blocks = {}
        for target, tag in (("makerapple", "MakerNotes"), ("exif", "EXIF"), ("xmp", "XMP"), ("convert", "XMP")):
            block = tagged.get(path, {}).get(tag, b"")
            blocks[target] = block
            if block:
                open(os.path.join(out, target, name), "wb").write(block)
        # PNG stills: the same EXIF (a TIFF, as eXIf holds it) and XMP in a minimal PNG.
        tiff = blocks["exif"][6:] if blocks["exif"].startswith(b"Exif\x00\x00") else blocks["exif"]
        if is_jpeg and (tiff or blocks["xmp"]):
            open(os.path.join(out, "inspect", name + ".png"), "wb").write(png_seed(tiff, blocks["xmp"]))
    records_seeds(os.path.join(out, "records"))
    configuration_seeds(os.path.join(out, "configuration"))
    livp_seeds(os.path.join(out, "inspect"))
    livp_seeds(os.path.join(out, "zip"))
    zip64_seeds(os.path.join(out, "zip"))
    gif_seeds(os.path.join(out, "gif"))
    hevc_seeds(os.path.join(out, "hevc"), paths)
    fragment_seeds(out)


def fragment_seeds(out):
    """Fragmented movies (moov/mvex, samples in moof/traf/trun), made by ffmpeg when it is
    here: explicit base offsets, default-base-is-moof, B-frames (composition offsets), several
    fragments; whole (they are small) and as skeletons."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        return
    import tempfile
    source = ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "1.2"]
    flavours = {
        "frag-explicit.mp4": ["-c:v", "libx264", "-g", "4", "-bf", "0", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov"],
        "frag-moof.mov": ["-c:v", "libx264", "-g", "6", "-bf", "2", "-c:a", "pcm_s16le", "-movflags", "frag_keyframe+empty_moov+default_base_moof"],
        "frag-every.mp4": ["-c:v", "libx264", "-g", "12", "-bf", "2", "-an", "-frag_duration", "200000", "-movflags", "empty_moov+default_base_moof"],
    }
    with tempfile.TemporaryDirectory() as work:
        for name, arguments in flavours.items():
            path = os.path.join(work, name)
            if subprocess.run([ffmpeg, "-v", "error", "-y"] + source + arguments + [path], capture_output=True).returncode != 0:
                continue
            data = open(path, "rb").read()
            for target in ("movie", "inspect", "repair", "convert"):
                open(os.path.join(out, target, name), "wb").write(data)
                open(os.path.join(out, target, name + ".skeleton"), "wb").write(skeleton_boxes(data))
            for case, count in RECIPES:
                for target in ("repair", "convert"):
                    open(os.path.join(out, target, f"{name}.recipe{case}"), "wb").write(b"LPHS" + bytes([case]) + count.to_bytes(3, "big") + data)


def livp_seeds(folder):
    """A .livp as iCloud writes one: a zip of the camera pair's skeletons, stored."""
    import io, zipfile
    pair = [os.path.join(SOURCES[0], name) for name in ("camera-pair.jpg", "camera-pair.mov")]
    if not all(os.path.exists(path) for path in pair):
        return
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("IMG_0001.JPG.jpeg", skeleton_jpeg(open(pair[0], "rb").read()))
        archive.writestr("IMG_0001.JPG.mov", skeleton_boxes(open(pair[1], "rb").read()))
    open(os.path.join(folder, "pair.livp"), "wb").write(buffer.getvalue())


def zip64_seeds(folder):
    """Archives that reach zip64's paths: extended fields on every member (force_zip64), and zip64
    end records with their locator (Python writes them past its limits, lowered here); small
    members, so that cutting and shifting bytes soon reaches the records' own sizes."""
    import io, zipfile
    def archive(name, members, force=False, file_limit=None, size_limit=None):
        saved = (zipfile.ZIP_FILECOUNT_LIMIT, zipfile.ZIP64_LIMIT)
        try:
            if file_limit is not None:
                zipfile.ZIP_FILECOUNT_LIMIT = file_limit
            if size_limit is not None:
                zipfile.ZIP64_LIMIT = size_limit
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
                for member, data in members:
                    with z.open(zipfile.ZipInfo(member), "w", force_zip64=force) as w:
                        w.write(data)
            open(os.path.join(folder, name), "wb").write(buffer.getvalue())
        finally:
            zipfile.ZIP_FILECOUNT_LIMIT, zipfile.ZIP64_LIMIT = saved
    two = [("IMG_0001.JPG", b"\xff\xd8\xff\xd9"), ("IMG_0001.MOV", b"\0\0\0\x08free")]
    archive("extended.zip", two, force=True)
    archive("end-records.zip", two, file_limit=1)
    archive("both.zip", two, force=True, file_limit=1, size_limit=1)
    archive("empty-end-records.zip", [], file_limit=-1)


# A 2x2 GIF of our own: two frames (disposal 2, then one with a transparent index), each the
# LZW codes clear, 0, 1, 1, 0, end (3 bits, then 4 once the table holds 8), then every real GIF
# beside the project under 64 KB.
FRAME = bytes([0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 3, 0x44, 0x02, 0x05, 0])
OWN_GIF = (b"GIF89a" + bytes([2, 0, 2, 0, 0x80, 0, 0]) + bytes([0, 0, 0, 255, 255, 255])
           + bytes([0x21, 0xF9, 4, 0x08, 5, 0, 0, 0]) + FRAME
           + bytes([0x21, 0xF9, 4, 0x01, 5, 0, 0, 0]) + FRAME + b";")


def gif_seeds(folder):
    open(os.path.join(folder, "own.gif"), "wb").write(OWN_GIF)
    gifs = os.path.join(SOURCES[1], "gifs")
    if os.path.isdir(gifs):
        for name in sorted(os.listdir(gifs)):
            path = os.path.join(gifs, name)
            if name.endswith(".gif") and os.path.getsize(path) <= 1 << 16:
                shutil.copyfile(path, os.path.join(folder, name))


# An hvcC of our own (x265, 32x32: VPS, SPS, PPS), then the hvcC of every HEVC movie found.
OWN_HVCC = bytes.fromhex(
    "0101600000009000000000001ef000fcfdf8f800000f03a00001001840010c01ffff016000000300900000030000"
    "03001e959809a10001002842010101600000030090000003000003001ea04208596566b932bc05a0200000030020"
    "0000030321a2000100064401c173d089")


def hevc_seeds(folder, paths):
    open(os.path.join(folder, "own.hvcC"), "wb").write(OWN_HVCC)
    for index, path in enumerate(paths):
        if not path.lower().endswith((".mov", ".mp4")):
            continue
        data = open(path, "rb").read()
        at = data.find(b"hvcC")
        if at >= 4:
            size = int.from_bytes(data[at - 4:at], "big")
            if 8 < size <= 1 << 16:
                open(os.path.join(folder, f"{index:03d}.hvcC"), "wb").write(data[at + 4:at - 4 + size])


def configuration_seeds(folder):
    """.lpcheck.yml files: the README's example, anchors that do not multiply, a small alias bomb,
    nesting in brackets and on a line, contradictions, non-finite numbers."""
    seeds = {
        "example.yml": "rules:\n  identifier-not-canonical: off\n  movie-too-long: warning\nexclude:\n  - \"**/.trash/**\"\n"
                       "settings:\n  maxMovieSeconds: 10\nfailOn: warning\nexpect: live-photo\nprofile: wallpaper\n",
        "anchors.yml": "settings: &s\n  maxMovieSeconds: 4\nexclude: [\"*.tmp\", *s]\n",
        "bomb.yml": "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n",
        "flow.yml": "exclude: " + "[" * 40 + "]" * 40 + "\n",
        "line.yml": "- " * 40 + "x\n",
        "contradiction.yml": "expect: live-photo\nrules:\n  unexpected-item: off\n",
        "numbers.yml": "settings:\n  maxMovieSeconds: .inf\n  frameDurationRatio: .nan\n  wallpaperMaxMovieSeconds: 1e308\n",
    }
    for name, text in seeds.items():
        open(os.path.join(folder, name), "w").write(text)


def records_seeds(folder):
    """Scan records of Samples/ (from a built lpcheck), a few files a seed; the first byte of
    a seed picks the fuzzer's block size."""
    binary = next((b for b in (os.path.join(ROOT, ".build", kind, "lpcheck") for kind in ("release", "debug")) if os.path.exists(b)), None)
    lines = []
    if binary:
        result = subprocess.run([binary, "scan", os.path.join(ROOT, "Samples")], capture_output=True)
        lines = result.stdout.splitlines(keepends=True)
    if len(lines) < 2:
        lines = [b'{"host":"h","roots":["/s"],"schema":1,"tool":"lpcheck","type":"scan","version":"0"}\n',
                 b'{"path":"/s/.hidden","type":"hidden"}\n',
                 b'{"facts":{"bytesRead":1,"contentIdentifier":"A","format":"JPEG","hasAppleMakerNote":true,"kind":"still","path":"/s/a.jpg","size":10,"warnings":[]},"type":"file"}\n']
    header, records = lines[0], lines[1:]
    for index in range(0, len(records), 4):
        seed = header + b"".join(records[index:index + 4])
        if len(seed) < 65000:
            open(os.path.join(folder, "records-%02d" % index), "wb").write(bytes([index % 64]) + seed)


if __name__ == "__main__":
    main()
