#!/usr/bin/env python3
"""Object storage: GETs, bytes and files per second of `lpcheck scan s3://...` against moto on
loopback (Scripts/s3_fixture.py), at 0 and 50 ms added per request, for several --jobs.

  python3 Benchmarks/s3_benchmark.py --binary .build/release/lpcheck [--copies 3] [--jobs 1,8,32] [--latency 0,50]

The corpus is ../shared/samples uploaded --copies times (below c0/, c1/, ...). GETs and bytes come
from the proxy's log (one line per request), the local readers' bytes from `lpcheck scan` of the
folder (bytesRead). Prints a Markdown table.
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(samples, copies, latency, log):
    arguments = [sys.executable, os.path.join(ROOT, "Scripts/s3_fixture.py"), "--log", log, "--latency-ms", str(latency)]
    for copy in range(copies):
        arguments += ["--upload", f"{samples}=c{copy}"]
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    info = json.loads(process.stdout.readline())
    return process, info


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/lpcheck"))
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(ROOT), "shared/samples"))
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--jobs", default="1,8,32")
    parser.add_argument("--latency", default="0,50")
    args = parser.parse_args()

    local = subprocess.run([args.binary, "scan", args.samples], capture_output=True, text=True, check=True).stdout
    local_bytes = sum(json.loads(line)["facts"]["bytesRead"] for line in local.splitlines() if '"type":"file"' in line)
    local_files = sum(1 for line in local.splitlines() if '"type":"file"' in line)

    rows = []
    for latency in [float(x) for x in args.latency.split(",")]:
        log = tempfile.mktemp(suffix=".ndjson")
        process, info = start(args.samples, args.copies, latency, log)
        environment = dict(os.environ, AWS_ACCESS_KEY_ID=info["accessKey"], AWS_SECRET_ACCESS_KEY=info["secretKey"])
        for jobs in [int(x) for x in args.jobs.split(",")]:
            open(log, "w").close()
            started = time.monotonic()
            result = subprocess.run([args.binary, "scan", f"s3://{info['bucket']}/", "--endpoint-url", info["endpoint"], "--jobs", str(jobs)],
                                    capture_output=True, text=True, env=environment)
            seconds = time.monotonic() - started
            files = sum(1 for line in result.stdout.splitlines() if '"type":"file"' in line)
            requests = [json.loads(line) for line in open(log)]
            gets = [r for r in requests if r["method"] == "GET" and "?" not in r["path"]]
            lists = [r for r in requests if r["method"] == "GET" and "?" in r["path"]]
            fetched = sum(r["bytes"] for r in gets)
            rows.append((latency, jobs, files, len(gets) / max(files, 1), fetched / max(files, 1), local_bytes / max(local_files, 1), len(lists), seconds, files / seconds, result.returncode))
        process.stdin.close()
        process.wait()
        os.remove(log)
    print("| added latency | --jobs | files | GETs a file | bytes fetched a file | bytes read a file (local) | LIST pages | seconds | files/s | exit |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(f"| {row[0]:.0f} ms | {row[1]} | {row[2]} | {row[3]:.2f} | {row[4]:,.0f} | {row[5]:,.0f} | {row[6]} | {row[7]:.2f} | {row[8]:.1f} | {row[9]} |")


if __name__ == "__main__":
    main()
