#!/usr/bin/env python3
"""Sustained diff PNG/PDF export over HTTP, native engine against Chromium, in one run.

Starts the release `previewd serve` once per engine (`--export-engine native|chromium`),
posts the 200-line diff (`benches/native.rs` builds the same one) with `mode: "file"` at the
`standard` preset from C clients at once for S seconds, and prints images per second, the
p50/p90/max latency and the service's peak RSS (VmHWM). Then it times single PDF requests.

Usage: python3 benches/native_http.py [seconds=20] [clients=2]
NATIVE_HTTP_ENGINES=native (comma-separated) runs only the engines named; NATIVE_HTTP_BIN picks
another binary. The CPU-ms per image is the service's user + system time over the sustained
run divided by the images it made.
Needs a release build: cargo build --release --bin previewd
"""
import http.client, json, os, subprocess, sys, tempfile, threading, time

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BIN = os.environ.get("NATIVE_HTTP_BIN", os.path.join(TARGET, "release", "previewd"))
ENGINES = os.environ.get("NATIVE_HTTP_ENGINES", "native,chromium").split(",")

before = "".join(f"    let value_{i} = compute({i}, &state); // line {i}\n" for i in range(200))
after = "".join(
    (f"    let value_{i} = compute_fast({i}, &state); // line {i}\n" if i % 2 else
     f"    let value_{i} = compute({i}, &state); // line {i}\n") for i in range(200))


def body(fmt):
    return json.dumps({"before": before, "after": after, "path": "src/lib.rs", "mode": "file",
                       "fileFormat": fmt, "fileQuality": "standard", "ttlSeconds": 60}).encode()


def post(port, data):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    t = time.perf_counter()
    c.request("POST", "/api/v1/diffs", body=data, headers={"content-type": "application/json"})
    r = c.getresponse()
    out = r.read()
    c.close()
    if r.status != 200:
        raise SystemExit(f"HTTP {r.status}: {out[:300]!r}")
    return time.perf_counter() - t, json.loads(out)["details"]


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    """User + system time of the process and its finished children, seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def run(engine, port):
    work = tempfile.mkdtemp()
    # Every PNG of the sustained run is a stored artifact (4.3 MB each at `standard`): the
    # default 1 GiB store fills in seconds and the PDF step then gets `storage_full`.
    env = dict(os.environ, PREVIEWD_DIFFS__DATA_DIR=os.path.join(work, "diffs"),
               PREVIEWD_DIFFS__MAX_TOTAL_BYTES=str(16 << 30))
    proc = subprocess.Popen([BIN, "serve", "--workspace", work, "--listen", f"127.0.0.1:{port}",
                             "--export-engine", engine], env=env,
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "log"), "w"))
    try:
        print(f"[{engine}] service log: {os.path.join(work, 'log')}")
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.05)
        png = body("png")
        _, d = post(port, png)  # warm-up (starts the browser for chromium)
        print(f"[{engine}] PNG {d['fileBytes']} bytes at scale {d['fileScale']}")
        lat, lock, stop = [], threading.Lock(), time.perf_counter() + SECONDS

        def client():
            while time.perf_counter() < stop:
                t, _ = post(port, png)
                with lock:
                    lat.append(t)

        cpu0 = cpu_seconds(proc.pid)
        start = time.perf_counter()
        ts = [threading.Thread(target=client) for _ in range(CLIENTS)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        took = time.perf_counter() - start
        cpu_ms = (cpu_seconds(proc.pid) - cpu0) * 1000 / max(1, len(lat))
        lat.sort()
        rate = len(lat) / took
        print(f"[{engine}] {len(lat)} PNGs in {took:.1f} s with {CLIENTS} clients: {rate:.1f} PNG/s; "
              f"p50 {lat[len(lat)//2]*1000:.1f} ms, p90 {lat[int(len(lat)*0.9)]*1000:.1f} ms, "
              f"max {lat[-1]*1000:.1f} ms; {cpu_ms:.1f} CPU-ms per PNG (service); "
              f"peak RSS {peak_rss_mib(proc.pid):.1f} MiB; load average {os.getloadavg()[0]:.2f}")
        single = sorted(post(port, png)[0] for _ in range(20))
        print(f"[{engine}] one PNG at a time: p50 {single[10]*1000:.1f} ms")
        pdf = body("pdf")
        times = sorted(post(port, pdf)[0] for _ in range(20))
        print(f"[{engine}] one PDF at a time: p50 {times[10]*1000:.1f} ms, max {times[-1]*1000:.1f} ms")
        return rate
    finally:
        proc.terminate()
        proc.wait()


rates = {e: run(e, 8801 + i) for i, e in enumerate(ENGINES)}
if "native" in rates and "chromium" in rates:
    print(f"native / chromium PNG/s: {rates['native'] / rates['chromium']:.1f}x")
