#!/usr/bin/env python3
"""lpcheck export --as gif against FFmpeg's two-pass recipe, side by side in one run.

For each movie and setting: wall time and peak memory (getrusage of the children: lpcheck and
its codec helper; ffmpeg), the GIF's size, and RGB PSNR against the source's frames scaled with
the same Lanczos filter by ffmpeg: lpcheck's frames against the frame shown at each one's time,
FFmpeg's against the frame shown at its time and, kinder, against whichever source frame is
nearest. Needs numpy; release builds in .build/release.

    python3 Benchmarks/gif_benchmark.py [--runs 3] [--usual] [--binary LPCHECK] MOVIE...

--usual: FFmpeg's usual recipe instead of its defaults (palettegen=stats_mode=diff,
paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle), and lpcheck with each dithering and
palette scope as well as its defaults.
"""
import argparse, json, math, os, shutil, subprocess, tempfile
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measured(command):
    """Wall and CPU seconds and peak resident kilobytes of the command and the children it
    waits for (GNU time's wait4), not of anything this script ran before."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", report.name] + command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, user, system, peak = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(peak)


def rgb_frames(path, vf=None):
    command = ["ffmpeg", "-v", "error", "-i", path] + (["-vf", vf] if vf else []) + ["-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    return subprocess.run(command, capture_output=True, check=True).stdout


def frame_times(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time,pkt_duration_time,duration_time",
                          "-of", "json", path], capture_output=True, text=True, check=True).stdout
    return [float(f["best_effort_timestamp_time"]) for f in json.loads(out)["frames"]]


def size_of(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout
    return [int(v) for v in out.strip().split(",")[:2]]


def psnr(gif, movie, sampled):
    w, h = size_of(gif)
    reference = np.frombuffer(rgb_frames(movie, f"scale={w}:{h}:flags=lanczos"), np.uint8).reshape(-1, h, w, 3).astype(np.float64)
    starts = frame_times(movie)
    starts = [t - starts[0] for t in starts]
    frames = np.frombuffer(rgb_frames(gif), np.uint8).reshape(-1, h, w, 3).astype(np.float64)
    times = frame_times(gif)
    slack = 1e-6 if sampled else 0.005
    at_time, nearest = [], []
    for k in range(len(frames)):
        t = times[k] - times[0]
        j = max(i for i in range(len(starts)) if starts[i] <= t + slack)
        at_time.append(((frames[k] - reference[j]) ** 2).mean())
        nearest.append(min(((frames[k] - r) ** 2).mean() for r in reference))
    db = lambda errors: 10 * math.log10(255 ** 2 / (sum(errors) / len(errors)))
    return db(at_time), db(nearest), len(frames)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--usual", action="store_true")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/lpcheck"))
    parser.add_argument("movies", nargs="+")
    args = parser.parse_args()
    lpcheck = args.binary
    work = tempfile.mkdtemp(prefix="gif-benchmark-")
    print("| movie | setting | tool | wall (best of %d) | CPU | peak memory | bytes | frames | PSNR at its time | PSNR nearest |" % args.runs)
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for movie in args.movies:
        name = os.path.splitext(os.path.basename(movie))[0]
        folder = os.path.join(work, name)
        os.makedirs(folder)
        shutil.copy(movie, folder)
        for width, fps in [(320, 10), (480, None)]:
            setting = f"{width} px, " + (f"{fps} fps" if fps else "every frame")
            variants = {"lpcheck": []}
            if args.usual:
                variants = {"lpcheck": [], "lpcheck --dither none": ["--dither", "none"], "lpcheck --dither floyd-steinberg": ["--dither", "floyd-steinberg"],
                            "lpcheck --palette frame": ["--palette", "frame"]}
            runs = {tool: [] for tool in list(variants) + ["FFmpeg"]}
            generate, use = ("palettegen=stats_mode=diff", "paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle") if args.usual else ("palettegen", "paletteuse")
            for run in range(args.runs):
                for number, (tool, extra) in enumerate(variants.items()):
                    out = os.path.join(work, f"out-{name}-{width}-{run}-{number}")
                    ours = [lpcheck, "export", folder, "--as", "gif", "--width", str(width), "--output", out, "--no-progress"] + (["--fps", str(fps)] if fps else []) + extra
                    runs[tool].append((measured(ours), os.path.join(out, name + ".gif")))
                theirs = os.path.join(work, f"ffmpeg-{name}-{width}-{run}.gif")
                chain = (f"fps={fps}," if fps else "") + f"scale={width}:-1:flags=lanczos,split[a][b];[a]{generate}[p];[b][p]{use}"
                runs["FFmpeg"].append((measured(["ffmpeg", "-v", "error", "-y", "-i", movie, "-vf", chain, theirs]), theirs))
            for tool, results in runs.items():
                wall = min(r[0][0] for r in results)
                cpu = min(r[0][1] for r in results)
                peak = max(r[0][2] for r in results)
                path = results[-1][1]
                at_time, nearest, count = psnr(path, movie, sampled=fps is not None)
                print(f"| {name} | {setting} | {tool} | {wall:.2f} s | {cpu:.2f} s | {peak / 1024:.0f} MB | {os.path.getsize(path):,} | {count} | {at_time:.2f} dB | {nearest:.2f} dB |")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
