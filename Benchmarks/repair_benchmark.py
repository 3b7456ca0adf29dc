#!/usr/bin/env python3
"""Repair and make time against movie size, next to ExifTool writing the still's identifier.

Usage: python3 Benchmarks/repair_benchmark.py [--sizes 10,100,1000] [--work DIR] [--runs 3]

Builds lpcheck (release), makes H.264 movies of about 10 MB, 100 MB and 1 GB with ffmpeg (a
high-bitrate clip, then looped with -c copy), and measures, for each size, the best of --runs:
- `lpcheck make FRAME MOVIE --output DIR` (MP4 in, Live Photo pair out);
- `lpcheck repair --no-backup DIR` on a pair whose movie identifier was changed (same length);
- `lpcheck repair --no-backup DIR` on a pair whose movie lost its still-image-time track (ffmpeg remux);
- `exiftool -overwrite_original -Apple:MediaGroupUUID=... STILL` (ExifTool 12.57 writes the still's
  identifier into an existing Apple MakerNote; it cannot write the movie's Keys identifier or add
  a timed-metadata track).
It prints a Markdown table: seconds, and the bytes lpcheck itself wrote ("new bytes"; the
unchanged ranges are copied by the kernel with copy_file_range).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def best(fn, runs):
    times = []
    out = None
    for _ in range(runs):
        prepare = getattr(fn, "prepare", None)
        if prepare:
            prepare()
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def new_bytes(output, name):
    found = [int(m.group(1)) for m in re.finditer(r"%s[^\n]*?: (\d+) new bytes" % re.escape(name), output)]
    return sum(found)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000", help="movie sizes in MB")
    parser.add_argument("--work", default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    run(["swift", "build", "-c", "release", "--product", "lpcheck"], cwd=ROOT)
    lpcheck = os.path.join(run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT).stdout.strip(), "lpcheck")
    work = args.work or tempfile.mkdtemp(prefix="lpcheck-repair-bench-")
    os.makedirs(work, exist_ok=True)
    clip = os.path.join(work, "clip.mp4")
    if not os.path.exists(clip):
        run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "2",
             "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "40M", "-pix_fmt", "yuv420p", clip])
    frame = os.path.join(work, "frame.jpg")
    run(["ffmpeg", "-v", "error", "-y", "-ss", "1", "-i", clip, "-frames:v", "1", frame])
    clip_mb = os.path.getsize(clip) / 1e6
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        movie = os.path.join(work, f"movie-{size}MB.mp4")
        if not os.path.exists(movie):
            loops = max(0, round(size / clip_mb) - 1)
            run(["ffmpeg", "-v", "error", "-y", "-stream_loop", str(loops), "-i", clip, "-c", "copy", movie])
        real_mb = os.path.getsize(movie) / 1e6

        out_dir = os.path.join(work, f"made-{size}")

        def make():
            shutil.rmtree(out_dir, ignore_errors=True)
            return run([lpcheck, "make", frame, movie, "--output", out_dir, "--frame", "10"]).stdout
        make_time, make_out = best(make, args.runs)
        pair_still = os.path.join(out_dir, "frame.JPG")
        pair_movie = os.path.join(out_dir, "frame.MOV")

        # A pair whose movie identifier differs (same length): repair rewrites moov only.
        broken_dir = os.path.join(work, f"mismatch-{size}")

        def prepare_mismatch():
            shutil.rmtree(broken_dir, ignore_errors=True)
            os.makedirs(broken_dir)
            shutil.copy(pair_still, broken_dir)
            target = os.path.join(broken_dir, "frame.MOV")
            shutil.copy(pair_movie, target)
            with open(target, "r+b") as f:
                data_end = os.path.getsize(target)
                f.seek(max(0, data_end - 65536))
                tail = f.read()
                ident = run(["exiftool", "-s3", "-Keys:ContentIdentifier", target]).stdout.strip().encode()
                at = tail.rfind(ident)
                f.seek(max(0, data_end - 65536) + at)
                f.write(b"00000000-1111-2222-3333-444444444444")

        def repair_mismatch():
            return run([lpcheck, "repair", "--no-backup", broken_dir]).stdout
        repair_mismatch.prepare = prepare_mismatch
        mismatch_time, mismatch_out = best(repair_mismatch, args.runs)

        # A pair whose movie was remuxed by ffmpeg (still-image-time track dropped).
        remux_dir = os.path.join(work, f"remux-{size}")
        remuxed = os.path.join(work, f"remuxed-{size}.MOV")
        if not os.path.exists(remuxed):
            run(["ffmpeg", "-v", "error", "-y", "-i", pair_movie, "-map", "0:v", "-c", "copy", "-movflags", "use_metadata_tags", remuxed])

        def prepare_remux():
            shutil.rmtree(remux_dir, ignore_errors=True)
            os.makedirs(remux_dir)
            shutil.copy(pair_still, remux_dir)
            shutil.copy(remuxed, os.path.join(remux_dir, "frame.MOV"))

        def repair_remux():
            return run([lpcheck, "repair", "--no-backup", "--frame", "10", remux_dir]).stdout
        repair_remux.prepare = prepare_remux
        remux_time, remux_out = best(repair_remux, args.runs)

        still_copy = os.path.join(work, "exiftool-still.jpg")

        def prepare_exiftool():
            shutil.copy(pair_still, still_copy)

        def exiftool_still():
            return run(["exiftool", "-overwrite_original", "-Apple:MediaGroupUUID=55709299-2831-4083-9470-45683C32BB97", still_copy]).stdout
        exiftool_still.prepare = prepare_exiftool
        exif_time, _ = best(exiftool_still, args.runs)

        rows.append((real_mb, make_time, new_bytes(make_out, "frame.MOV"), mismatch_time, new_bytes(mismatch_out, "frame.MOV"),
                     remux_time, new_bytes(remux_out, "frame.MOV"), exif_time))
        shutil.rmtree(broken_dir, ignore_errors=True)
        shutil.rmtree(remux_dir, ignore_errors=True)

    print("| movie | make (s) | make: new bytes | repair identifier (s) | new bytes | repair still-image-time (s) | new bytes | ExifTool still identifier (s) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r[0]:.0f} MB | {r[1]:.3f} | {r[2]} | {r[3]:.3f} | {r[4]} | {r[5]:.3f} | {r[6]} | {r[7]:.3f} |")
    print(f"\n(work folder: {work}; best of {args.runs} runs; machine: {os.cpu_count()} cores)")


if __name__ == "__main__":
    sys.exit(main())
