#!/usr/bin/env bash
# Whole-process figures for the service on loopback: idle RSS, snapshot create + view
# throughput and latency (wrk), peak RSS. Usage: bash benches/load.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
port=8799
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }
cargo build --release --quiet
ws=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$ws"' EXIT
cp -r fixtures/demo "$ws/demo"
PREVIEWD_DIFFS__DATA_DIR="$ws/diffs" PREVIEWD_DIFFS__FSYNC=${FSYNC:-true} ./target/release/previewd serve --workspace "$ws" --listen 127.0.0.1:$port >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
echo "idle RSS: $(grep VmRSS /proc/$pid/status | awk '{print $2/1024 " MiB"}')"

body="{\"workspaceRoot\":\"$ws\",\"relativePath\":\"demo/index.html\"}"
lua=$(mktemp --suffix=.lua)
# Each connection alternates: create a snapshot, then open its Preview view.
cat > "$lua" <<LUA
local pending = nil
request = function()
  if pending then
    local path = pending
    pending = nil
    return wrk.format("GET", path)
  end
  return wrk.format("POST", "/api/v1/previews", {["Content-Type"] = "application/json"}, '$body')
end
response = function(status, headers, body)
  if status == 201 then
    local id = string.match(body, '"previewId":"(%x+)"')
    local token = string.match(body, '"token":"(%x+)"')
    if id and token then pending = "/p/" .. id .. "/" .. token .. "/preview" end
  end
end
LUA
echo "== create + view (alternating), ${secs}s, 2 threads, 32 connections"
wrk -t2 -c32 -d"${secs}s" --latency -s "$lua" http://127.0.0.1:$port | grep -E "Latency|50%|99%|Requests/sec|Non-2xx"

view=$(curl -s -X POST -d "$body" http://127.0.0.1:$port/api/v1/previews | sed -E 's/.*"previewId":"([0-9a-f]+)","token":"([0-9a-f]+)".*/\/p\/\1\/\2\/preview/')
echo "== view only, ${secs}s"
wrk -t2 -c32 -d"${secs}s" --latency "http://127.0.0.1:$port$view" | grep -E "Latency|50%|99%|Requests/sec|Non-2xx"
echo "peak RSS: $(grep VmHWM /proc/$pid/status | awk '{print $2/1024 " MiB"}')"
rm -f "$lua"

# The diffs tool: POST /api/v1/diffs in view mode with a 500-line change.
diff_body=$(mktemp)
python3 - "$diff_body" ${DIFF_EXT:-rs} <<'PY'
import json, sys
before = "".join(f"line {i} of the file with some words\n" for i in range(500))
after = "".join((f"line {i} changed here\n" if i % 10 == 3 else f"line {i} of the file with some words\n") for i in range(500))
json.dump({"before": before, "after": after, "path": "src/x." + ("rs" if len(sys.argv) < 3 else sys.argv[2]), "mode": "view"}, open(sys.argv[1], "w"))
PY
lua2=$(mktemp --suffix=.lua)
cat > "$lua2" <<LUA
local f = io.open("$diff_body")
local body = f:read("*a")
f:close()
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
LUA
echo "== POST /api/v1/diffs (view, 500 lines, 50 changed), ${secs}s"
wrk -t2 -c16 -d"${secs}s" --latency -s "$lua2" http://127.0.0.1:$port/api/v1/diffs | grep -E "Latency|50%|99%|Requests/sec|Non-2xx"
echo "peak RSS after diffs: $(grep VmHWM /proc/$pid/status | awk '{print $2/1024 " MiB"}')"
rm -f "$lua2" "$diff_body"
