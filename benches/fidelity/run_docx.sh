#!/usr/bin/env bash
# DOCX fidelity (issue #14): page 1 of previewd's Document view against page 1 of
# LibreOffice's PDF, over a deterministic sample of a folder of real documents. previewd:
# `previewd preview FILE --format html` in headless Chromium at the page's width, cropped
# to the first page box (shoot_docx.js); LibreOffice: `soffice --convert-to pdf` (one
# process for all files, PDFs cached in WORK), page 1 by `pdftoppm` at the same pixel
# size. Scored with compare.py (SSIM, as for slides). Writes benches/fidelity/NAME.md and
# NAME-scores.tsv (NAME: docx unless given).
#
# Usage: PREVIEWD=target/release/previewd bash benches/fidelity/run_docx.sh
# Environment:
#   CORPUS    folder of .docx files (default /work/shared/corpus-real/docx)
#   SAMPLE    about this many files: every k-th of the sorted list, k = count / SAMPLE
#             (default 120; 0 = every file)
#   NAME      the report's name (default docx; a later session's run keeps the earlier
#             report beside it, e.g. NAME=docx-s11 BASELINE=…/docx-scores.tsv)
#   PREVIEWD, WORK (default /tmp/previewd-fidelity-docx), KEEP_LO, RESCORE, BASELINE,
#   NO_SETUP  as in run_corpus.sh
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CORPUS=${CORPUS:-/work/shared/corpus-real/docx}
SAMPLE=${SAMPLE:-120}
WORK=${WORK:-/tmp/previewd-fidelity-docx}
NAME=${NAME:-docx}
mkdir -p "$WORK"

. "$HERE/lib.sh"
fidelity_setup

ALL=()
while IFS= read -r f; do ALL+=("$f"); done < <(find "$CORPUS" -maxdepth 1 -name '*.docx' | sort)
step=1
if [ "$SAMPLE" -gt 0 ] && [ "${#ALL[@]}" -gt "$SAMPLE" ]; then step=$(( ${#ALL[@]} / SAMPLE )); fi
DOCS=()
for ((i = 0; i < ${#ALL[@]}; i += step)); do DOCS+=("${ALL[$i]}"); done
say "${#DOCS[@]} of ${#ALL[@]} documents (every ${step}th) from $CORPUS"

if [ "${RESCORE:-}" != 1 ]; then
    fidelity_previewd
    rm -rf "$WORK/html" "$WORK/viewer"
    mkdir -p "$WORK/html" "$WORK/viewer"
    : >"$WORK/status.tsv"
    for doc in "${DOCS[@]}"; do
        name=$(basename "$doc" .docx)
        if ! timeout 120 "$PREVIEWD" preview "$doc" --format html -o "$WORK/html/$name.html" 2>"$WORK/html/$name.err"; then
            printf '%s\trefused\t%s\n' "$name" "$(tr '\n' ' ' <"$WORK/html/$name.err" | cut -c1-160)" >>"$WORK/status.tsv"
            continue
        fi
        mkdir -p "$WORK/viewer/$name"
        if ! timeout 300 node "$HERE/shoot_docx.js" "$WORK/html/$name.html" "$WORK/viewer/$name/page-001.png" \
            >/dev/null 2>"$WORK/html/$name.shoot.err"; then
            printf '%s\tviewer-failed\t%s\n' "$name" "$(head -c 160 "$WORK/html/$name.shoot.err" | tr '\n' ' ')" >>"$WORK/status.tsv"
            continue
        fi
        printf '%s\tok\t1 1\n' "$name" >>"$WORK/status.tsv"
        say "$name"
    done
fi
# Cached PDFs are kept (KEEP_LO), so with RESCORE=1 this converts only what WORK lacks.
fidelity_soffice "$WORK/lo/pdf" 'pdf:writer_pdf_Export' "${DOCS[@]}"

rm -rf "$WORK/scores"
mkdir -p "$WORK/scores"
for doc in "${DOCS[@]}"; do
    name=$(basename "$doc" .docx)
    shot="$WORK/viewer/$name/page-001.png"
    [ -f "$shot" ] || continue
    [ -s "$WORK/lo/pdf/$name.pdf" ] || { say "$name: LibreOffice made no PDF"; continue; }
    read -r w h < <("$PYTHON" -c 'import sys; from PIL import Image; print(*Image.open(sys.argv[1]).size)' "$shot")
    rm -rf "$WORK/lo/$name"
    mkdir -p "$WORK/lo/$name"
    fidelity_raster "$WORK/lo/pdf/$name.pdf" "$WORK/lo/$name/p" "$w" "$h" 1 1
    "$PYTHON" "$HERE/compare.py" score "$name" "$WORK/viewer/$name" "$WORK/lo/$name" \
        "$WORK/scores/$name.json" --width "$w"
done

"$PYTHON" "$HERE/compare.py" corpus-report "$WORK" "$HERE" --kind docx --name "$NAME" \
    --versions "$(fidelity_versions)" --width 0 --cap 1 \
    --source "$CORPUS (every ${step}th of ${#ALL[@]})" ${BASELINE:+--baseline "$BASELINE"}
say "wrote $HERE/$NAME.md"
