#!/usr/bin/env bash
# PPTX fidelity over a whole folder of real decks (issue #14): every deck of CORPUS, at most
# MAX_SLIDES slides each, rendered by previewd's viewer in Chromium and by LibreOffice, then
# scored slide by slide with SSIM exactly as run.sh does (shoot.js, compare.py score).
# Writes benches/fidelity/corpus.md (overall and per-deck figures, the worst slides side by
# side, a cause for each slide below 0.8 from causes.tsv) and corpus-scores.tsv (every
# slide's score, for before/after comparisons).
#
# Usage: PREVIEWD=target/release/previewd bash benches/fidelity/run_corpus.sh
# Environment:
#   CORPUS      folder of .pptx files (default /work/shared/corpus-real/pptx)
#   MAX_SLIDES  slides scored per deck (default 30)
#   PREVIEWD    the previewd binary (default: `cargo build --release` of this checkout)
#   WORK        scratch folder (default /tmp/previewd-fidelity-corpus)
#   WIDTH       slide width in px for both renderers (default 960)
#   KEEP_LO     1 (default): reuse WORK's LibreOffice PDFs, so a re-run renders only
#               previewd's side; 0: convert every deck again
#   RESCORE=1   keep WORK's screenshots too; only score and report (LibreOffice still
#               converts the decks whose PDF WORK lacks)
#   FAIR_FONTS=1  the "fair reference": LibreOffice runs with reference-fonts.conf, which
#               gives it previewd's stand-ins for faces neither side has (Wine's Tahoma,
#               URW Gothic for Century Gothic …) instead of its DejaVu fallback; use its
#               own WORK (its PDFs differ), e.g. a copy of a plain run's WORK without lo/
#   BASELINE    a corpus-scores.tsv of an earlier run, shown next to this run's figures
#   NAME        report name: NAME.md, NAME-scores.tsv, NAME-notes.md (default corpus)
#   NO_SETUP=1  skip the apt/pip/npm installs
#   FIDELITY_LABEL  names the previewd build in the report (default: this checkout's commit)
#   PYTHON      a Python with scikit-image, Pillow and numpy (default python3)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CORPUS=${CORPUS:-/work/shared/corpus-real/pptx}
MAX_SLIDES=${MAX_SLIDES:-30}
WORK=${WORK:-/tmp/previewd-fidelity-corpus}
WIDTH=${WIDTH:-960}
mkdir -p "$WORK"

. "$HERE/lib.sh"
fidelity_setup

DECKS=()
while IFS= read -r f; do DECKS+=("$f"); done < <(find "$CORPUS" -maxdepth 1 -name '*.pptx' | sort)
say "${#DECKS[@]} decks in $CORPUS"

if [ "${RESCORE:-}" != 1 ]; then
    fidelity_previewd
    rm -rf "$WORK/html" "$WORK/viewer"
    mkdir -p "$WORK/html" "$WORK/viewer"
    : >"$WORK/status.tsv"
    for deck in "${DECKS[@]}"; do
        name=$(basename "$deck" .pptx)
        if ! timeout 120 "$PREVIEWD" preview "$deck" --format html -o "$WORK/html/$name.html" 2>"$WORK/html/$name.err"; then
            printf '%s\trefused\t%s\n' "$name" "$(tr '\n' ' ' <"$WORK/html/$name.err" | cut -c1-160)" >>"$WORK/status.tsv"
            continue
        fi
        if ! out=$(timeout 600 node "$HERE/shoot.js" "$WORK/html/$name.html" "$WORK/viewer/$name" "$WIDTH" "$MAX_SLIDES" 2>"$WORK/html/$name.shoot.err"); then
            printf '%s\tviewer-failed\t%s\n' "$name" "$(head -c 160 "$WORK/html/$name.shoot.err" | tr '\n' ' ')" >>"$WORK/status.tsv"
            continue
        fi
        n=$("$PYTHON" -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["slides"], d.get("total", d["slides"]))' "$out")
        printf '%s\tok\t%s\n' "$name" "$n" >>"$WORK/status.tsv"
        say "$name: $n"
    done
fi
# ExportHiddenSlides keeps page N = slide N when a deck hides slides. Cached PDFs are kept
# (KEEP_LO), so with RESCORE=1 this converts only what WORK lacks.
(
    if [ "${FAIR_FONTS:-}" = 1 ]; then
        export FONTCONFIG_FILE="$HERE/reference-fonts.conf"
        say "LibreOffice with the fair reference fonts ($FONTCONFIG_FILE)"
    fi
    fidelity_soffice "$WORK/lo/pdf" \
        'pdf:impress_pdf_Export:{"ExportHiddenSlides":{"type":"boolean","value":"true"}}' "${DECKS[@]}"
)

rm -rf "$WORK/scores"
mkdir -p "$WORK/scores"
for deck in "${DECKS[@]}"; do
    name=$(basename "$deck" .pptx)
    first=$(ls "$WORK/viewer/$name"/slide-*.png 2>/dev/null | head -n 1 || true)
    [ -n "$first" ] || continue
    [ -s "$WORK/lo/pdf/$name.pdf" ] || { say "$name: LibreOffice made no PDF"; continue; }
    read -r w h < <("$PYTHON" -c 'import sys; from PIL import Image; print(*Image.open(sys.argv[1]).size)' "$first")
    rm -rf "$WORK/lo/$name"
    mkdir -p "$WORK/lo/$name"
    fidelity_raster "$WORK/lo/pdf/$name.pdf" "$WORK/lo/$name/p" "$w" "$h" 1 "$MAX_SLIDES"
    "$PYTHON" "$HERE/compare.py" score "$name" "$WORK/viewer/$name" "$WORK/lo/$name" \
        "$WORK/scores/$name.json" --width "$WIDTH"
done

NAME=${NAME:-corpus}
"$PYTHON" "$HERE/compare.py" corpus-report "$WORK" "$HERE" --kind pptx --name "$NAME" \
    --versions "$(fidelity_versions)" --width "$WIDTH" --cap "$MAX_SLIDES" \
    --source "$CORPUS" ${BASELINE:+--baseline "$BASELINE"}
say "wrote $HERE/$NAME.md"
