#!/usr/bin/env python3
"""Where a Chrome trace of one grid open spends its time (`benches/sheet_first_screen.js`
writes the traces when TRACE_DIR is set).

    python3 benches/sheet_trace.py TRACE.json [MIN_MS=2]

Prints, on the clock of the trace's first navigation (ms): the requests the renderer made
(sent -> finished), and every task of a renderer or browser main thread, and of the
compositor and GPU threads, of at least MIN_MS, with the events that took most of it.
"""
import json
import sys
from collections import defaultdict

path = sys.argv[1]
min_ms = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
data = json.load(open(path))
events = data["traceEvents"] if isinstance(data, dict) else data

threads = {}
procs = {}
for e in events:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        threads[(e["pid"], e["tid"])] = e["args"]["name"]
    if e.get("ph") == "M" and e.get("name") == "process_name":
        procs[e["pid"]] = e["args"]["name"]

starts = [e["ts"] for e in events if e.get("name") in ("navigationStart", "ResourceSendRequest") and "ts" in e]
t0 = min(starts) if starts else min(e["ts"] for e in events if e.get("ts"))
ms = lambda ts: (ts - t0) / 1000.0

# Requests: ResourceSendRequest / ResourceFinish share args.data.requestId.
sent, done = {}, {}
for e in events:
    d = (e.get("args") or {}).get("data") or {}
    if e.get("name") == "ResourceSendRequest":
        sent[d.get("requestId")] = (e["ts"], d.get("url", ""))
    elif e.get("name") == "ResourceFinish":
        done[d.get("requestId")] = e["ts"]
print("requests (sent -> finished, ms):")
for rid, (ts, url) in sorted(sent.items(), key=lambda kv: kv[1][0]):
    short = url.split("/p/")[-1].split("/", 2)[-1] if "/p/" in url else url.rsplit("/", 1)[-1]
    end = done.get(rid)
    print(f"  {ms(ts):8.1f} -> {ms(end):8.1f}  {short}" if end else f"  {ms(ts):8.1f} -> ?         {short}")

wanted = ("CrRendererMain", "CrBrowserMain", "Compositor", "VizCompositorThread", "CrGpuMain")
by_thread = defaultdict(list)
for e in events:
    if e.get("ph") == "X" and "dur" in e:
        name = threads.get((e["pid"], e["tid"]), "")
        if name in wanted:
            by_thread[(e["pid"], e["tid"])].append(e)

print(f"\ntasks of at least {min_ms} ms:")
rows = []
for key, evs in by_thread.items():
    evs.sort(key=lambda e: (e["ts"], -e["dur"]))
    i = 0
    while i < len(evs):
        top = evs[i]
        end = top["ts"] + top["dur"]
        j = i + 1
        inner = defaultdict(float)
        while j < len(evs) and evs[j]["ts"] < end:
            inner[evs[j]["name"]] = max(inner[evs[j]["name"]], 0) + evs[j]["dur"] / 1000.0
            j += 1
        if top["dur"] / 1000.0 >= min_ms:
            parts = sorted(inner.items(), key=lambda kv: -kv[1])[:4]
            what = ", ".join(f"{n} {d:.1f}" for n, d in parts)
            rows.append((top["ts"], f"  {ms(top['ts']):8.1f} +{top['dur'] / 1000.0:6.1f}  {threads[key]}/{procs.get(key[0], key[0])}: {top['name']} [{what}]"))
        i = j
for _, line in sorted(rows):
    print(line)
