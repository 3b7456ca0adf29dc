#!/usr/bin/env python3
"""A hostile S3-compatible server on loopback for lpcheck's tests: a bucket of local files that
answers as a broken or malicious server would. No signature is checked (a hostile server need
not); every request is logged with whether it carried credentials.

  hostile_s3.py --serve DIR=PREFIX [--object KEY=FILE ...] --mode MODE --log FILE

Prints one JSON line {"endpoint", "sink", "bucket", "log"} and serves until its standard input
closes. Only 127.0.0.1 is listened on; nothing else is contacted. "sink" is a second server that
answers 200 with 16 bytes of "X" to anything and logs it: where a redirect points.

Modes (GETs of objects unless said):
  plain         a well-behaved bucket (ranged GETs, ListObjectsV2 with paging, If-Match)
  redirect      every request: 307 to the same path on the sink
  permanent     every request: 301 PermanentRedirect, x-amz-bucket-region: eu-west-1, Location on the sink
  token-loop    listings: always truncated, always the same continuation token
  slow          objects: headers, then the body one byte a second
  latency       every request waits 2 s before its answer
  fail-tail     objects: 503 SlowDown for every GET that does not start at byte 0
  range-416     objects: 416 for every GET
  short-total   objects: Content-Range claims half the object's size
  etag-drift    objects: a new ETag on every GET, If-Match ignored
  bad-key       listings: one more key that is no URL encoding ("%zz")
  duplicate     listings: every key twice
  list-error    listings: 403 whose Message holds an escape sequence and a U+202E override
  header-flood  objects: 2,000 headers of 100 bytes before the body (200 KB of headers)
"""
import argparse, hashlib, http.server, json, os, socketserver, sys, threading, time, urllib.parse
from email.utils import formatdate

BUCKET = "photos"


class Log:
    lock = threading.Lock()
    file = None

    @classmethod
    def write(cls, server, handler, status):
        with cls.lock:
            cls.file.write(json.dumps({"server": server, "method": handler.command, "path": handler.path,
                                       "range": handler.headers.get("Range"),
                                       "credentials": bool(handler.headers.get("Authorization") or handler.headers.get("X-Amz-Security-Token")),
                                       "userAgent": handler.headers.get("User-Agent"), "status": status}) + "\n")
            cls.file.flush()


