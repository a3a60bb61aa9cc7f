#!/usr/bin/env bash
# Node floods: small Word files whose main part is one long run of empty paragraphs
# (`<w:p/>`), padded with an incompressible XML comment so the part stays under the 100:1
# compression-ratio guard. They probe the paragraph cap (`max_paragraphs`, 40,000) and the
# node cap (`max_xml_nodes`, 750,000); the classic hostile inputs are measured by
# `tests/office_memory.rs` instead.
#
# Usage: bash benches/hostile_docx.sh   (release build; needs python3 and GNU time)
# Prints one markdown row per file: size, exit code, wall time and peak RSS of
# `previewd preview FILE --format json -o /dev/null`, and the RSS over a tiny document.
set -euo pipefail

cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "hostile_docx: GNU time is missing (apt-get install time)" >&2; exit 2; }
cargo build --release --quiet --bin previewd
PREVIEWD=$PWD/target/release/previewd
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

# make OUT PARAGRAPHS PAD_BYTES: a package with PARAGRAPHS empty paragraphs and a comment
# of PAD_BYTES pseudo-random bytes (base64), deterministic.
make() {
    python3 - "$@" <<'PY'
import base64, random, sys, zipfile
out, n, pad = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
noise = base64.b64encode(random.Random(7).randbytes(pad)).decode()
doc = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
       f'<!--{noise}--><w:p><w:r><w:t>hello</w:t></w:r></w:p>' + '<w:p/>' * n + '</w:body></w:document>')
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('[Content_Types].xml', ct)
    z.writestr('_rels/.rels', rels)
    z.writestr('word/document.xml', doc)
PY
}

# measure LABEL FILE: one row; the first call is the baseline.
BASE=
measure() {
    local report code rss wall
    code=0
    /usr/bin/time -v -o "$DIR/time.txt" "$PREVIEWD" preview "$2" --format json -o /dev/null \
        2>"$DIR/stderr.txt" || code=$?
    report=$(cat "$DIR/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' <<<"$report")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' <<<"$report")
    BASE=${BASE:-$rss}
    printf '| %s | %s KiB | %s | %s | %.1f MiB | %+.1f MiB | %s |\n' "$1" \
        "$(( ($(stat -c %s "$2") + 1023) / 1024 ))" "$code" "$wall" \
        "$(bc -l <<<"$rss / 1024")" "$(bc -l <<<"($rss - $BASE) / 1024")" \
        "$(head -c 100 "$DIR/stderr.txt" | tr -d '\n')"
}

make "$DIR/tiny.docx" 0 16
make "$DIR/flood-39k.docx" 39000 4000
make "$DIR/flood-45k.docx" 45000 4000
make "$DIR/flood-700k.docx" 700000 60000
make "$DIR/flood-2.1m.docx" 2100000 170000

echo "| input | file size | exit | wall | peak RSS | over baseline | stderr |"
echo "|---|---|---|---|---|---|---|"
measure "tiny valid docx (baseline)" "$DIR/tiny.docx"
measure "39,000 empty paragraphs (under the paragraph cap)" "$DIR/flood-39k.docx"
measure "45,000 empty paragraphs (over the paragraph cap)" "$DIR/flood-45k.docx"
measure "700,000 empty paragraphs (under the node cap)" "$DIR/flood-700k.docx"
measure "2,100,000 empty paragraphs (over the node cap)" "$DIR/flood-2.1m.docx"
