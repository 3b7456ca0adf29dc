#!/usr/bin/env python3
"""How long headless Chromium takes to load and lay out HTML reports of many items.

Usage: python3 Benchmarks/html_benchmark.py [--items 10000,100000] [--runs 3] [--binary BIN]

Scans the four camera pairs of ../shared/samples once (lpcheck scan), then writes facts records
for N pairs from them: each pair in a folder of 100, with its own identifier, every tenth pair's
movie given another identifier (an error card). `lpcheck check --facts` turns them into HTML
reports (--html-limit 0: every item; and the default limit), and Chromium loads each page with
`--headless --dump-dom` (which returns once the page is loaded and laid out). Chromium's own start,
measured on an empty page, is subtracted. Prints a Markdown table.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "samples")
PAIRS = ["LycheeOrg__Lychee/train", "henteko__livephotoskit-react/test",
         "gwy15__Apple-photo-to-UltraHDR-motion-photo/IMG_3853", "Bai-Mirror__pyheic_struct/apple"]


def load(path, runs):
    best = None
    for _ in range(runs):
        profile = tempfile.mkdtemp(prefix="lpcheck-chromium-")
        start = time.perf_counter()
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                        f"--user-data-dir={profile}", "--dump-dom", "file://" + path], capture_output=True, check=True)
        elapsed = time.perf_counter() - start
        subprocess.run(["rm", "-rf", profile])
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default=None)
    args = parser.parse_args()
    lpcheck = args.binary or os.path.join(ROOT, ".build", "release", "lpcheck")
    work = tempfile.mkdtemp(prefix="lpcheck-html-bench-")
    files = [os.path.join(SHARED, p + ext) for p in PAIRS for ext in (".jpg", ".JPG", ".HEIC", ".mov", ".MOV") if os.path.exists(os.path.join(SHARED, p + ext))]
    scan = subprocess.run([lpcheck, "scan"] + files, capture_output=True, text=True, check=True).stdout.splitlines()
    header, records = scan[0], [json.loads(line) for line in scan[1:] if '"type":"file"' in line]
    by_stem = {}
    for record in records:
        facts = record["facts"]
        by_stem.setdefault(os.path.splitext(facts["path"])[0], []).append(facts)
    stems = sorted(by_stem)
    empty = os.path.join(work, "empty.html")
    with open(empty, "w") as handle:
        handle.write("<!DOCTYPE html><title>empty</title>")
    start_cost = load(empty, args.runs)
    print("| items | page (MB) | cards | Chromium load (s) | limit | page (MB) | cards | Chromium load (s) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in [int(x) for x in args.items.split(",")]:
        facts_path = os.path.join(work, f"facts-{n}.ndjson")
        with open(facts_path, "w") as out:
            out.write(header + "\n")
            for i in range(n):
                identifier = f"{i:08X}-0000-4000-8000-{i:012X}"
                for facts in by_stem[stems[i % len(stems)]]:
                    copy = json.loads(json.dumps(facts))
                    name = os.path.basename(copy["path"])
                    copy["path"] = f"/library/d{i // 100:05d}/{i:06d}-{name}"
                    copy.pop("identity", None)
                    is_movie = copy.get("movie") is not None
                    copy["contentIdentifier"] = identifier if not (is_movie and i % 10 == 0) else "FFFFFFFF-0000-4000-8000-000000000000"
                    out.write(json.dumps({"type": "file", "facts": copy}, separators=(",", ":")) + "\n")
        row = [str(n)]
        for limit in ("0", None):
            page = os.path.join(work, f"report-{n}-{limit or 'default'}.html")
            command = [lpcheck, "check", "--facts", facts_path, "--format", "html", "--output", page, "--quiet"]
            if limit is not None:
                command += ["--html-limit", limit]
            subprocess.run(command, capture_output=True)
            with open(page) as handle:
                cards = handle.read().count('<section class="card ')
            seconds = load(page, args.runs) - start_cost
            row += ([] if limit is not None else ["default"]) + [f"{os.path.getsize(page) / 1e6:.1f}", str(cards), f"{seconds:.2f}"]
        print("| " + " | ".join(row) + " |")
    print(f"\n(best of {args.runs} loads; Chromium's start on an empty page, {start_cost:.2f} s, subtracted)")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
