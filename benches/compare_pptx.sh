#!/usr/bin/env bash
# Whole-process PPTX comparison on the benchmark decks, all in the same run on the same
# machine:
#   previewd      `previewd preview FILE --format html -o /dev/null` (release build)
#   LibreOffice   `soffice --headless --convert-to pdf` (warm user profile)
#   python-pptx   `Presentation(FILE)` alone (the bare parse), and a text walk: every
#                 slide, every shape (groups recursed, table cells included), every text
#                 frame's paragraphs and runs
# Wall time from hyperfine (-N, --warmup 1, RUNS runs), peak RSS from /usr/bin/time (median
# of RSS_RUNS runs; for soffice that is its largest process, soffice.bin). Prints markdown
# tables with ratios against previewd and the issue's targets (≥ 50× faster than
# LibreOffice, faster than python-pptx's bare parse, peak RSS < 40 MiB on the 300-slide deck).
#
# Then "first slide visible" for deck-300s in headless Chromium (playwright-core), median of
# FIRST_RUNS cold loads (a fresh browser context each, so no HTTP cache), two ways:
#   service     `previewd serve`, POST /api/v1/previews, open the snapshot's Slides view
#   standalone  the `previewd preview --format html` page from file:// (images inline)
# Two moments, each the first animation frame in which it holds, as performance.now() (from
# the start of navigation: request, response, parse, script, layout):
#   painted  slide 1's `.pptx-stage` has a laid-out box inside the window (during parsing,
#            before the viewer script runs, the slides stack with slide 1 on top)
#   ready    the same, and the viewer is set up (`.pptx-js`: slide 1 fitted to the pane)
# DOMContentLoaded and first contentful paint are printed alongside.
#
# Usage: bash benches/compare_pptx.sh [FILE.pptx ...]
#   defaults to fixtures/bench/deck-80s.pptx and deck-300s.pptx
# Environment:
#   PREVIEWD    the binary (default: `cargo build --release`, target/release/previewd)
#   RUNS        hyperfine runs (default 5); RSS_RUNS (default 3); FIRST_RUNS (default 5)
#   OUT         hyperfine exports, LibreOffice profile, scratch (default target/bench-compare-pptx)
#   NODE_DIR    where `npm install playwright-core` goes (default $OUT/node)
#   NO_SETUP=1  skip the apt/pip/npm installs
#   FIRST_ONLY=1  only the "first slide visible" part (no hyperfine/RSS tables)
#
# Needs: hyperfine, GNU time (apt: time), LibreOffice (apt: libreoffice-impress-nogui),
# python3 with python-pptx (pip), node + npm, /usr/bin/chromium, curl.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
# The inputs are committed in fixtures/ (see fixtures/README.md).
FIXTURES="$ROOT/fixtures"
RUNS=${RUNS:-5}
RSS_RUNS=${RSS_RUNS:-3}
FIRST_RUNS=${FIRST_RUNS:-5}
OUT=${OUT:-$ROOT/target/bench-compare-pptx}
NODE_DIR=${NODE_DIR:-$OUT/node}
if [ $# -gt 0 ]; then
    FILES=("$@")
else
    FILES=("$FIXTURES/bench/deck-80s.pptx" "$FIXTURES/bench/deck-300s.pptx")
fi
mkdir -p "$OUT"

if [ "${NO_SETUP:-}" != 1 ]; then
    need_apt=()
    command -v soffice >/dev/null || need_apt+=(libreoffice-impress-nogui)
    [ -x /usr/bin/time ] || need_apt+=(time)
    [ -x /usr/bin/chromium ] || need_apt+=(chromium)
    fc-list | grep -qi carlito || need_apt+=(fonts-crosextra-carlito)
    if [ ${#need_apt[@]} -gt 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >&2
    fi
    python3 -c 'import pptx' 2>/dev/null || python3 -m pip install --quiet python-pptx >&2
    if [ ! -f "$NODE_DIR/node_modules/playwright-core/package.json" ]; then
        npm install --prefix "$NODE_DIR" --no-audit --no-fund --silent playwright-core@1 >&2
    fi
fi
for tool in hyperfine soffice node curl; do
    command -v "$tool" >/dev/null || { echo "compare_pptx: $tool is missing" >&2; exit 2; }
done

if [ -z "${PREVIEWD:-}" ]; then
    cargo build --release --quiet --bin previewd
    PREVIEWD=$ROOT/target/release/previewd
fi
# The interpreter itself: a pyenv shim would add its own start-up to python-pptx's time.
PY=$(python3 -c 'import sys; print(sys.executable)')
PPTX_VERSION=$("$PY" -c 'import pptx; print(pptx.__version__)')
LO_VERSION=$(soffice --version | head -n 1 | cut -d' ' -f2)

cat >"$OUT/pptx_open.py" <<'PY'
import sys
from pptx import Presentation
Presentation(sys.argv[1])
PY
cat >"$OUT/pptx_walk.py" <<'PY'
import sys
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE


def walk(shapes):
    n = 0
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            n += walk(shape.shapes)
            continue
        frames = []
        if shape.has_text_frame:
            frames.append(shape.text_frame)
        if getattr(shape, "has_table", False) and shape.has_table:
            frames += [cell.text_frame for row in shape.table.rows for cell in row.cells]
        for frame in frames:
            for paragraph in frame.paragraphs:
                for run in paragraph.runs:
                    n += len(run.text)
    return n


deck = Presentation(sys.argv[1])
print(sum(walk(slide.shapes) for slide in deck.slides))
PY

LO_PROFILE="file://$OUT/lo-profile"
LO_OUT="$OUT/lo-out"
mkdir -p "$LO_OUT"
SOFFICE=(soffice "-env:UserInstallation=$LO_PROFILE" --headless --convert-to pdf --outdir "$LO_OUT")

# Median peak RSS (KiB) of a command over RSS_RUNS runs.
peak_rss() {
    local samples=()
    for _ in $(seq "$RSS_RUNS"); do
        samples+=("$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1)")
    done
    printf '%s\n' "${samples[@]}" | sort -n | sed -n "$(( (RSS_RUNS + 1) / 2 ))p"
}

ROWS=()
[ "${FIRST_ONLY:-}" = 1 ] && FILES=()
for file in "${FILES[@]}"; do
    name=$(basename "$file" .pptx)
    # Every tool must succeed on the file before anything is timed (this also creates
    # LibreOffice's profile, so no run pays for that).
    "$PREVIEWD" preview "$file" --format html -o /dev/null
    "${SOFFICE[@]}" "$file" >/dev/null 2>&1
    [ -s "$LO_OUT/$name.pdf" ] || { echo "compare_pptx: LibreOffice made no PDF of $file" >&2; exit 1; }
    chars=$("$PY" "$OUT/pptx_walk.py" "$file")
    echo "compare_pptx: $name: python-pptx walked $chars characters of text" >&2
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/$name.json" \
        --command-name "previewd" "$PREVIEWD preview $file --format html -o /dev/null" \
        --command-name "LibreOffice" "${SOFFICE[*]} $file" \
        --command-name "python-pptx open" "$PY $OUT/pptx_open.py $file" \
        --command-name "python-pptx walk" "$PY $OUT/pptx_walk.py $file" >&2
    rss=(
        "$(peak_rss "$PREVIEWD" preview "$file" --format html -o /dev/null)"
        "$(peak_rss "${SOFFICE[@]}" "$file")"
        "$(peak_rss "$PY" "$OUT/pptx_open.py" "$file")"
        "$(peak_rss "$PY" "$OUT/pptx_walk.py" "$file")"
    )
    ROWS+=("$(python3 - "$OUT/$name.json" "$name" "${rss[@]}" <<'PY'
import json, sys
path, name = sys.argv[1], sys.argv[2]
rss = [int(x) for x in sys.argv[3:7]]
res = json.load(open(path))["results"]
base = res[0]
mib = lambda k: f"{k / 1024:.1f} MiB"
mib_mark = ""
out = []
for r, k in zip(res, rss):
    wall = r["median"] * 1000
    cpu = (r["user"] + r["system"]) * 1000
    mark = ""
    if r["command"] == "LibreOffice":
        mark = " ✓" if r["median"] / base["median"] >= 50 else " ✗"  # target ≥ 50×
    elif r["command"] == "python-pptx open":
        mark = " ✓" if r["median"] > base["median"] else " ✗"  # target: faster than the bare parse
    if r is base:
        ratio, cpu_ratio, rss_ratio = "1×", "1×", "1×"
        if "300" in name:  # target: peak RSS < 40 MiB on the 300-slide deck
            mib_mark = " ✓" if k < 40 * 1024 else " ✗"
    else:
        ratio = f"**{r['median'] / base['median']:.1f}×**{mark}"
        cpu_ratio = f"{(r['user'] + r['system']) / (base['user'] + base['system']):.1f}×"
        rss_ratio = f"{k / rss[0]:.1f}×"
    out.append(f"| {name}.pptx | {r['command']} | {wall:.1f} ms (σ {r['stddev'] * 1000:.1f}) | {ratio} "
               f"| {cpu:.1f} ms | {cpu_ratio} | {mib(k)}{mib_mark if r is base else ''} | {rss_ratio} |")
print("\n".join(out))
PY
)")
done

# --- first slide visible ---------------------------------------------------------------
DECK300="$FIXTURES/bench/deck-300s.pptx"
FIRST_MD=""
if [ -f "$DECK300" ]; then
    cat >"$OUT/first_slide.js" <<'JS'
// node first_slide.js URL RUNS -> JSON {painted:[ms...], ready:[...], dcl:[...], fcp:[...]}
"use strict";
const { chromium } = require("playwright-core");
const [url, runs] = [process.argv[2], parseInt(process.argv[3] || "5", 10)];
const PROBE = () => {
  // painted: slide 1's stage first has a box inside the window (while the page is still
  // being parsed the slides stack, slide 1 on top); ready: the viewer is set up too.
  window.__painted = null;
  window.__ready = null;
  const check = () => {
    const stage = document.querySelector("#slide-1 > .pptx-stage");
    if (stage) {
      const box = stage.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.top < window.innerHeight) {
        if (window.__painted === null) window.__painted = performance.now();
        const root = stage.closest("[data-pptx]");
        if (root && root.classList.contains("pptx-js")) {
          window.__ready = performance.now();
          return;
        }
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};
(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const out = { painted: [], ready: [], dcl: [], fcp: [] };
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load" });
      await page.waitForFunction(() => window.__ready !== null, null, { timeout: 30000 });
      const t = await page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        return { painted: window.__painted, ready: window.__ready, dcl: nav ? nav.domContentLoadedEventEnd : null, fcp: fcp ? fcp.startTime : null };
      });
      await context.close();
      if (i === 0) continue; // the first load warms the browser process, not the page
      out.painted.push(t.painted);
      out.ready.push(t.ready);
      out.dcl.push(t.dcl);
      out.fcp.push(t.fcp);
    }
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
JS
    export NODE_PATH="$NODE_DIR/node_modules"
    # The service: its own port, the bench folder as the workspace.
    PORT=${PORT:-18791}
    "$PREVIEWD" serve --workspace "$(dirname "$DECK300")" --listen "127.0.0.1:$PORT" >"$OUT/serve.log" 2>&1 &
    SERVE_PID=$!
    trap 'kill $SERVE_PID 2>/dev/null || true' EXIT
    for _ in $(seq 100); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break
        sleep 0.1
    done
    SNAP=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/previews" \
        -H 'content-type: application/json' \
        -d "{\"workspaceRoot\":\"$(dirname "$DECK300")\",\"relativePath\":\"$(basename "$DECK300")\"}")
    URL=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["url"])' "$SNAP")
    SERVICE=$(node "$OUT/first_slide.js" "$URL" "$FIRST_RUNS")
    kill "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
    trap - EXIT
    "$PREVIEWD" preview "$DECK300" --format html -o "$OUT/deck-300s.html"
    STANDALONE=$(node "$OUT/first_slide.js" "file://$OUT/deck-300s.html" "$FIRST_RUNS")
    PAGE_KB=$(( $(stat -c %s "$OUT/deck-300s.html") / 1024 ))
    FIRST_MD=$(python3 - "$SERVICE" "$STANDALONE" "$PAGE_KB" <<'PY'
import json, statistics, sys
service, standalone, kb = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
med = lambda xs: statistics.median(x for x in xs if x is not None)
def row(label, d):
    p, r = med(d["painted"]), med(d["ready"])
    runs = "; ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(d["painted"], d["ready"]))
    return (f"| {label} | **{p:.0f} ms** {'✓' if p < 300 else '✗'} | **{r:.0f} ms** {'✓' if r < 300 else '✗'} "
            f"| {med(d['dcl']):.0f} ms | {med(d['fcp']):.0f} ms | {runs} |")
print("| deck-300s.pptx in Chromium (median) | slide 1 first painted | viewer ready on slide 1 | DOMContentLoaded | first contentful paint | runs: painted/ready (ms) |")
print("|---|---|---|---|---|---|")
print(row("service: Slides view (`/p/{id}/{token}/`)", service))
print(row(f"standalone page (file://, {kb} KiB, pictures inline)", standalone))
PY
)
fi

echo
echo "previewd $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') (release), LibreOffice $LO_VERSION, python-pptx $PPTX_VERSION on Python $("$PY" -c 'import platform; print(platform.python_version())'), $(/usr/bin/chromium --version 2>/dev/null | sed 's/ built on.*//'); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ ${#ROWS[@]} -gt 0 ]; then
    echo "| input | command | wall (median of $RUNS) | × previewd's wall | CPU (user+sys, mean) | × previewd's CPU | peak RSS (median of $RSS_RUNS) | × previewd's RSS |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
fi
if [ -n "$FIRST_MD" ]; then
    echo
    echo "$FIRST_MD"
fi
