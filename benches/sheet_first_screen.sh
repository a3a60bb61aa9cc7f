#!/usr/bin/env bash
# First screen of large tables through the service (issue #16's speed targets).
#
#   benches/sheet_first_screen.sh [RUNS=5]
#
# Writes three tables into a scratch workspace (1,000,000 rows x 3, about 27 MiB, a
# 100 MiB one of 4 columns, and a 1,000,000 x 2 workbook; the first column is the row
# number), starts the release
# `previewd serve` on it, then for each table:
#   - curl, RUNS times: `POST /api/v1/previews` -> the first block (`grid/`, `meta.json`,
#     `grid/rows/0/0`), each request timed, the sum printed; the table is read whole before
#     the next run (a load still running would share the two cores);
#   - Chromium (benches/sheet_first_screen.js): POST -> the grid painted, and later blocks
#     (scroll -> painted).
# PREVIEWD (default target/release/previewd; CARGO_TARGET_DIR honoured), NODE_PATH (a
# node_modules with playwright-core; installed into $WORK/node when unset), WORK (scratch,
# default /tmp/sheet-first-screen), FILES (the tables, default all three), TRACE_DIR (Chrome
# traces of the first two opens of each table). The load average is printed before and
# after.
set -euo pipefail
RUNS=${1:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}
PREVIEWD=${PREVIEWD:-$TARGET/release/previewd}
WORK=${WORK:-/tmp/sheet-first-screen}
PORT=${PORT:-8799}
BASE=http://127.0.0.1:$PORT
mkdir -p "$WORK/ws"
if [ -z "${NODE_PATH:-}" ]; then
    if [ ! -f "$WORK/node/node_modules/playwright-core/package.json" ]; then
        npm install --prefix "$WORK/node" --no-audit --no-fund --silent playwright-core@1 >&2
    fi
    export NODE_PATH=$WORK/node/node_modules
fi

python3 - "$WORK/ws" <<'EOF'
import os, sys
ws = sys.argv[1]
def write(name, header, line, stop):
    path = os.path.join(ws, name)
    if os.path.exists(path):
        return
    with open(path, "w") as f:
        f.write(header)
        i, size, buf = 0, len(header), []
        while not stop(i, size):
            i += 1
            s = line(i)
            size += len(s)
            buf.append(s)
            if len(buf) > 10000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
write("million.csv", "id,name,value\n",
      lambda i: f"{i},item-{i * 7919 % 100003},{(i * 37 % 10007) / 7:.4f}\n",
      lambda i, size: i >= 999_999)
cities = ["Berlin", "Lyon", "Osaka", "Quito", "Perth", "Accra"]
write("big100.csv", "id,city,amount,note\n",
      lambda i: f"{i},{cities[i % 6]},{(i * 37 % 10007) / 7:.4f},row {i} note text\n",
      lambda i, size: size >= 100 * 1024 * 1024)
# A workbook of 1,000,000 rows x 2 (id, value as in million.csv): a header row, then row
# n holds n - 1. Cells without their optional `r`, and two columns, so the sheet part
# (~52 MiB) stays under office.max_part_bytes (64 MiB) and the file under office_bytes.
path = os.path.join(ws, "million.xlsx")
if not os.path.exists(path):
    import zipfile
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    parts = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        "_rels/.rels": f'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0"?><workbook {ns} xmlns:r="{rel}"><sheets><sheet name="million" sheetId="1" r:id="r1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" Type="{rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/sharedStrings.xml": f'<?xml version="1.0"?><sst {ns}><si><t>id</t></si><si><t>value</t></si></sst>',
    }
    rows = [f'<?xml version="1.0"?><worksheet {ns}><sheetData><row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>']
    for i in range(1, 1_000_000):
        rows.append(f'<row><c><v>{i}</v></c><c><v>{(i * 37 % 10007) / 7:.4f}</v></c></row>')
    rows.append("</sheetData></worksheet>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text)
        z.writestr("xl/worksheets/sheet1.xml", "".join(rows))
EOF

"$PREVIEWD" serve --workspace "$WORK/ws" --listen 127.0.0.1:$PORT >"$WORK/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
for _ in $(seq 100); do curl -sf $BASE/healthz >/dev/null && break; sleep 0.1; done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

until_complete() {
    for _ in $(seq 600); do
        curl -sf "$1grid/meta.json" | grep -q '"complete":true,"rowsKnown":[0-9]*,"sha256":"' && return
        sleep 0.1
    done
}

for f in ${FILES:-million.csv big100.csv million.xlsx}; do
    echo "== $f ($(stat -c %s "$WORK/ws/$f") bytes), curl"
    for run in $(seq "$RUNS"); do
        t=$(curl -sf -o "$WORK/snap.json" -w '%{time_total}' -X POST $BASE/api/v1/previews \
            -H 'content-type: application/json' \
            -d "{\"workspaceRoot\":\"$WORK/ws\",\"relativePath\":\"$f\"}")
        url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$WORK/snap.json")
        g=$(curl -sf -o /dev/null -w '%{time_total}' "${url}grid/")
        m=$(curl -sf -o /dev/null -w '%{time_total}' "${url}grid/meta.json")
        r=$(curl -sf -o /dev/null -w '%{time_total}' "${url}grid/rows/0/0")
        python3 -c 'import sys; p, g, m, r = (float(x) * 1000 for x in sys.argv[1:]); print(f"   POST {p:.1f} ms, grid/ {g:.1f}, meta.json {m:.1f}, rows/0/0 {r:.1f}: POST -> first block {p + g + m + r:.1f} ms")' "$t" "$g" "$m" "$r"
        until_complete "$url"
        # Later blocks, none fetched before, once the table is read whole.
        later=""
        for b in 1234 2345 3456 4567; do
            later="$later $(curl -sf -o /dev/null -w '%{time_total}' "${url}grid/rows/0/$((b + run))")"
        done
        echo "   later blocks (s):$later"
    done
    echo "== $f, Chromium"
    node "$HERE/sheet_first_screen.js" $BASE "$WORK/ws" "$f" "$RUNS"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
