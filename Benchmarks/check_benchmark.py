#!/usr/bin/env python3
"""Check speed, bytes read and memory, side by side with ExifTool and an I/O floor.

Usage: python3 Benchmarks/check_benchmark.py [--pairs 5000,50000] [--work DIR] [--exiftool-pairs 300] [--runs 3]
       python3 Benchmarks/check_benchmark.py --callgrind 200 [--linked | --distinct] [--binary OLD] [--work DIR]
       python3 Benchmarks/check_benchmark.py --cache-pairs 50000 [--runs 3] [--distinct] [--work DIR]

For each corpus size it builds a corpus of N pairs from the four real camera pairs in
../shared/samples (hard links, 100 pairs per folder), warms the page cache, and measures:
- `lpcheck check --format json --output /dev/null --quiet --stats` (wall time with process start,
  best of --runs; bytes read from --stats; peak resident memory from /usr/bin/time);
- ExifTool extracting the three markers (`exiftool -j -ee -Apple:MediaGroupUUID
  -Keys:ContentIdentifier -StillImageTime`) on the first --exiftool-pairs pairs (its rate is
  per pair, so a subset measures it);
- the I/O floor (Benchmarks/iofloor.c): only the bytes a checker must read, nothing parsed.
Prints a Markdown table of rates and ratios.

With --callgrind N it instead counts instructions (valgrind's callgrind; repeatable on a busy
machine, unlike wall time) for a check of N pairs on one thread, minus the process start
(`lpcheck --version`), and lists the functions that dominate. valgrind 3.19 cannot read the
DWARF 5 debug information Swift emits, so it runs on a copy without debug information (the
symbol table stays). Its pairs are full copies of the camera files, each with its own identifier
(about 5.5 MB a pair); with --distinct, the sparse copies described below, for corpora as large
as the 5,000 pairs of the speed targets.

With --cache-pairs N it measures incremental checks on the hard-linked corpus of N pairs (2N
files): a cold check without a cache, the first check with --cache (reads everything and fills
the cache), the first unchanged run (checks from the cached facts and keeps its outputs), the
best of --runs unchanged runs after it (they write the kept outputs again), and a run after one
file was touched (checked from the cached facts but for that file), with the bytes each read
(--stats).

--distinct (with --pairs, --cache-pairs or --callgrind) uses a library of distinct pairs instead of hard links:
each pair has its own identifier and each file its own inode, as in a real library. At 5.5 MB a
pair, full copies of 50,000 pairs would not fit on a disk, so each file is a sparse copy of its
camera file holding only the 4 KiB blocks lpcheck reads (found once per camera file with strace,
which must be installed); the rest is a hole. The copies of the first four pairs are checked to
give the camera files' facts (`lpcheck scan`).
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "samples")
PAIRS = [("LycheeOrg__Lychee/train.jpg", "LycheeOrg__Lychee/train.mov"),
         ("henteko__livephotoskit-react/test.JPG", "henteko__livephotoskit-react/test.mov"),
         ("gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.HEIC", "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853.MOV"),
         ("Bai-Mirror__pyheic_struct/apple.HEIC", "Bai-Mirror__pyheic_struct/apple.MOV")]
# Each pair's content identifier (ExifTool, ../shared/samples/FACTS.tsv): a distinct corpus
# replaces it in place (same length) so that every pair has its own.
IDENTIFIERS = [b"E905E6C6-C747-4805-942F-9904A0281F02", b"17080089-0117-45A3-9948-DB051BBF87C0",
               b"71DCA213-5710-4A6C-BC6D-CE6306AEB8D8", b"F08C4D29-CD6A-47D9-9200-02BD19D9F3F2"]


def run(cmd, **kw):
    return subprocess.run(cmd, check=False, capture_output=True, text=True, **kw)


def corpus(work, pairs, distinct=False):
    """A library of `pairs` pairs cycling through the four camera pairs. Linked (default): hard
    links, cheap on disk at any size, but every pair of one camera file is the same file, which
    lpcheck reports as one pair and duplicates. Distinct: copies whose identifier is replaced in
    place, so every pair is its own Live Photo (about 5.5 MB a pair on disk)."""
    folder = os.path.join(work, f"corpus-{pairs}" + ("-distinct" if distinct else ""))
    marker = os.path.join(folder, ".complete")
    if os.path.exists(marker):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    contents = {}
    for i in range(pairs):
        sub = os.path.join(folder, f"d{i // 100:04d}")
        os.makedirs(sub, exist_ok=True)
        still, movie = PAIRS[i % len(PAIRS)]
        for source in (still, movie):
            target = os.path.join(sub, f"IMG_{i:06d}{os.path.splitext(source)[1]}")
            if distinct:
                if source not in contents:
                    with open(os.path.join(SHARED, source), "rb") as handle:
                        contents[source] = handle.read()
                identifier = f"{i:08X}-0000-4000-8000-{i:012X}".encode()
                with open(target, "wb") as handle:
                    handle.write(contents[source].replace(IDENTIFIERS[i % len(PAIRS)], identifier))
                continue
            try:
                os.link(os.path.join(SHARED, source), target)
            except OSError:
                os.symlink(os.path.join(SHARED, source), target)
    open(marker, "w").close()
    return folder


def read_ranges(lpcheck, path):
    """The byte ranges `lpcheck check` reads of one file: its pread64 calls on it, from strace."""
    log = path + ".strace"
    run(["strace", "-f", "-s", "0", "-e", "trace=openat,pread64,close", "-o", log,
         lpcheck, "check", path, "--quiet", "--jobs", "1", "--format", "json", "--output", "/dev/null"])
    ranges, fd = [], None
    with open(log) as handle:
        for line in handle:
            line = re.sub(r"^\d+\s+", "", line.strip())
            opened = re.match(r'openat\(AT_FDCWD, "(.*)", [^)]*\)\s+=\s+(\d+)$', line)
            if opened and opened.group(1) == path:
                fd = int(opened.group(2))
                continue
            if fd is None:
                continue
            if re.match(rf"close\({fd}\)", line):
                fd = None
                continue
            pread = re.match(rf"pread64\({fd}, .*, (\d+), (\d+)\)\s+=\s+(\d+)$", line)
            if pread:
                offset, count = int(pread.group(2)), int(pread.group(3))
                ranges.append((offset, offset + count))
    os.remove(log)
    if not ranges:
        sys.exit(f"strace saw no read of {path} (is strace installed? apt-get install strace)")
    return ranges


def sparse_corpus(lpcheck, work, pairs):
    """A library of `pairs` distinct pairs (each its own identifier, each file its own inode) that
    fits on a disk: each file is a sparse copy of a camera file holding only the 4 KiB blocks
    lpcheck reads (strace), the rest a hole. Its facts are checked against the camera file's."""
    folder = os.path.join(work, f"corpus-{pairs}-sparse")
    marker = os.path.join(folder, ".complete")
    if os.path.exists(marker):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    blocks = {}
    for still, movie in PAIRS:
        for source in (still, movie):
            path = os.path.join(SHARED, source)
            kept = []
            for start, end in sorted(read_ranges(lpcheck, path)):
                start, end = start // 4096 * 4096, min(os.path.getsize(path), -(-end // 4096) * 4096)
                if kept and start <= kept[-1][1]:
                    kept[-1] = (kept[-1][0], max(kept[-1][1], end))
                else:
                    kept.append((start, end))
            with open(path, "rb") as handle:
                blocks[source] = (os.path.getsize(path), handle.read(), kept)
    for i in range(pairs):
        sub = os.path.join(folder, f"d{i // 100:04d}")
        os.makedirs(sub, exist_ok=True)
        identifier = f"{i:08X}-0000-4000-8000-{i:012X}".encode()
        for source in PAIRS[i % len(PAIRS)]:
            size, content, kept = blocks[source]
            with open(os.path.join(sub, f"IMG_{i:06d}{os.path.splitext(source)[1]}"), "wb") as handle:
                handle.truncate(size)
                for start, end in kept:
                    handle.seek(start)
                    handle.write(content[start:end].replace(IDENTIFIERS[i % len(PAIRS)], identifier))

    def facts(paths):
        lines = run([lpcheck, "scan"] + paths + ["--format", "ndjson"]).stdout.splitlines()
        records = [json.loads(line)["facts"] for line in lines if '"type":"file"' in line]
        for record in records:
            for key in ("path", "identity", "contentIdentifier"):
                record.pop(key, None)
        return records

    for i in range(min(pairs, len(PAIRS))):
        copies = [os.path.join(folder, f"d{i // 100:04d}", f"IMG_{i:06d}{os.path.splitext(source)[1]}") for source in PAIRS[i]]
        if facts(copies) != facts([os.path.join(SHARED, source) for source in PAIRS[i]]):
            sys.exit(f"the sparse copies of {PAIRS[i]} do not read as the camera files do")
    open(marker, "w").close()
    return folder


