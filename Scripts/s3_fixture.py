#!/usr/bin/env python3
"""An S3 bucket on loopback for lpcheck's tests and benchmarks.

Starts moto's server (PyPI `moto[server]`) on 127.0.0.1 with IAM authentication: the first
three requests (an IAM user, its access key, its S3 policy) are the only ones moto takes
without a signature (INITIAL_NO_AUTH_ACTION_COUNT), so every later request, the bucket's
creation and the uploads included, must be signed with that key. Puts a proxy in front on
127.0.0.1 that logs every request (method, path, query, Range, status, body bytes) and can add
latency or faults, uploads folders, prints one JSON line
{"endpoint", "moto", "bucket", "accessKey", "secretKey", "log", "renamed"} and serves until its standard
input closes. Nothing but loopback is contacted.

  s3_fixture.py --upload DIR=PREFIX [--upload ...] [--latency-ms N] [--fault KIND:EVERY ...] --log FILE

Faults (the Nth GET of an object and every Nth after it; the first kind listed whose N divides
a GET's number fires): 500 (an S3 InternalError),
503 (SlowDown with Retry-After: 0), drop (the connection closed with no answer), truncate
(the headers and half the body, then closed), hang (no answer for 60 s), whole (200 and the object's
size in bytes, as a server that ignores Range), shifted (a Content-Range one byte later than the bytes), hugesize (a Content-Range
claiming an object of Int64.max bytes).
"""
import argparse, http.client, http.server, json, os, re, socket, socketserver, sys, threading, time

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this, Nagle's algorithm and the
    # client's delayed ACK add 40 ms to every answer.
    disable_nagle_algorithm = True
    upstream = None
    latency = 0.0
    faults = []  # (kind, every): the first whose every divides the GET's number fires
    gets = 0
    log = None
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def record(self, status, size):
        with self.lock:
            self.log.write(json.dumps({"method": self.command, "path": self.path, "range": self.headers.get("Range"),
                                       "status": status, "bytes": size, "port": self.client_address[1], "at": time.monotonic()}) + "\n")
            self.log.flush()

    def fault(self):
        if self.command != "GET" or "?" in self.path:
            return None
        with self.lock:
            Proxy.gets += 1
            for kind, every in self.faults:
                if Proxy.gets % every == 0:
                    return kind
        return None

    def do_GET(self):
        self.forward()

    def do_PUT(self):
        self.forward()

    def do_HEAD(self):
        self.forward()

    def do_POST(self):
        self.forward()

    def forward(self):
        if self.latency:
            time.sleep(self.latency)
        kind = self.fault()
        if kind == "drop":
            self.record("dropped", 0)
            self.close_connection = True
            self.connection.close()
            return
        if kind == "hang":
            self.record("hung", 0)
            time.sleep(60)
            self.close_connection = True
            return
        if kind in ("500", "503"):
            code = "InternalError" if kind == "500" else "SlowDown"
            body = f"<?xml version=\"1.0\"?><Error><Code>{code}</Code><Message>injected</Message></Error>".encode()
            self.send_response(int(kind))
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            if kind == "503":
                self.send_header("Retry-After", "0")
            self.end_headers()
            self.record(int(kind), len(body))
            self.wfile.write(body)
            return
        length = int(self.headers.get("Content-Length") or 0)
        payload = self.rfile.read(length) if length else None
        connection = http.client.HTTPConnection(*self.upstream, timeout=60)
        connection.connect()
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        headers = {name: value for name, value in self.headers.items() if name.lower() != "connection"}

        connection.request(self.command, self.path, body=payload, headers=headers)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        status = response.status
        if kind == "whole" and status == 206:
            # As a server that ignores Range: 200 and as many bytes as the object has (the bytes
            # asked for, then zeros: the request stays as signed, so moto sends only those).
            total = int((response.getheader("Content-Range") or "/0").rpartition("/")[2] or 0)
            body = body + bytes(max(0, total - len(body)))
            status = 200
        self.send_response(status)
        for name, value in response.getheaders():
            lower = name.lower()
            if lower in ("transfer-encoding", "connection", "content-length", "server", "date") or (kind == "whole" and lower == "content-range"):
                continue
            if kind == "hugesize" and lower == "content-range":
                value = value.rpartition("/")[0] + "/9223372036854775807"
            if kind == "shifted" and lower == "content-range":
                first, _, rest = value[len("bytes "):].partition("-")
                last, _, total = rest.partition("/")
                value = f"bytes {int(first) + 1}-{int(last) + 1}/{total}"
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if kind == "truncate" and len(body) > 1:
            self.record("truncated", len(body) // 2)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.close()
            return
        # Logged before the body goes out: a client that has its answer finds it in the log
        # (logged after, a test reading the log at once could miss the last request).
        self.record(status, len(body))
        if self.command != "HEAD":
            self.wfile.write(body)


class ThreadedServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upload", action="append", default=[], help="DIR=PREFIX")
    parser.add_argument("--bucket", default="photos")
    parser.add_argument("--latency-ms", type=float, default=0)
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--log", required=True)
    args = parser.parse_args()

    import boto3
    from moto.server import ThreadedMotoServer

    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    host, port = moto.get_host_and_port()
    moto_url = f"http://{host}:{port}"
    iam = boto3.client("iam", endpoint_url=moto_url, aws_access_key_id="setup", aws_secret_access_key="setup")
    iam.create_user(UserName="lpcheck")
    key = iam.create_access_key(UserName="lpcheck")["AccessKey"]
    iam.put_user_policy(UserName="lpcheck", PolicyName="s3", PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    s3 = boto3.client("s3", endpoint_url=moto_url, aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
    s3.create_bucket(Bucket=args.bucket)
    renamed = {}
    for entry in args.upload:
        folder, _, prefix = entry.partition("=")
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                # moto checks a signature over the decoded path, so a key with a character SigV4
                # encodes (a space, parentheses) fails there for every client, boto3 included:
                # such keys are uploaded with those characters as "_" and named in "renamed".
                safe = re.sub(r"[^A-Za-z0-9._~/-]", "_", relative)
                object_key = (prefix.rstrip("/") + "/" if prefix else "") + safe
                if safe != relative:
                    renamed[object_key] = (prefix.rstrip("/") + "/" if prefix else "") + relative
                s3.upload_file(path, args.bucket, object_key)

    Proxy.upstream = (host, port)
    Proxy.latency = args.latency_ms / 1000
    Proxy.faults = [(spec.split(":")[0], int(spec.split(":")[1])) for spec in args.fault]
    Proxy.log = open(args.log, "a")
    proxy = ThreadedServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    print(json.dumps({"endpoint": f"http://127.0.0.1:{proxy.server_address[1]}", "moto": moto_url, "bucket": args.bucket,
                      "accessKey": key["AccessKeyId"], "secretKey": key["SecretAccessKey"], "log": args.log,
                      "renamed": renamed}), flush=True)
    sys.stdin.read()
    proxy.shutdown()
    moto.stop()


if __name__ == "__main__":
    main()
