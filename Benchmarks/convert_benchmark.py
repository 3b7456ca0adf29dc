#!/usr/bin/env python3
"""Convert time per item against the I/O floor of the bytes it copies, next to an ExifTool +
ffmpeg pipeline doing the same work (as far as those tools can).

Usage: python3 Benchmarks/convert_benchmark.py [--copies 20] [--work DIR] [--runs 3] [--binary BIN]

Inputs come from ../shared/samples: a 4 MB Pixel motion photo (JPEG) and a 4 MB Samsung HEIC
motion photo for --to live-photo, the iPhone 6s pair (train.jpg + train.mov) and an iPhone 15
HEIC pair for --to motion-photo. Each is copied --copies times under distinct names into one
folder, and for each direction and input the best of --runs is measured for:
- lpcheck convert DIR --to ... --output OUT (release build);
- the floor: reading every input byte and writing every output byte once, with an fsync per
  output file as lpcheck does (a Python loop of os.read/os.write, 1 MiB blocks);
- the pipeline: motion photo → Live Photo: exiftool -b -EmbeddedVideo/-MotionPhotoVideo (extract),
  ffmpeg -c copy -f mov (remux, no re-encoding), exiftool -trailer:all= -XMP-GCamera:all= -o
  (the still); Live Photo → motion photo: ffmpeg -map 0:v -c copy -f mp4 (remux), cat, exiftool
  writing the GCamera fields. Neither writes what only lpcheck can (the movie's identifier and
  still-image-time track, the directory with exact lengths), so it is a lower bound for them.
Prints a Markdown table.
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(os.path.dirname(ROOT), "shared", "samples")

INPUTS = [
    ("live-photo", "Pixel JPEG", ["googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"]),
    ("live-photo", "Samsung HEIC", ["Bai-Mirror__pyheic_struct/samsung.heic"]),
    ("motion-photo", "iPhone 6s JPEG pair", ["LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"]),
    ("motion-photo", "iPhone 15 HEIC pair", ["gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def best(fn, prepare, runs):
    times = []
    for _ in range(runs):
        prepare()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def floor(pairs):
    """Reads each input range and writes each output once, fsyncing every output."""
    for sources, target in pairs:
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for source in sources:
            fd = os.open(source, os.O_RDONLY)
            while True:
                block = os.read(fd, 1 << 20)
                if not block:
                    break
                os.write(out, block)
            os.close(fd)
        os.fsync(out)
        os.close(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--work", default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default=None)
    args = parser.parse_args()
    lpcheck = args.binary
    if not lpcheck:
        run(["swift", "build", "-c", "release", "--product", "lpcheck"], cwd=ROOT)
        lpcheck = os.path.join(run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT).stdout.decode().strip(), "lpcheck")
    work = args.work or tempfile.mkdtemp(prefix="lpcheck-convert-bench-")
    print("| direction | input | items | MB in | lpcheck (s) | per item (ms) | floor (s) | × floor | ExifTool + ffmpeg (s) | × faster |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for direction, label, files in INPUTS:
        paths = [os.path.join(SAMPLES, f) for f in files]
        if not all(os.path.exists(p) for p in paths):
            continue
        folder = os.path.join(work, label.replace(" ", "-"))
        shutil.rmtree(folder, ignore_errors=True)
        inputs = os.path.join(folder, "in")
        os.makedirs(inputs)
        items = []
        for copy in range(args.copies):
            names = []
            for path in paths:
                base, ext = os.path.splitext(os.path.basename(path))
                if base.upper().endswith(".MP"):
                    base, ext = base[:-3], ".MP" + ext
                name = os.path.join(inputs, f"{base}_{copy:03d}{ext}")
                shutil.copyfile(path, name)
                names.append(name)
            items.append(names)
        size = sum(os.path.getsize(p) for item in items for p in item)
        out = os.path.join(folder, "out")

        def reset():
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)

        convert = best(lambda: run([lpcheck, "convert", inputs, "--to", direction, "--output", out, "--force", "--no-progress"]), reset, args.runs)
        # The floor copies what lpcheck's outputs hold: the input bytes once each.
        targets = [(item, os.path.join(out, f"floor-{index}")) for index, item in enumerate(items)]
        io_floor = best(lambda: floor(targets), reset, args.runs)

        def pipeline():
            for index, item in enumerate(items):
                if direction == "live-photo":
                    source = item[0]
                    video = os.path.join(out, f"{index}.mp4")
                    tag = "-MotionPhotoVideo" if source.lower().endswith(".heic") else "-EmbeddedVideo"
                    with open(video, "wb") as handle:
                        subprocess.run(["exiftool", "-m", "-ee", "-b", tag, source], stdout=handle, check=True)
                    run(["ffmpeg", "-v", "error", "-y", "-i", video, "-map", "0", "-c", "copy", "-f", "mov", os.path.join(out, f"{index}.MOV")])
                    still = os.path.join(out, f"{index}" + os.path.splitext(source)[1])
                    run(["exiftool", "-m", "-q", "-trailer:all=", "-XMP-GCamera:all=", "-o", still, source])
                else:
                    still, movie = item
                    video = os.path.join(out, f"{index}.mp4")
                    run(["ffmpeg", "-v", "error", "-y", "-i", movie, "-map", "0:v", "-c", "copy", "-f", "mp4", video])
                    target = os.path.join(out, f"{index}.MP" + os.path.splitext(still)[1])
                    run(["exiftool", "-m", "-q", "-XMP-GCamera:MotionPhoto=1", "-XMP-GCamera:MotionPhotoVersion=1",
                         "-XMP-GCamera:MotionPhotoPresentationTimestampUs=0", "-o", target, still])
                    with open(target, "ab") as handle, open(video, "rb") as data:
                        shutil.copyfileobj(data, handle)

        tools = best(pipeline, reset, args.runs)
        n = len(items)
        print(f"| {direction} | {label} | {n} | {size / 1e6:.0f} | {convert:.3f} | {1000 * convert / n:.1f} | {io_floor:.3f} | {convert / io_floor:.1f} | {tools:.2f} | {tools / convert:.0f} |")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
