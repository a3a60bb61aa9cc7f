#!/usr/bin/env bash
# Robustness sweep over a folder of workbooks and tables (the project's real-world corpus,
# shared/corpus-real/{xlsx,csv}, is not in the repository): every file must render or be
# refused with a clear code, never crash or hang. Prints one line per file and a tally.
#
#   benches/sheet_sweep.sh ../shared/corpus-real/xlsx ../shared/corpus-real/csv
set -uo pipefail
PREVIEWD=${PREVIEWD:-target/release/previewd}
OUT=$(mktemp -d)
ok=0; refused=0; bad=0
for dir in "$@"; do
  for f in "$dir"/*; do
    start=$(date +%s%N)
    msg=$(timeout 60 "$PREVIEWD" preview "$f" -o "$OUT/page.html" 2>&1)
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ $rc -eq 0 ]; then ok=$((ok+1)); state=ok
    elif echo "$msg" | grep -Eq '^previewd: (corrupt|unsupported|sheet_too_large|too_large):'; then refused=$((refused+1)); state=refused
    else bad=$((bad+1)); state=BAD; fi
    printf '%-8s %6d ms  %s  %s\n' "$state" "$ms" "$(basename "$f")" "$(echo "$msg" | head -c 160)"
  done
done
echo "rendered $ok, refused with a code $refused, failed $bad"
rm -rf "$OUT"
[ $bad -eq 0 ]
