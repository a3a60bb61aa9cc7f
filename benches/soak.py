#!/usr/bin/env python3
"""Soak previewd with mixed traffic on loopback and check that it stays bounded.

Starts `previewd serve` (the release binary unless --bin says otherwise) over a fresh
workspace of every file kind, then for --minutes runs, at once:

- snapshot workers: POST /api/v1/previews for every kind (HTML, Markdown, source, image,
  SVG, DOCX, PPTX, binary), then every view, raw, model.json, media and doc/ assets;
- diff workers: POST /api/v1/diffs in view, file (PNG) and both (PDF) modes, then the viewer;
- activity workers: POST /api/v1/activity and /api/v1/activity/changes;
- slow readers: sockets that ask for large bodies and then read nothing, or a byte a second;
- bad input: broken JSON, wrong content types, foreign Host and Origin, traversal paths,
  non-UTF-8 paths, oversized bodies, wrong tokens;
- a /healthz probe every 100 ms (its latencies give p50/p99);
- a monitor reading the server's VmRSS/VmHWM, open fds and child processes each second.

Every loop is bounded by the deadline and every socket has a timeout; only 127.0.0.1 is
ever contacted. At the end the script prints a JSON summary and exits non-zero when peak
RSS passed --max-rss-mib, when fds or processes grew past the start by more than a small
slack after a settle period, or when any response was a 5xx other than 503.
"""

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
import struct

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def png(width, height):
    """A valid RGB PNG of the given size (a gradient, so it does not compress to nothing)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows += bytes(((x * 7) & 255, (y * 3) & 255, ((x ^ y) * 5) & 255))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + chunk(b"IEND", b"")
    )


def make_workspace(root):
    """Files of every kind the service previews."""
    def write(rel, data):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    write("site/index.html",
          "<!doctype html><html><head><link rel=stylesheet href=style.css></head><body>"
          "<h1>Soak</h1><img src=img/big.png><script src=app.js></script></body></html>")
    write("site/style.css", "body{font-family:sans-serif}" * 200)
    write("site/app.js", "document.body.dataset.ok='1';\n" * 100)
    write("site/img/big.png", png(1200, 900))
    write("README.md", "# Soak\n\n" + "Some *text* with a [link](site/index.html).\n\n" * 500)
    write("src/main.rs", "fn main() {\n" + "    let x = 1 + 2; // comment\n" * 3000 + "}\n")
    write("logo.svg", "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>"
                      "<rect width='10' height='10'/></svg>")
    write("photo.png", png(800, 600))
    write("blob.bin", os.urandom(3 * 1024 * 1024))
    for name, src in [("report.docx", "fixtures/bench/report-60p.docx"),
                      ("deck.pptx", "fixtures/bench/deck-80s.pptx")]:
        with open(os.path.join(REPO, src), "rb") as f:
            write(name, f.read())
    return ["site/index.html", "README.md", "src/main.rs", "logo.svg", "photo.png",
            "blob.bin", "report.docx", "deck.pptx"]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.status = {}
        self.errors = {}
        self.health = []
        self.started = time.time()
        self.inflight = {}  # request -> (kind, start), for the stall watchdog
        self.timeouts = []  # seconds into the run, to tell a stall from a trickle

    def add(self, kind, status):
        with self.lock:
            key = f"{kind}:{status}"
            self.status[key] = self.status.get(key, 0) + 1

    def error(self, kind, exc):
        with self.lock:
            if isinstance(exc, TimeoutError):
                self.timeouts.append(round(time.time() - self.started))
            key = f"{kind}:{type(exc).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1


class Client:
    def __init__(self, port, stats, deadline):
        self.port = port
        self.stats = stats
        self.deadline = deadline

    def request(self, kind, method, path, body=None, headers=None, read=True):
        key = object()
        with self.stats.lock:
            self.stats.inflight[key] = (kind, time.time())
        try:
            return self._request(kind, method, path, body, headers, read)
        finally:
            with self.stats.lock:
                del self.stats.inflight[key]

    def _request(self, kind, method, path, body, headers, read):
        headers = dict(headers or {})
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers.setdefault("content-type", "application/json")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            data = r.read() if read else b""
            self.stats.add(kind, r.status)
            return r.status, data
        except Exception as e:  # a refused or reset connection is data, not a crash
            self.stats.error(kind, e)
            return 0, b""
        finally:
            conn.close()

    def live(self):
        return time.time() < self.deadline


def snapshot_worker(c, root, files):
    while c.live():
        rel = random.choice(files)
        status, data = c.request("preview", "POST", "/api/v1/previews",
                                 {"workspaceRoot": root, "relativePath": rel})
        if status != 201:
            time.sleep(0.2)
            continue
        snap = json.loads(data)
        base = f"/p/{snap['previewId']}/{snap['token']}/"
        for view in snap["views"]:
            c.request("view", "GET", view["path"])
        c.request("view", "GET", base + "raw")
        if rel.endswith((".docx", ".pptx")):
            status, model = c.request("view", "GET", base + "model.json")
            if status == 200 and b"media/" in model:
                text = model.decode("utf-8", "replace")
                at = text.find("media/")
                part = text[at:text.find('"', at)]
                c.request("view", "GET", base + part)
        if rel.endswith(".html"):
            for asset in ["site/index.html", "site/style.css", "site/app.js", "site/img/big.png"]:
                c.request("view", "GET", base + "doc/" + asset)


def diff_worker(c, files_every):
    n = 0
    while c.live():
        n += 1
        before = "".join(f"line {i} {random.random()}\n" for i in range(200))
        after = before.replace("line 1", "LINE 1", 20) + "tail\n"
        mode = "view"
        extra = {}
        if n % files_every == 0:
            mode = random.choice(["file", "both"])
            extra = {"fileFormat": random.choice(["png", "pdf"]), "fileQuality": "standard"}
        status, data = c.request("diff", "POST", "/api/v1/diffs",
                                 dict({"before": before, "after": after, "path": "x.py",
                                       "mode": mode}, **extra))
        if status == 200:
            details = json.loads(data).get("details", {})
            if "viewerPath" in details:
                c.request("diff", "GET", details["viewerPath"])
        patch = ("diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n"
                 "-old\n+new\n ctx\n")
        c.request("diff", "POST", "/api/v1/diffs", {"patch": patch, "mode": "view"})


def activity_worker(c, root):
    session = {
        "workspaceRoot": root, "executionCwd": root,
        "turns": [{"turnId": f"t{i}", "toolCalls": [
            {"toolCallId": f"c{i}", "title": "write: README.md", "status": "completed",
             "rawInput": {"path": "README.md", "content": "# Soak\n" * (i + 1)}},
            {"toolCallId": f"d{i}", "title": "edit: src/main.rs", "status": "completed",
             "rawInput": {"path": "src/main.rs", "oldText": "fn main", "newText": "fn main2"}},
        ]} for i in range(20)],
    }
    while c.live():
        c.request("activity", "POST", "/api/v1/activity", session)
        status, data = c.request("activity", "POST", "/api/v1/activity/changes", session)
        if status == 200:
            details = json.loads(data).get("details", {})
            if "viewerPath" in details:
                c.request("activity", "GET", details["viewerPath"])
        time.sleep(0.05)


def slow_reader(c, root, stats):
    """Asks for large bodies and reads nothing (or a trickle), then lets go."""
    while c.live():
        status, data = c.request("slow-setup", "POST", "/api/v1/previews",
                                 {"workspaceRoot": root, "relativePath": random.choice(
                                     ["blob.bin", "site/img/big.png", "report.docx"])})
        if status != 201:
            time.sleep(0.5)
            continue
        snap = json.loads(data)
        socks = []
        for _ in range(8):
            try:
                s = socket.create_connection(("127.0.0.1", c.port), timeout=10)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(f"GET /p/{snap['previewId']}/{snap['token']}/raw HTTP/1.1\r\n"
                          f"Host: 127.0.0.1:{c.port}\r\n\r\n".encode())
                socks.append(s)
            except OSError as e:
                stats.error("slow", e)
        end = min(time.time() + 20, c.deadline)
        while time.time() < end:
            for s in socks[:2]:  # two trickle, the rest stall
                try:
                    s.recv(1)
                except OSError:
                    pass
            time.sleep(1)
        for s in socks:
            s.close()
        stats.add("slow", "cycle")


def bad_input_worker(c, root):
    cases = [
        ("POST", "/api/v1/previews", b"{not json", {"content-type": "application/json"}),
        ("POST", "/api/v1/previews", json.dumps({"workspaceRoot": root,
                                                 "relativePath": "x"}).encode(),
         {"content-type": "text/plain"}),
        ("POST", "/api/v1/previews", json.dumps({"workspaceRoot": root,
                                                 "relativePath": "../../etc/passwd"}).encode(),
         {"content-type": "application/json"}),
        ("POST", "/api/v1/previews", json.dumps({"workspaceRoot": root,
                                                 "relativePath": "site"}).encode(),
         {"content-type": "application/json"}),
        ("POST", "/api/v1/diffs", json.dumps({"patch": "garbage"}).encode(),
         {"content-type": "application/json"}),
        ("POST", "/api/v1/activity", json.dumps({"turns": 5}).encode(),
         {"content-type": "application/json"}),
        ("GET", "/healthz", None, {"host": "attacker.example"}),
        ("POST", "/api/v1/stat", json.dumps({"workspaceRoot": root,
                                             "relativePath": "README.md"}).encode(),
         {"content-type": "application/json", "origin": "http://attacker.example"}),
        ("GET", "/p/%FF%FE/x/raw", None, {}),
        ("GET", "/p/00000000000000000000/" + "0" * 48 + "/", None, {}),
        ("GET", "/plugins/diffs/view/zz/zz", None, {}),
        ("GET", "/w/ws/../../etc/passwd", None, {}),
        ("DELETE", "/api/v1/previews", None, {}),
    ]
    huge = b"x" * (14 * 1024 * 1024)  # over the default 13 MiB body limit
    n = 0
    while c.live():
        n += 1
        if n % 300 == 0:
            c.request("bad", "POST", "/api/v1/diffs", body=huge,
                      headers={"content-type": "application/json"})
        method, path, body, headers = random.choice(cases)
        c.request("bad", method, path, body=body, headers=headers)
        time.sleep(0.01)


def health_probe(c, stats):
    while c.live():
        t = time.perf_counter()
        status, _ = c.request("health", "GET", "/healthz")
        if status == 200:
            with stats.lock:
                stats.health.append((time.perf_counter() - t) * 1000)
        time.sleep(0.1)


def proc_status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                out[k] = int(v.split()[0])
    return out


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        for child in children.get(p, []):
            found.append(child)
            todo.append(child)
    return found


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--bin", default=os.path.join(REPO, "target/release/previewd"))
    ap.add_argument("--max-rss-mib", type=float, default=1024)
    ap.add_argument("--settle-seconds", type=float, default=20)
    ap.add_argument("--stall-dumps", type=int, default=0,
                    help="record up to N thread dumps (gdb) and socket states when a probe stalls")
    ap.add_argument("--stall-dir", default=".")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="previewd-soak-")
    root = os.path.join(tmp, "ws")
    os.makedirs(root)
    files = make_workspace(root)
    port_sock = socket.socket()
    port_sock.bind(("127.0.0.1", 0))
    port = port_sock.getsockname()[1]
    port_sock.close()
    env = dict(os.environ, PREVIEWD_DIFFS__DATA_DIR=os.path.join(tmp, "diffs"),
               PREVIEWD_LOG="info")
    server = subprocess.Popen([args.bin, "serve", "--workspace", root,
                               "--listen", f"127.0.0.1:{port}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log_lines = [0]

    def drain_log():
        # An operator's log reader keeps reading; previewd must not depend on it either
        # (tests/cli.rs stops reading and checks the service still answers).
        for _ in server.stderr:
            log_lines[0] += 1

    stats = Stats()
    c = Client(port, stats, time.time() + 60)
    stats.started = time.time()
    for _ in range(100):
        if c.request("startup", "GET", "/healthz")[0] == 200:
            break
        time.sleep(0.1)
    else:
        sys.exit("previewd did not start: " + server.stderr.read(4096).decode("utf-8", "replace"))
    threading.Thread(target=drain_log, daemon=True).start()
    start = {"fds": fd_count(server.pid), "children": len(descendants(server.pid)),
             **proc_status(server.pid)}
    c.deadline = time.time() + args.minutes * 60
    samples = []
    stop = threading.Event()

    def monitor():
        while not stop.is_set():
            try:
                samples.append({"t": time.time(), "fds": fd_count(server.pid),
                                "children": len(descendants(server.pid)),
                                **proc_status(server.pid)})
            except OSError:
                return
            time.sleep(1)

    def watchdog():
        """On a /healthz probe in flight for 5 s, records what the server and its sockets do."""
        dumps = 0
        while not stop.is_set() and dumps < args.stall_dumps:
            time.sleep(0.5)
            with stats.lock:
                stuck = [(k, time.time() - t0) for k, t0 in stats.inflight.values()
                         if time.time() - t0 > 5]
            if not any(k == "health" for k, _ in stuck):
                continue
            dumps += 1
            out = os.path.join(args.stall_dir, f"stall-{dumps}.txt")
            with open(out, "w") as f:
                f.write(f"t={time.time() - stats.started:.0f}s stuck={sorted(stuck)}\n")
                f.flush()
                for cmd in (["ss", "-tlnp", f"sport = :{port}"],
                            ["ss", "-tn", "state", "all", f"sport = :{port}"],
                            ["gdb", "-batch", "-p", str(server.pid), "-ex",
                             "thread apply all bt"]):
                    f.write(f"$ {' '.join(cmd)}\n")
                    f.flush()
                    subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=120)
            print(f"stall recorded in {out}", file=sys.stderr)
            time.sleep(10)

    threads = [threading.Thread(target=monitor, daemon=True)]
    if args.stall_dumps:
        threads.append(threading.Thread(target=watchdog, daemon=True))
    for _ in range(3):
        threads.append(threading.Thread(target=snapshot_worker, args=(c, root, files)))
    threads.append(threading.Thread(target=diff_worker, args=(c, 15)))
    threads.append(threading.Thread(target=diff_worker, args=(c, 10_000)))
    threads.append(threading.Thread(target=activity_worker, args=(c, root)))
    for _ in range(3):
        threads.append(threading.Thread(target=slow_reader, args=(c, root, stats)))
    threads.append(threading.Thread(target=bad_input_worker, args=(c, root)))
    threads.append(threading.Thread(target=health_probe, args=(c, stats)))
    for t in threads:
        t.start()
    for t in threads:
        if not t.daemon:
            t.join()
    # Let write timeouts, idle browsers and expiries settle before the leak check.
    time.sleep(args.settle_seconds)
    end = {"fds": fd_count(server.pid), "children": len(descendants(server.pid)),
           **proc_status(server.pid)}
    stop.set()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    shutil.rmtree(tmp, ignore_errors=True)

    health = sorted(stats.health)
    q = statistics.quantiles(health, n=100) if len(health) >= 100 else [float("nan")] * 99
    peak_rss = max(s["VmRSS"] for s in samples) / 1024 if samples else float("nan")
    server_errors = {k: v for k, v in stats.status.items()
                     if k.split(":")[1].isdigit() and int(k.split(":")[1]) >= 500
                     and int(k.split(":")[1]) != 503}
    summary = {
        "minutes": args.minutes,
        "requests": sum(v for k, v in stats.status.items() if k.split(":")[1].isdigit()),
        "status": dict(sorted(stats.status.items())),
        "client_errors": stats.errors,
        "peak_rss_mib": round(peak_rss, 1),
        "vm_hwm_mib": round(end["VmHWM"] / 1024, 1),
        "start": start,
        "end": end,
        "max_fds": max(s["fds"] for s in samples) if samples else None,
        "max_children": max(s["children"] for s in samples) if samples else None,
        "healthz_ms": {"n": len(health), "p50": round(q[49], 2), "p99": round(q[98], 2),
                       "max": round(max(health), 2) if health else None},
        "client_timeouts_at_s": stats.timeouts[:50],
        "server_5xx_other_than_503": server_errors,
        "exit_code": server.returncode,
        "log_lines": log_lines[0],
    }
    failures = []
    if peak_rss > args.max_rss_mib:
        failures.append(f"peak RSS {peak_rss:.0f} MiB > {args.max_rss_mib} MiB")
    # A leak grows with traffic; the warm export browser and pooled connections are a
    # steady state reached in the first minutes. Compare the end with that, not with the
    # idle start.
    early = [s["fds"] for s in samples if s["t"] - samples[0]["t"] < 120] if samples else []
    steady = max(early) if early else start["fds"]
    summary["steady_fds_first_2_min"] = steady
    if end["fds"] > steady + 16:
        failures.append(f"fds grew from {steady} (first two minutes) to {end['fds']}")
    # The export browser may still be warm (it closes when idle); nothing else may remain.
    if end["children"] > max(start["children"], 0) + 12:
        failures.append(f"child processes grew from {start['children']} to {end['children']}")
    if server_errors:
        failures.append(f"server errors: {server_errors}")
    print(json.dumps(summary, indent=2))
    if failures:
        print("FAILED: " + "; ".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