class Base(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Sink(Base):
    def do_GET(self):
        Log.write("sink", self, 200)
        self.answer(200, b"X" * 16)


class Bucket(Base):
    mode = "plain"
    objects = {}  # key -> (bytes, etag, last-modified text)
    sink = ""
    drift = 0

    def error(self, status, code, message, headers=()):
        body = f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code><Message>{message}</Message></Error>'.encode()
        Log.write("bucket", self, status)
        self.answer(status, body, [("Content-Type", "application/xml")] + list(headers))

    def do_GET(self):
        if self.mode == "latency":
            time.sleep(2)
        raw_path, _, query = self.path.partition("?")
        if self.mode == "redirect":
            Log.write("bucket", self, 307)
            return self.answer(307, b"", [("Location", self.sink + self.path)])
        if self.mode == "permanent":
            return self.error(301, "PermanentRedirect", "The bucket you are attempting to access must be addressed using the specified endpoint.",
                              [("x-amz-bucket-region", "eu-west-1"), ("Location", self.sink + self.path)])
        prefix = f"/{BUCKET}"
        if raw_path in (prefix, prefix + "/") and "list-type=2" in query:
            return self.listing(urllib.parse.parse_qs(query))
        if not raw_path.startswith(prefix + "/"):
            return self.error(404, "NoSuchBucket", "no such bucket")
        # The key as requested, percent-decoded and nothing else: no dot segment is resolved.
        key = urllib.parse.unquote(raw_path[len(prefix) + 1:])
        if key not in self.objects:
            return self.error(404, "NoSuchKey", "no such key")
        self.object(key)

    def listing(self, query):
        if self.mode == "list-error":
            return self.error(403, "AccessDenied", "denied \x1b[2J\x1b]0;pwned\x07 \u202eGPJ.exe")
        prefix = query.get("prefix", [""])[0]
        token = query.get("continuation-token", [None])[0]
        page = int(query.get("max-keys", ["1000"])[0])
        keys = sorted(key for key in self.objects if key.startswith(prefix))
        start = int(token) if token and token.isdigit() else 0
        chosen = keys[start:start + page]
        truncated = start + page < len(keys) or self.mode == "token-loop"
        entries = []
        for key in chosen:
            data, etag, modified = self.objects[key]
            encoded = urllib.parse.quote(key, safe="/")
            entries.append(f"<Contents><Key>{encoded}</Key><LastModified>{modified}</LastModified><ETag>&quot;{etag}&quot;</ETag><Size>{len(data)}</Size></Contents>")
            if self.mode == "duplicate":
                entries.append(entries[-1])
        if self.mode == "bad-key" and start == 0 and chosen:
            entries.append(f"<Contents><Key>{urllib.parse.quote(prefix)}IMG%zz.HEIC</Key><LastModified>2026-11-27T05:49:23.000Z</LastModified><ETag>&quot;0&quot;</ETag><Size>10</Size></Contents>")
        next_token = "loop" if self.mode == "token-loop" else str(start + page)
        body = ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>photos</Name><EncodingType>url</EncodingType>'
                + f"<IsTruncated>{'true' if truncated else 'false'}</IsTruncated>" + "".join(entries)
                + (f"<NextContinuationToken>{next_token}</NextContinuationToken>" if truncated else "") + "</ListBucketResult>").encode()
        Log.write("bucket", self, 200)
        self.answer(200, body, [("Content-Type", "application/xml")])

    def object(self, key):
        data, etag, modified = self.objects[key]
        if self.mode == "etag-drift":
            with Log.lock:
                Bucket.drift += 1
                etag = f"{etag[:24]}{Bucket.drift:08d}"
        elif self.headers.get("If-Match") not in (None, f'"{etag}"'):
            return self.error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
        first, last = 0, len(data) - 1
        ranged = self.headers.get("Range", "")
        if ranged.startswith("bytes="):
            a, _, b = ranged[len("bytes="):].partition("-")
            first = int(a)
            last = min(int(b), len(data) - 1) if b else len(data) - 1
        if self.mode == "range-416" or first >= len(data):
            return self.error(416, "InvalidRange", "The requested range is not satisfiable", [("Content-Range", f"bytes */{len(data)}")])
        if self.mode == "fail-tail" and first > 0:
            return self.error(503, "SlowDown", "Please reduce your request rate.", [("Retry-After", "0")])
        total = len(data) // 2 if self.mode == "short-total" else len(data)
        body = data[first:last + 1]
        headers = [("ETag", f'"{etag}"'), ("Last-Modified", modified), ("Content-Range", f"bytes {first}-{last}/{total}")]
        if self.mode == "header-flood":
            headers += [(f"X-Flood-{index}", "f" * 80) for index in range(2000)]
        Log.write("bucket", self, 206)
        if self.mode != "slow":
            return self.answer(206, body, headers)
        self.send_response(206)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        for index in range(len(body)):
            try:
                self.wfile.write(body[index:index + 1])
                self.wfile.flush()
            except OSError:
                return
            time.sleep(1)


class ThreadedServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def add_object(key, path):
    with open(path, "rb") as handle:
        data = handle.read()
    modified = formatdate(int(os.stat(path).st_mtime), usegmt=True)
    iso = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(int(os.stat(path).st_mtime)))
    Bucket.objects[key] = (data, hashlib.md5(data).hexdigest(), iso)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="append", default=[], help="DIR=PREFIX")
    parser.add_argument("--object", action="append", default=[], help="KEY=FILE")
    parser.add_argument("--mode", default="plain")
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    for entry in args.serve:
        folder, _, prefix = entry.partition("=")
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                add_object((prefix.rstrip("/") + "/" if prefix else "") + relative, path)
    for entry in args.object:
        key, _, path = entry.partition("=")
        add_object(key, path)
    Log.file = open(args.log, "a")
    sink = ThreadedServer(("127.0.0.1", 0), Sink)
    Bucket.mode = args.mode
    Bucket.sink = f"http://127.0.0.1:{sink.server_address[1]}"
    bucket = ThreadedServer(("127.0.0.1", 0), Bucket)
    for server in (sink, bucket):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"endpoint": f"http://127.0.0.1:{bucket.server_address[1]}", "sink": Bucket.sink, "bucket": BUCKET, "log": args.log}), flush=True)
    sys.stdin.read()
    bucket.shutdown()
    sink.shutdown()


if __name__ == "__main__":
    main()
