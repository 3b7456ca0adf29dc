#!/usr/bin/env python3
"""Generates lpcheck's own small sample files.

ffmpeg makes the media (a one-second H.264 clip and a JPEG frame of it); this script then
writes the Live Photo markers byte by byte, documented below, so the samples do not depend on
lpcheck's own writer. Run from anywhere: `python3 Samples/generate.py` (needs ffmpeg).

Markers written (see the README's "What a Live Photo is"):
- still: an APP1 Exif segment right after SOI holding a big-endian TIFF with IFD0 (Make, Model,
  Software, ExifIFD pointer), an Exif IFD with the MakerNote (tag 0x927C, UNDEFINED), and in it
  the Apple MakerNote: "Apple iOS\\0", version 0x0001, "MM", then an IFD whose value offsets count
  from the MakerNote's first byte: 0x0001 MakerNoteVersion (SLONG 14), 0x0011 content identifier
  (ASCII), 0x0017 LivePhotoVideoIndex (SLONG).
- movie: ffmpeg writes `moov` after `mdat`; the old `moov` is cut off and replaced by an `mdat`
  holding the one timed-metadata sample followed by a new `moov` with the original boxes, a
  timed-metadata track (sample entry `mebx`, key `mdta`/`com.apple.quicktime.still-image-time`,
  `dtyp` 0/65 = signed 8-bit, `tref/cdsc` to the video track) and `moov/meta` (`hdlr` mdta,
  `keys`, `ilst`) with `com.apple.quicktime.content.identifier`. Existing chunk offsets do not
  move because every new byte goes after them.
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def children(data):
    """Splits a run of boxes into (type, whole box bytes)."""
    out, pos = [], 0
    while pos + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if size == 0:
            size = len(data) - pos
        out.append((kind, data[pos:pos + size]))
        pos += size
    return out


# --- still -------------------------------------------------------------------------------

def ifd(entries, start, tail_start):
    """A big-endian IFD at TIFF offset `start`; values over 4 bytes go after it (`tail_start`)."""
    head = struct.pack(">H", len(entries))
    tail = b""
    for tag, kind, count, value in sorted(entries):
        if len(value) <= 4:
            head += struct.pack(">HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            head += struct.pack(">HHII", tag, kind, count, tail_start + len(tail))
            tail += value + (b"\0" if len(value) % 2 else b"")
    return head + struct.pack(">I", 0), tail


def apple_maker_note(identifier):
    entries = [(0x0001, 9, 1, struct.pack(">i", 14))]
    if identifier is not None:
        text = identifier.encode() + b"\0"
        entries.append((0x0011, 2, len(text), text))
    entries.append((0x0017, 9, 1, struct.pack(">i", 5000)))
    header = b"Apple iOS\0" + struct.pack(">H", 1) + b"MM"
    table_size = 2 + 12 * len(entries) + 4
    table, tail = ifd(entries, len(header), len(header) + table_size)
    return header + table + tail


def exif_segment(identifier, make=b"Apple"):
    note = apple_maker_note(identifier)
    ifd0_entries = lambda exif_at: [
        (0x010F, 2, len(make) + 1, make + b"\0"),
        (0x0110, 2, 15, b"lpcheck sample\0"),
        (0x0131, 2, 5, b"17.0\0"),
        (0x8769, 4, 1, struct.pack(">I", exif_at)),
    ]
    ifd0_size = 2 + 12 * 4 + 4
    ifd0, tail0 = ifd(ifd0_entries(0), 8, 8 + ifd0_size)
    exif_at = 8 + len(ifd0) + len(tail0)
    ifd0, tail0 = ifd(ifd0_entries(exif_at), 8, 8 + ifd0_size)
    exif_entries = [(0x9000, 7, 4, b"0232"), (0x927C, 7, len(note), note)]
    exif, tail1 = ifd(exif_entries, exif_at, exif_at + 2 + 12 * len(exif_entries) + 4)
    tiff = b"MM\0*" + struct.pack(">I", 8) + ifd0 + tail0 + exif + tail1
    payload = b"Exif\0\0" + tiff
    return b"\xFF\xE1" + struct.pack(">H", len(payload) + 2) + payload


def write_still(jpeg, path, identifier, make=b"Apple"):
    assert jpeg[:2] == b"\xFF\xD8"
    with open(path, "wb") as out:
        out.write(b"\xFF\xD8" + exif_segment(identifier, make) + jpeg[2:])


# --- movie -------------------------------------------------------------------------------

def parse_movie(data):
    top = children(data)
    moov = next(b for k, b in top if k == b"moov")
    assert data.endswith(moov), "ffmpeg was expected to write moov last"
    return data[: len(data) - len(moov)], children(moov[8:])


def mvhd_info(moov_children):
    mvhd = next(b for k, b in moov_children if k == b"mvhd")
    timescale, duration = struct.unpack(">II", mvhd[20:28])
    next_track = struct.unpack(">I", mvhd[-4:])[0]
    return timescale, duration, next_track


def video_track_info(moov_children):
    for kind, trak in moov_children:
        if kind != b"trak":
            continue
        raw = trak
        if b"vide" not in raw[:400]:
            continue
        track_id = struct.unpack(">I", raw[raw.find(b"tkhd") + 16: raw.find(b"tkhd") + 20])[0]
        at = raw.find(b"mdhd")
        timescale = struct.unpack(">I", raw[at + 16: at + 20])[0]
        at = raw.find(b"stts")
        count = struct.unpack(">I", raw[at + 8: at + 12])[0]
        entries = [struct.unpack(">II", raw[at + 12 + 8 * i: at + 20 + 8 * i]) for i in range(count)]
        return track_id, timescale, entries
    raise SystemExit("no video track")


def still_image_time_track(track_id, video_id, movie_scale, movie_duration, moment, sample_offset, value, duration_ticks, edit):
    """A timed-metadata track with one still-image-time sample (media timescale = movie timescale)."""
    tkhd = full_box(b"tkhd", 0, 0xF, struct.pack(">IIIII", 0, 0, track_id, 0, movie_duration) + bytes(8)
                    + struct.pack(">hhhH", 0, 0, 0, 0) + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
                    + struct.pack(">II", 0, 0))
    parts = [tkhd]
    if edit:
        # An empty edit up to the moment, then one tick of media time 0: how cameras place it.
        parts.append(box(b"edts", full_box(b"elst", 0, 0, struct.pack(">I", 2)
                                           + struct.pack(">IiI", moment, -1, 0x10000)
                                           + struct.pack(">IiI", duration_ticks, 0, 0x10000))))
    parts.append(box(b"tref", box(b"cdsc", struct.pack(">I", video_id))))
    mdhd = full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, movie_scale, duration_ticks, 0x55C4, 0))
    name = b"Core Media Metadata"
    hdlr = full_box(b"hdlr", 0, 0, b"mhlrmetaappl" + bytes(8) + bytes([len(name)]) + name)
    gmhd = box(b"gmhd", full_box(b"gmin", 0, 0, struct.pack(">HHHHhH", 0x40, 0x8000, 0x8000, 0x8000, 0, 0)))
    dname = b"Core Media Data Handler"
    dhlr = full_box(b"hdlr", 0, 0, b"dhlralisappl" + bytes(8) + bytes([len(dname)]) + dname)
    dinf = box(b"dinf", full_box(b"dref", 0, 0, struct.pack(">I", 1) + full_box(b"alis", 0, 1, b"")))
    key = box(struct.pack(">I", 1), box(b"keyd", b"mdta" + b"com.apple.quicktime.still-image-time")
              + box(b"dtyp", struct.pack(">II", 0, 65)))
    mebx = box(b"mebx", bytes(6) + struct.pack(">H", 1) + box(b"keys", key))
    stbl = box(b"stbl",
               full_box(b"stsd", 0, 0, struct.pack(">I", 1) + mebx)
               + full_box(b"stts", 0, 0, struct.pack(">III", 1, 1, duration_ticks))
               + full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, 1, 1))
               + full_box(b"stsz", 0, 0, struct.pack(">II", 9, 1))
               + full_box(b"stco", 0, 0, struct.pack(">II", 1, sample_offset)))
    minf = box(b"minf", gmhd + dhlr + dinf + stbl)
    parts.append(box(b"mdia", mdhd + hdlr + minf))
    return box(b"trak", b"".join(parts))


def movie_meta(identifier):
    keys = [b"com.apple.quicktime.content.identifier", b"com.apple.quicktime.make"]
    values = [identifier.encode(), b"Apple"]
    keys_box = full_box(b"keys", 0, 0, struct.pack(">I", len(keys)) + b"".join(struct.pack(">I", 8 + len(k)) + b"mdta" + k for k in keys))
    items = b"".join(box(struct.pack(">I", i + 1), box(b"data", struct.pack(">II", 1, 0) + v)) for i, v in enumerate(values))
    hdlr = full_box(b"hdlr", 0, 0, bytes(4) + b"mdta" + bytes(12) + b"\0")
    return box(b"meta", hdlr + keys_box + box(b"ilst", items))


def write_movie(original, path, identifier, value=-1, software=False):
    head, moov_children = parse_movie(original)
    movie_scale, movie_duration, next_track = mvhd_info(moov_children)
    video_id, video_scale, stts = video_track_info(moov_children)
    frames = [delta for count, delta in stts for _ in range(count)]
    middle = len(frames) // 2
    moment_video = sum(frames[:middle])
    moment = moment_video * movie_scale // video_scale
    frame_ticks = max(1, frames[middle] * movie_scale // video_scale)
    sample = struct.pack(">I4sb", 9, struct.pack(">I", 1), value)
    sample_mdat = box(b"mdat", sample)
    sample_offset = len(head) + 8
    if software:
        # What software often writes: the sample at media time 0 with one frame's duration, no edit list.
        track = still_image_time_track(next_track, video_id, movie_scale, movie_duration, 0, sample_offset, value, frame_ticks, edit=False)
    else:
        track = still_image_time_track(next_track, video_id, movie_scale, movie_duration, moment, sample_offset, value, 1, edit=True)
    rebuilt = []
    for kind, raw in moov_children:
        if kind == b"mvhd":
            raw = raw[:-4] + struct.pack(">I", next_track + 1)
        rebuilt.append(raw)
    parts = rebuilt + [track]
    if identifier is not None:
        parts.append(movie_meta(identifier))
    moov = box(b"moov", b"".join(parts))
    with open(path, "wb") as out:
        out.write(head + sample_mdat + moov)


# --- broken files, each named after its defect ---------------------------------------------

def find_box(data, kind, start=0):
    at = data.find(kind, start)
    assert at >= 4, kind
    return at - 4


def write_corrupt(still, movie, folder, identifier, broken_identifier):
    """Small broken files derived from our own samples; Tests/ expects a clear error for each.
    They carry an identifier of their own, so that `lpcheck Samples/` never takes the good
    camera pair for one sharing its identifier with broken copies."""
    os.makedirs(folder, exist_ok=True)
    still = still.replace(identifier.encode(), broken_identifier.encode())
    movie = movie.replace(identifier.encode(), broken_identifier.encode())
    cases = {}
    moov = find_box(movie, b"moov")
    # A box whose size is smaller than its own header.
    cases["box-size-below-header.mov"] = movie[:moov] + struct.pack(">I", 4) + movie[moov + 4:]
    # moov claims more bytes than the file has.
    cases["moov-past-eof.mov"] = movie[:moov] + struct.pack(">I", len(movie)) + movie[moov + 4:]
    # A child (tkhd) that runs past its parent.
    tkhd = find_box(movie, b"tkhd", moov)
    cases["tkhd-past-parent.mov"] = movie[:tkhd] + struct.pack(">I", 0x7FFF0000) + movie[tkhd + 4:]
    # stsz claims four billion entries.
    stsz = find_box(movie, b"stsz", moov)
    cases["stsz-count-huge.mov"] = movie[:stsz + 16] + struct.pack(">I", 0xFFFFFFF0) + movie[stsz + 20:]
    # stco points the timed sample past the end of the file.
    last_stco = movie.rfind(b"stco") - 4
    cases["timed-sample-past-eof.mov"] = movie[:last_stco + 16] + struct.pack(">I", 0x7FFFFFF0) + movie[last_stco + 20:]
    # A 64-bit box size that does not fit a signed 64-bit offset.
    cases["box-size-64bit-overflow.mov"] = movie[:moov] + struct.pack(">I4sQ", 1, b"moov", 0xFFFFFFFFFFFFFFF0) + movie[moov + 8:]
    # JPEG: the Exif segment's length runs past the end of the file.
    cases["exif-segment-past-eof.jpg"] = still[:4] + struct.pack(">H", 0xFFF0) + still[6:64]
    # JPEG: no SOI marker.
    cases["jpeg-without-soi.jpg"] = b"\x00\x00" + still[2:]
    # JPEG: the MakerNote's identifier points outside the MakerNote.
    note = still.find(b"Apple iOS")
    ident_entry = still.find(struct.pack(">HHI", 0x0011, 2, 37), note)
    cases["makernote-offset-past-end.jpg"] = still[:ident_entry + 8] + struct.pack(">I", 0xFFFF) + still[ident_entry + 12:]
    # JPEG: the image data is cut short (no EOI).
    cases["jpeg-truncated-scan.jpg"] = still[: len(still) - 200]
    for name, data in cases.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def main():
    with tempfile.TemporaryDirectory() as work:
        clip = os.path.join(work, "clip.mov")
        frame = os.path.join(work, "frame.jpg")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-t", "1", "-c:v", "libx264",
               "-pix_fmt", "yuv420p", "-preset", "veryfast", "-crf", "35", "-g", "30", "-bf", "0",
               "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact", clip)
        ffmpeg("-ss", "0.5", "-i", clip, "-frames:v", "1", "-q:v", "8", "-map_metadata", "-1",
               "-fflags", "+bitexact", "-flags:v", "+bitexact", frame)
        original = open(clip, "rb").read()
        jpeg = open(frame, "rb").read()

    camera_id = "8E2F3C61-6A1D-4B7E-9F0C-2D5A7B9C1E34"
    software_id = "1B6C9D2E-3F4A-4C5B-8D7E-9F0A1B2C3D4E"
    write_still(jpeg, os.path.join(HERE, "camera-pair.jpg"), camera_id)
    write_movie(original, os.path.join(HERE, "camera-pair.mov"), camera_id)
    write_still(jpeg, os.path.join(HERE, "software-pair.jpg"), software_id)
    write_movie(original, os.path.join(HERE, "software-pair.mov"), software_id, value=0, software=True)
    # Hostile metadata for report escaping tests: markup in the Make tag and the identifier.
    write_still(jpeg, os.path.join(HERE, "hostile-metadata.jpg"), "<img src=x onerror=alert(1)>",
                make=b"<script>document.title='pwned'</script>")
    write_corrupt(open(os.path.join(HERE, "camera-pair.jpg"), "rb").read(), open(os.path.join(HERE, "camera-pair.mov"), "rb").read(),
                  os.path.join(HERE, "corrupt"), camera_id, "0BAD5A3E-C0DE-4B7E-9F0C-2D5A7B9C1E34")
    with open(os.path.join(HERE, "plain-frame.jpg"), "wb") as out:
        out.write(jpeg)
    with open(os.path.join(HERE, "plain-clip.mov"), "wb") as out:
        out.write(original)
    print("wrote", ", ".join(sorted(n for n in os.listdir(HERE) if n.endswith((".jpg", ".mov")))))


if __name__ == "__main__":
    sys.exit(main())