def files_of(folder):
    out = []
    for base, _, names in os.walk(folder):
        out += [os.path.join(base, n) for n in names if not n.startswith(".")]
    return sorted(out)


def timed(cmd, runs, stdin=None):
    best, result = None, None
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(cmd, capture_output=True, text=True, input=stdin)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def callgrind(lpcheck, work, pairs, distinct=True, sparse=False):
    if shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind (apt-get install valgrind)")
    stripped = os.path.join(work, "lpcheck-nodebug")
    subprocess.run(["objcopy", "--strip-debug", lpcheck, stripped], check=True)
    folder = sparse_corpus(lpcheck, work, pairs) if sparse else corpus(work, pairs, distinct)

    def instructions(arguments, out):
        result = run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", stripped] + arguments)
        return int(re.search(r"refs:\s+([\d,]+)", result.stderr).group(1).replace(",", ""))

    start = instructions(["--version"], os.path.join(work, "callgrind.start"))
    profile = os.path.join(work, "callgrind.check")
    total = instructions(["check", folder, "--format", "json", "--output", "/dev/null", "--quiet", "--jobs", "1"], profile)
    print(f"{pairs} {'distinct' if distinct else 'hard-linked'} pairs: {total:,} instructions, process start {start:,}, "
          f"{(total - start) / pairs:,.0f} per pair\n")
    top = run(["callgrind_annotate", profile]).stdout.split("\n")
    listed = [line for line in top if re.match(r"\s*[\d,]+ \(", line) and "PROGRAM TOTALS" not in line]
    print("\n".join(line[:150] for line in listed[:20]))


