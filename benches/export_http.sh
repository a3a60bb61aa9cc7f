#!/usr/bin/env bash
# The export over HTTP, in one run: previewd's warm `POST /api/v1/diffs` with mode "file"
# for a 200-line diff, against a cold `chromium --headless --screenshot` of the same page at
# the same size and scale. Usage: bash benches/export_http.sh
set -euo pipefail
cd "$(dirname "$0")/.."
port=8798
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
cargo build --release --quiet --bin previewd
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
d = sys.argv[1]
before = "".join(f"    let value_{i} = compute({i}, &state); // line {i}\n" for i in range(200))
after = "".join((f"    let value_{i} = compute_fast({i}, &state); // line {i}\n" if i % 2 else f"    let value_{i} = compute({i}, &state); // line {i}\n") for i in range(200))
open(f"{d}/before.rs", "w").write(before)
open(f"{d}/after.rs", "w").write(after)
json.dump({"before": before, "after": after, "path": "src/lib.rs", "mode": "file"}, open(f"{d}/body.json", "w"))
PY
PREVIEWD_DIFFS__DATA_DIR="$work/diffs" ./target/release/previewd serve --workspace "$work" --listen 127.0.0.1:$port >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
post="curl -sf -o /dev/null -X POST -H content-type:application/json --data-binary @$work/body.json http://127.0.0.1:$port/api/v1/diffs"
$post  # starts the browser: the timed runs are warm
# The same page the export renders, and its size, for the cold screenshot.
./target/release/previewd diff --before "$work/before.rs" --after "$work/after.rs" --format html -o "$work/page.html"
./target/release/previewd diff --before "$work/before.rs" --after "$work/after.rs" --format png -o "$work/warm.png"
read -r w h < <(python3 -c "import struct,sys; b=open(sys.argv[1],'rb').read(24); print(*struct.unpack('>II', b[16:24]))" "$work/warm.png")
scale=$(python3 -c "print(round($w/960, 2))")
css_h=$(python3 -c "print(int($h/$scale))")
echo "PNG ${w}x${h}, scale ${scale}, CSS height ${css_h}"
hyperfine -N --warmup 2 --runs 10 "$post" \
  "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=$work/cold.png --window-size=960,$css_h --force-device-scale-factor=$scale file://$work/page.html"
