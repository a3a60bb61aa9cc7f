#!/usr/bin/env bash
# Whole-process comparison on one workbook, in one run: `previewd preview` (standalone
# page and the full JSON model) against SheetJS (read + sheet_to_html of every sheet) and
# calamine (read every cell). Time and peak RSS from /usr/bin/time -v, best of RUNS.
#
#   python3 benches/sheet_make.py /tmp/bench100k.xlsx 100000
#   (cd SCRATCH && npm install xlsx)                 # outside the repository
#   CALAMINE=/path/to/calbench benches/sheet_compare.sh /tmp/bench100k.xlsx SCRATCH
#
# CALAMINE is a tiny binary built outside the repository (calamine 0.32, reads every
# sheet with worksheet_range and formats each cell with to_string); see benches/README.md.
set -euo pipefail
BOOK=$1
SCRATCH=$2
RUNS=${RUNS:-3}
PREVIEWD=${PREVIEWD:-target/release/previewd}
OUT=$(mktemp -d)
measure() {
  local label=$1; shift
  local best_t=999999 best_m=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -v "$@" > /dev/null 2> "$OUT/time.txt"
    local t m
    t=$(grep "Elapsed (wall clock)" "$OUT/time.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print ($1*3600+$2*60+$3)*1000; else print ($1*60+$2)*1000 }')
    m=$(grep "Maximum resident" "$OUT/time.txt" | awk '{print $NF}')
    if awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; best_m=$m; fi
  done
  printf '%-34s %9.0f ms %9.1f MiB\n' "$label" "$best_t" "$(awk "BEGIN{print $best_m/1024}")"
}
cp "$(dirname "$0")/sheet_sheetjs.js" "$SCRATCH/"
measure "previewd preview -o page.html" "$PREVIEWD" preview "$BOOK" -o "$OUT/page.html"
measure "previewd preview --format json" "$PREVIEWD" preview "$BOOK" --format json -o "$OUT/model.json"
measure "SheetJS read + sheet_to_html" node "$SCRATCH/sheet_sheetjs.js" "$BOOK" "$OUT/sheetjs.html"
if [ -n "${CALAMINE:-}" ]; then
  measure "calamine read every cell" "$CALAMINE" "$BOOK"
fi
rm -rf "$OUT"
