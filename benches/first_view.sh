#!/usr/bin/env bash
# First view of a diff artifact: the first GET of a viewer renders the page (highlighting
# above all) and caches it. Creates 15 fresh artifacts of a 200-line Rust change (20
# changed lines; small enough to be highlighted within the page's 32 KiB budget) and
# prints the median and worst time of their first views, and the page size.
#
# Usage: bash benches/first_view.sh [BINARY]   (default: a release build of this tree)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
    bin=$1
else
    cargo build --release --quiet --bin previewd
    bin=$PWD/target/release/previewd
fi
port=$((8900 + RANDOM % 100))
ws=$(mktemp -d)
PREVIEWD_DIFFS__DATA_DIR="$ws/diffs" $bin serve --workspace "$ws" --listen 127.0.0.1:$port >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$ws"' EXIT
sleep 1
body=$(mktemp)
python3 - "$body" <<'PY'
import json, sys
before = "".join(f"    let value_{i} = compute({i}, \"label {i}\");\n" for i in range(200))
after = "".join((f"    let value_{i} = compute_all({i}, \"label {i}\", true);\n" if i % 10 == 3 else f"    let value_{i} = compute({i}, \"label {i}\");\n") for i in range(200))
json.dump({"before": before, "after": after, "path": "src/x.rs", "mode": "view"}, open(sys.argv[1], "w"))
PY
times=(); size=0
for i in $(seq 15); do
  url=$(curl -s -X POST -H content-type:application/json --data-binary @"$body" http://127.0.0.1:$port/api/v1/diffs | python3 -c 'import json,sys; print(json.load(sys.stdin)["details"]["viewerUrl"])')
  out=$(curl -s -o /dev/null -w '%{time_total} %{size_download}' "$url")
  times+=("${out% *}"); size=${out#* }
done
rm -f "$body"
printf '%s\n' "${times[@]}" | sort -n | awk -v s=$size '{a[NR]=$1} END {printf "first view median %.1f ms, max %.1f ms, page %d bytes\n", a[int((NR+1)/2)]*1000, a[NR]*1000, s}'
