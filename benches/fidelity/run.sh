#!/usr/bin/env bash
# PPTX fidelity: every slide of the bench deck (fixtures/bench/deck-80s.pptx) and of every
# deck in fixtures/corpus/pptx/ rendered twice and compared:
#   1. previewd: `previewd preview DECK --format html` (standalone page, viewer script
#      inline), opened in headless Chromium; each slide shown through its #slide-N deep
#      link, the chrome hidden with injected CSS, the stage captured WIDTH px wide
#      (shoot.js, playwright-core driving /usr/bin/chromium);
#   2. LibreOffice: `soffice --headless --convert-to pdf` (hidden slides exported too),
#      then rasterised (`fidelity_raster` in lib.sh: pdftoppm by default) to the very same pixel size.
# Both are flattened on white, greyscaled and scored with SSIM (compare.py), at the
# rendered size (CMP_WIDTH, default = WIDTH) and at 480 px for reference. Writes
# benches/fidelity/results.md and the side-by-side pictures of the bench deck's worst five
# and two typical slides (benches/fidelity/img/, 480 px wide, palette PNGs).
#
# Usage: bash benches/fidelity/run.sh
# Environment:
#   PREVIEWD   the previewd binary (default: `cargo build --release`, target/release/previewd)
#   WORK       scratch folder for pages, screenshots, PDFs, scores (default /tmp/previewd-fidelity)
#   WIDTH      slide width in px for both renderers (default 960; a 4:3 slide is 960×720)
#   NO_SETUP=1 skip the apt/pip/npm installs (everything already present)
#   RESCORE=1  keep WORK's screenshots and PDFs from the previous run; only score and report
#
# Fonts: the decks use Calibri (theme minor/major font) and Arial. Carlito (metric-compatible
# with Calibri) and Liberation (with Arial) are installed system-wide so BOTH renderers use
# the same faces; the comparison is then about layout, not font availability.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The decks are committed in fixtures/ (see fixtures/README.md).
FIXTURES="$ROOT/fixtures"
WORK=${WORK:-/tmp/previewd-fidelity}
WIDTH=${WIDTH:-960}
CMP_WIDTH=${CMP_WIDTH:-$WIDTH}
mkdir -p "$WORK"

. "$HERE/lib.sh"
fidelity_setup

DECKS=("$FIXTURES/bench/deck-80s.pptx")
while IFS= read -r f; do DECKS+=("$f"); done < <(ls "$FIXTURES"/corpus/pptx/*.pptx | sort)

if [ "${RESCORE:-}" != 1 ]; then
fidelity_previewd

rm -rf "$WORK/html" "$WORK/viewer" "$WORK/lo" "$WORK/scores"
mkdir -p "$WORK/html" "$WORK/viewer" "$WORK/lo/pdf" "$WORK/scores"
: >"$WORK/status.tsv"

# --- previewd in Chromium --------------------------------------------------------------
for deck in "${DECKS[@]}"; do
    name=$(basename "$deck" .pptx)
    if ! "$PREVIEWD" preview "$deck" --format html -o "$WORK/html/$name.html" 2>"$WORK/html/$name.err"; then
        printf '%s\trefused\t%s\n' "$name" "$(tr '\n' ' ' <"$WORK/html/$name.err")" >>"$WORK/status.tsv"
        continue
    fi
    out=$(node "$HERE/shoot.js" "$WORK/html/$name.html" "$WORK/viewer/$name" "$WIDTH")
    n=$("$PYTHON" -c 'import json,sys; print(json.loads(sys.argv[1])["slides"])' "$out")
    printf '%s\tok\t%s\n' "$name" "$n" >>"$WORK/status.tsv"
    say "$name: $n slides through the viewer"
done

# --- LibreOffice (one process for all decks) -------------------------------------------
# ExportHiddenSlides keeps page N = slide N when a deck hides slides.
KEEP_LO=0 fidelity_soffice "$WORK/lo/pdf" \
    'pdf:impress_pdf_Export:{"ExportHiddenSlides":{"type":"boolean","value":"true"}}' "${DECKS[@]}"
fi  # RESCORE
rm -rf "$WORK/scores"
mkdir -p "$WORK/scores"

for deck in "${DECKS[@]}"; do
    name=$(basename "$deck" .pptx)
    first=$(ls "$WORK/viewer/$name"/slide-*.png 2>/dev/null | head -n 1 || true)
    [ -n "$first" ] || continue
    [ -f "$WORK/lo/pdf/$name.pdf" ] || { say "$name: LibreOffice made no PDF"; continue; }
    read -r w h < <("$PYTHON" -c 'import sys; from PIL import Image; print(*Image.open(sys.argv[1]).size)' "$first")
    rm -rf "$WORK/lo/$name"
    mkdir -p "$WORK/lo/$name"
    fidelity_raster "$WORK/lo/pdf/$name.pdf" "$WORK/lo/$name/p" "$w" "$h" 1 9999
    "$PYTHON" "$HERE/compare.py" score "$name" "$WORK/viewer/$name" "$WORK/lo/$name" \
        "$WORK/scores/$name.json" --width "$CMP_WIDTH" --also 480
done

# --- report ----------------------------------------------------------------------------
VERSIONS=$(fidelity_versions)
"$PYTHON" "$HERE/compare.py" report "$WORK" "$HERE" --bench deck-80s \
    --bench-file "$FIXTURES/bench/deck-80s.pptx" --versions "$VERSIONS" \
    --width "$WIDTH" --cmp-width "$CMP_WIDTH"
say "wrote $HERE/results.md"
