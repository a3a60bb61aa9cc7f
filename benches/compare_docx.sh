#!/usr/bin/env bash
# Whole-process DOCX → HTML: `previewd preview FILE --format html -o /dev/null` against
# mammoth.js (`mammoth FILE /dev/null`) on the benchmark reports, in the same run on the
# same machine. Wall time from hyperfine (--warmup 2 --runs 10, no intermediate shell),
# peak RSS from /usr/bin/time -v (median of RSS_RUNS runs). Prints a markdown table with
# ratios and the issue's targets (≥ 20× faster, ≤ 1/5 of the peak RSS).
#
# Usage: bash benches/compare_docx.sh [FILE.docx ...]
#   defaults to fixtures/bench/report-60p.docx and report-300p.docx
# Environment:
#   MAMMOTH_DIR  where `npm install mammoth` goes (default: a fresh temp folder, removed
#                at exit); reuse one to skip the install
#   RUNS         hyperfine runs (default 10), RSS_RUNS (default 5)
#   OUT          where hyperfine's JSON/markdown exports go (default target/bench-compare-docx)
#   CARGO_TARGET_DIR  honoured: the release binary is taken from there
#
# Needs: cargo, node + npm (registry reachable), hyperfine, GNU time (/usr/bin/time),
# python3 (to read hyperfine's JSON).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${RUNS:-10}
RSS_RUNS=${RSS_RUNS:-5}
OUT=${OUT:-$ROOT/target/bench-compare-docx}
if [ $# -gt 0 ]; then
    FILES=("$@")
else
    FILES=("$ROOT/fixtures/bench/report-60p.docx" "$ROOT/fixtures/bench/report-300p.docx")
fi

for tool in hyperfine node npm python3; do
    command -v "$tool" >/dev/null || { echo "compare_docx: $tool is missing" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "compare_docx: GNU time is missing (apt-get install time)" >&2; exit 2; }

cargo build --release --quiet --bin previewd
# The build's own folder: CARGO_TARGET_DIR when the worktree builds elsewhere.
PREVIEWD=${CARGO_TARGET_DIR:-$ROOT/target}/release/previewd

if [ -z "${MAMMOTH_DIR:-}" ]; then
    MAMMOTH_DIR=$(mktemp -d)
    trap 'rm -rf "$MAMMOTH_DIR"' EXIT
fi
if [ ! -f "$MAMMOTH_DIR/node_modules/mammoth/package.json" ]; then
    npm install --prefix "$MAMMOTH_DIR" --no-audit --no-fund --silent mammoth >&2
fi
# The CLI script itself, run by node: npx would add its own start-up to mammoth's time.
MAMMOTH="node $MAMMOTH_DIR/node_modules/mammoth/bin/mammoth"
MAMMOTH_VERSION=$(node -p "require('$MAMMOTH_DIR/node_modules/mammoth/package.json').version")

mkdir -p "$OUT"

# Median peak RSS (KiB) of a command over RSS_RUNS runs.
peak_rss() {
    local samples=()
    for _ in $(seq "$RSS_RUNS"); do
        samples+=("$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1)")
    done
    printf '%s\n' "${samples[@]}" | sort -n | sed -n "$(( (RSS_RUNS + 1) / 2 ))p"
}

ROWS=()
for file in "${FILES[@]}"; do
    name=$(basename "$file" .docx)
    # Both must succeed on the file before anything is timed.
    "$PREVIEWD" preview "$file" --format html -o /dev/null
    $MAMMOTH "$file" /dev/null 2>/dev/null
    hyperfine -N --warmup 2 --runs "$RUNS" \
        --export-json "$OUT/$name.json" --export-markdown "$OUT/$name.md" \
        --command-name "previewd $name" "$PREVIEWD preview $file --format html -o /dev/null" \
        --command-name "mammoth.js $name" "$MAMMOTH $file /dev/null" >&2
    rss_p=$(peak_rss "$PREVIEWD" preview "$file" --format html -o /dev/null)
    rss_m=$(peak_rss $MAMMOTH "$file" /dev/null)
    ROWS+=("$(python3 - "$OUT/$name.json" "$name" "$rss_p" "$rss_m" <<'PY'
import json, sys
path, name, rss_p, rss_m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
results = json.load(open(path))["results"]
p, m = results[0], results[1]
speed = m["median"] / p["median"]
mem = rss_m / rss_p
# CPU time (user + system, mean) moves less than wall time when the machine is loaded.
cpu = lambda r: r["user"] + r["system"]
ms = lambda r: f'{r["median"] * 1000:.1f} ms (σ {r["stddev"] * 1000:.1f})'
mib = lambda k: f"{k / 1024:.1f} MiB"
print(f"| {name}.docx | {ms(p)} | {ms(m)} | **{speed:.1f}×** {'✓' if speed >= 20 else '✗'} "
      f"| {cpu(p) * 1000:.1f} ms | {cpu(m) * 1000:.0f} ms | {cpu(m) / cpu(p):.1f}× "
      f"| {mib(rss_p)} | {mib(rss_m)} | **1/{mem:.1f}** {'✓' if mem >= 5 else '✗'} |")
PY
)")
done

echo
echo "previewd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') (release), mammoth.js $MAMMOTH_VERSION on node $(node --version); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | previewd wall (median) | mammoth.js wall (median) | speed-up (target ≥ 20×) | previewd CPU | mammoth.js CPU | CPU ratio | previewd peak RSS | mammoth.js peak RSS | RSS share (target ≤ 1/5) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
