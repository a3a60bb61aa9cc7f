#!/usr/bin/env python3
"""Page 1 of a 100-page PDF through the service: the time from `POST /api/v1/previews` to
the last byte of page 1's raster, through the requests the viewer makes in order (the
snapshot, the shell, the viewer script, page 1 at 1.5 x 2 device pixels, page 1's text).

    cargo build --release
    python3 benches/pdf_first_page.py target/release/previewd [RUNS]

The PDF is written here (100 Letter pages of text, Helvetica), into a fresh workspace; each
run makes a new snapshot of a changed file, so nothing is served from a cache.
"""
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def pdf(pages, salt):
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    kids = []
    for n in range(1, pages + 1):
        lines = [f"BT /F1 20 Tf 72 720 Td (Page {n} of {pages} run {salt}) Tj ET"]
        for k in range(40):
            lines.append(f"BT /F1 10 Tf 72 {690 - 15 * k} Td (Line {k} of page {n}: the quick brown fox jumps over the lazy dog.) Tj ET")
        content = "\n".join(lines).encode()
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {len(objs) + 2} 0 R >>".encode())
        kids.append(len(objs))
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objs[1] = ("<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join(f"{k} 0 R" for k in kids), pages)).encode()
    out = b"%PDF-1.7\n"
    offsets = []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    assert r.status == 200, (path, r.status, body[:200])
    return body


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/previewd"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    ws = tempfile.mkdtemp()
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--workspace", ws, "--listen", f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        times = []
        for run in range(runs + 1):
            with open(os.path.join(ws, "long.pdf"), "wb") as f:
                f.write(pdf(100, run))
            conn = http.client.HTTPConnection("127.0.0.1", port)
            started = time.perf_counter()
            conn.request("POST", "/api/v1/previews", body=json.dumps({"workspaceRoot": ws, "relativePath": "long.pdf"}),
                         headers={"content-type": "application/json"})
            r = conn.getresponse()
            snap = json.loads(r.read())
            assert r.status == 201, snap
            base = f"/p/{snap['previewId']}/{snap['token']}/"
            get(conn, base)
            get(conn, "/static/pdf-viewer.js")
            png = get(conn, base + "page/1?scale=3")
            get(conn, base + "text/1")
            elapsed = (time.perf_counter() - started) * 1000
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            if run > 0:  # the first run warms the process up
                times.append(elapsed)
            conn.close()
        times.sort()
        print(f"page 1 of 100 through the service, {runs} runs: median {statistics.median(times):.1f} ms, "
              f"p90 {times[int(len(times) * 0.9) - 1]:.1f} ms, min {times[0]:.1f} ms, max {times[-1]:.1f} ms")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
