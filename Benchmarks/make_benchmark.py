#!/usr/bin/env python3
"""make CLIP against the pipelines people use, side by side in one run.

    python3 Benchmarks/make_benchmark.py [--runs N] [--binary .build/release/lpcheck]

Each pair of commands runs alternately, N times each; the table gives the median wall time and
the peak resident memory of the whole command (getrusage of the children: for lpcheck, the codec
helper it runs counts too; for a shell pipeline, every program in it). The inputs come from
../shared/samples and one GIF this script makes with Pillow (600 frames, 400x300).
"""
import argparse, os, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(os.path.dirname(ROOT), "shared", "samples")


def measure(command):
    """Wall seconds and peak KiB of one run, measured in a fresh python (its only children are the command's)."""
    probe = ("import resource, subprocess, sys, time\n"
             "start = time.monotonic()\n"
             "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
             "wall = time.monotonic() - start\n"
             "print(code, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", probe] + command, capture_output=True, text=True, check=True).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"failed ({out[0]}): {' '.join(command)}")
    return float(out[1]), int(out[2])


def compare(name, ours, theirs, runs):
    results = {"lpcheck": [], "other": []}
    for _ in range(runs):
        for label, command in (("lpcheck", ours), ("other", theirs)):
            results[label].append(measure(command))
    row = []
    for label in ("lpcheck", "other"):
        walls = [wall for wall, _ in results[label]]
        peak = max(kib for _, kib in results[label])
        row.append((statistics.median(walls), peak))
    (ours_wall, ours_peak), (their_wall, their_peak) = row
    print(f"| {name} | {ours_wall * 1000:.0f} ms, {ours_peak / 1024:.0f} MB | {their_wall * 1000:.0f} ms, {their_peak / 1024:.0f} MB | {their_wall / ours_wall:.2f}x |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "lpcheck"))
    args = parser.parse_args()
    lpcheck = args.binary
    work = tempfile.mkdtemp(prefix="lpcheck-make-bench-")
    try:
        camera = os.path.join(SAMPLES, "gwy15__Apple-photo-to-UltraHDR-motion-photo", "IMG_3853.MOV")
        camera_still = os.path.join(SAMPLES, "gwy15__Apple-photo-to-UltraHDR-motion-photo", "IMG_3853.HEIC")
        train = os.path.join(SAMPLES, "LycheeOrg__Lychee", "train.mov")
        gif = os.path.join(work, "long.gif")
        from PIL import Image, ImageDraw
        frames = []
        for index in range(600):
            frame = Image.new("P", (400, 300), 0)
            frame.putpalette([255, 255, 255, 200, 30, 30, 30, 120, 200] + [0] * 759)
            draw = ImageDraw.Draw(frame)
            draw.rectangle([index % 380, 10, index % 380 + 20, 290], fill=1)
            draw.ellipse([(index * 3) % 360, 100, (index * 3) % 360 + 40, 140], fill=2)
            frames.append(frame)
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=40, loop=0)
        exiftool_tags = ["-Make=Apple", "-Model=iPhone", "-DateTimeOriginal=2021:04:10 11:43:59", "-OffsetTimeOriginal=+02:00",
                         "-GPSLatitude=48.8", "-GPSLatitudeRef=N", "-GPSLongitude=2.3", "-GPSLongitudeRef=E"]
        jpeg = os.path.join(work, "frame.jpg")
        print("| flow | lpcheck make | other pipeline | other / lpcheck |")
        print("| --- | --- | --- | --- |")
        compare("lossless HEVC still: `make IMG_3853.MOV --lossless-still` vs `make IMG_3853.HEIC IMG_3853.MOV`",
                [lpcheck, "make", camera, "-o", os.path.join(work, "a"), "--lossless-still", "--force"],
                [lpcheck, "make", camera_still, camera, "-o", os.path.join(work, "b"), "--force"], args.runs)
        compare("decoded JPEG still (train.mov at 0.7 s) vs `ffmpeg -ss 0.7 -frames:v 1 -q:v 2` + ExifTool tags",
                [lpcheck, "make", train, "-o", os.path.join(work, "c"), "--still", "jpeg", "--time", "0.7", "--force"],
                ["sh", "-c", f"ffmpeg -v error -ss 0.7 -i '{train}' -frames:v 1 -q:v 2 -y '{jpeg}' && exiftool -q -overwrite_original "
                 + " ".join(f"'{tag}'" for tag in exiftool_tags) + f" '{jpeg}'"], args.runs)
        for name, movie in (("IMG_3853", camera), ("train.mov", train)):
            compare(f"decoded HEIC still, the default ({name} at 0.7 s) vs `ffmpeg -ss 0.7 -frames:v 1 -q:v 2` + ExifTool tags",
                    [lpcheck, "make", movie, "-o", os.path.join(work, "h"), "--time", "0.7", "--force"],
                    ["sh", "-c", f"ffmpeg -v error -ss 0.7 -i '{movie}' -frames:v 1 -q:v 2 -y '{jpeg}' && exiftool -q -overwrite_original "
                     + " ".join(f"'{tag}'" for tag in exiftool_tags) + f" '{jpeg}'"], args.runs)
        # The same output format by the tools people would join for it: FFmpeg's frame as PNG,
        # libheif's heif-enc (x265) at quality 90, ExifTool's tags (Debian: libheif-examples).
        heic = os.path.join(work, "frame.heic")
        if shutil.which("heif-enc"):
            for name, movie in (("IMG_3853", camera), ("train.mov", train)):
                compare(f"decoded HEIC still, the default ({name} at 0.7 s) vs `ffmpeg -ss 0.7` PNG + `heif-enc -q 90` + ExifTool tags",
                        [lpcheck, "make", movie, "-o", os.path.join(work, "h"), "--time", "0.7", "--force"],
                        ["sh", "-c", f"ffmpeg -v error -ss 0.7 -i '{movie}' -frames:v 1 -y '{work}/frame.png' && heif-enc -q 90 '{work}/frame.png' -o '{heic}' >/dev/null"
                         + " && exiftool -q -overwrite_original " + " ".join(f"'{tag}'" for tag in exiftool_tags) + f" '{heic}'"], args.runs)
        else:
            print("| HEIC pipeline rows left out: no heif-enc (Debian: libheif-examples) |")
        compare("GIF (600 frames, 400x300) to a Live Photo vs `ffmpeg -c:v libx264` (2x, CRF 10, no B-frames)",
                [lpcheck, "make", gif, "-o", os.path.join(work, "d"), "--force", "--no-progress"],
                ["ffmpeg", "-v", "error", "-i", gif, "-vf", "scale=iw*2:ih*2:flags=neighbor", "-c:v", "libx264", "-crf", "10", "-preset", "medium",
                 "-bf", "0", "-pix_fmt", "yuv420p", "-y", os.path.join(work, "gif.mov")], args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
