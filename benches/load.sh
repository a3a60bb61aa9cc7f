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
./target/release/previewd serve --workspace "$ws" --listen 127.0.0.1:$port >/dev/null 2>&1 &
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