def incremental(lpcheck, work, pairs, runs, sparse=False):
    folder = sparse_corpus(lpcheck, work, pairs) if sparse else corpus(work, pairs)
    cache = os.path.join(work, f"facts-{pairs}{'-sparse' if sparse else ''}.db")
    base = [lpcheck, "check", folder, "--format", "json", "--output", "/dev/null", "--quiet", "--stats"]
    timed(base, 1)  # warm the page cache
    cold, cold_result = timed(base, runs)

    def stats(result):
        read = int(re.search(r"(\d+) bytes read", result.stderr).group(1))
        hits = re.search(r"(\d+) files from the cache", result.stderr)
        return read, int(hits.group(1)) if hits else 0

    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(cache + suffix):
            os.remove(cache + suffix)
    fill, fill_result = timed(base + ["--cache", cache], 1)
    # The first unchanged run checks from the cached facts and keeps its outputs; the next ones
    # write those again (the walk and the stamps of every file say nothing changed).
    first, first_result = timed(base + ["--cache", cache], 1)
    warm, warm_result = timed(base + ["--cache", cache], runs)
    replayed = "its outputs again" in warm_result.stderr
    # One file touched (new times): read again, every other file's facts from the cache, paired
    # and checked in full.
    touched = folder
    while os.path.isdir(touched):
        touched = os.path.join(touched, sorted(name for name in os.listdir(touched) if not name.startswith("."))[0])
    os.utime(touched)
    changed, changed_result = timed(base + ["--cache", cache], 1)
    files = 2 * pairs
    print("| files | check, no cache (s) | first check with --cache (s) | first unchanged run: checked from the cached facts (s) "
          "| unchanged, outputs replayed (s) | × faster than cold | one file changed (s) | bytes read cold | bytes read warm | files from the cache |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {files} | {cold:.2f} | {fill:.2f} | {first:.3f} | {warm:.3f}{'' if replayed else ' (not replayed!)'} | {cold / warm:.1f} | {changed:.3f} "
          f"| {stats(cold_result)[0]} | {stats(warm_result)[0]} | {stats(warm_result)[1]} |")
    print(f"\n(best of {runs} runs where it says so, page cache warm, {os.cpu_count()} cores; cache file {os.path.getsize(cache) // 1024} KB; "
          f"the changed run read {stats(changed_result)[0]} bytes)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", default="5000,50000")
    parser.add_argument("--work", default="/tmp/lpcheck-check-bench")
    parser.add_argument("--exiftool-pairs", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--callgrind", type=int, metavar="PAIRS", help="count instructions instead of timing (distinct pairs)")
    parser.add_argument("--linked", action="store_true", help="with --callgrind: the hard-linked corpus (one file per camera pair)")
    parser.add_argument("--binary", help="measure this lpcheck binary instead of building one (an older build, side by side)")
    parser.add_argument("--cache-pairs", type=int, metavar="PAIRS", help="time incremental checks with --cache instead")
    parser.add_argument("--distinct", action="store_true",
                        help="with --pairs or --cache-pairs: distinct pairs (sparse copies holding what lpcheck reads) instead of hard links")
    args = parser.parse_args()
    if not os.path.isdir(SHARED):
        sys.exit("needs ../shared/samples")
    os.makedirs(args.work, exist_ok=True)
    if args.binary:
        lpcheck = os.path.abspath(args.binary)
    else:
        subprocess.run(["swift", "build", "-c", "release", "--product", "lpcheck"], cwd=ROOT, check=True, capture_output=True)
        lpcheck = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                              capture_output=True, text=True).stdout.strip(), "lpcheck")
    if args.callgrind:
        callgrind(lpcheck, args.work, args.callgrind, distinct=not args.linked, sparse=args.distinct)
        return
    if args.cache_pairs:
        incremental(lpcheck, args.work, args.cache_pairs, args.runs, sparse=args.distinct)
        return
    floor = os.path.join(args.work, "iofloor")
    subprocess.run(["cc", "-O2", "-o", floor, os.path.join(ROOT, "Benchmarks", "iofloor.c")], check=True)
    rows = []
    for pairs in [int(p) for p in args.pairs.split(",")]:
        folder = sparse_corpus(lpcheck, args.work, pairs) if args.distinct else corpus(args.work, pairs)
        files = files_of(folder)
        listing = "\n".join(files) + "\n"
        subprocess.run([floor], input=listing, capture_output=True, text=True)  # warm the cache
        floor_time, floor_result = timed([floor], args.runs, stdin=listing)
        floor_inner = float(re.search(r"([\d.]+) s", floor_result.stdout).group(1))
        floor_bytes = int(re.search(r"(\d+) bytes read", floor_result.stdout).group(1))
        check_cmd = [lpcheck, "check", folder, "--format", "json", "--output", "/dev/null", "--quiet", "--stats"]
        check_time, check_result = timed(check_cmd, args.runs)
        check_bytes = int(re.search(r"(\d+) bytes read", check_result.stderr).group(1))
        rss = run(["/usr/bin/time", "-f", "%M"] + check_cmd).stderr.strip().split("\n")[-1]
        subset = files[: 2 * min(pairs, args.exiftool_pairs)]
        exif_time, _ = timed(["exiftool", "-j", "-ee", "-Apple:MediaGroupUUID", "-Keys:ContentIdentifier", "-StillImageTime"] + subset, 1)
        exif_rate = (len(subset) / 2) / exif_time
        rate = pairs / check_time
        rows.append(dict(pairs=pairs, files=len(files), check=check_time, rate=rate, exif_rate=exif_rate,
                         floor=floor_inner, floor_rate=pairs / floor_inner, check_bytes=check_bytes, floor_bytes=floor_bytes,
                         rss_mb=int(rss) / 1024))
    print("| files | lpcheck check (s) | pairs/s | ExifTool pairs/s | × ExifTool | floor (s) | × floor | bytes/pair lpcheck | bytes/pair floor | × bytes | peak RSS (MB) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['files']} | {r['check']:.2f} | {r['rate']:.0f} | {r['exif_rate']:.1f} | {r['rate'] / r['exif_rate']:.0f} | "
              f"{r['floor']:.3f} | {r['check'] / r['floor']:.1f} | {r['check_bytes'] / r['pairs']:.0f} | {r['floor_bytes'] / r['pairs']:.0f} | "
              f"{r['check_bytes'] / r['floor_bytes']:.2f} | {r['rss_mb']:.0f} |")
    print(f"\n(best of {args.runs} runs, warm cache, {os.cpu_count()} cores; ExifTool on {min(rows[0]['pairs'], args.exiftool_pairs)} pairs)")


if __name__ == "__main__":
    main()
