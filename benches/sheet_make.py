#!/usr/bin/env python3
"""Writes the spreadsheet benchmark input: a ROWS x 10 workbook (a header row, then five
number columns, two date/percent/currency-formatted ones and three shared-string columns),
as a producer would write it (shared strings, a styles part, one sheet). Deterministic.

    python3 benches/sheet_make.py OUT.xlsx [ROWS]
"""
import sys
import zipfile

out = sys.argv[1]
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
strings = [f"{a} {b}" for a in words for b in words] + [f"id-{i}" for i in range(1000)]
index = {s: i for i, s in enumerate(strings)}


def col(c):
    return "ABCDEFGHIJ"[c]


def sheet():
    yield '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    yield '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>'
    head = "".join(f'<c r="{col(c)}1" t="inlineStr" s="1"><is><t>col {c}</t></is></c>' for c in range(10))
    yield f'<row r="1">{head}</row>'
    for r in range(2, rows + 2):
        cells = [
            f'<c r="A{r}"><v>{r - 1}</v></c>',
            f'<c r="B{r}" s="2"><v>{(r * 37 % 10007) / 7:.4f}</v></c>',
            f'<c r="C{r}" s="3"><v>{44000 + r % 3650}</v></c>',
            f'<c r="D{r}" s="4"><v>{(r % 1000) / 1000}</v></c>',
            f'<c r="E{r}" s="5"><v>{r * 13 % 100000 - 50000}</v></c>',
            f'<c r="F{r}"><f>A{r}*2</f><v>{(r - 1) * 2}</v></c>',
            f'<c r="G{r}"><v>{r % 97}</v></c>',
            f'<c r="H{r}" t="s"><v>{index[strings[r % 100]]}</v></c>',
            f'<c r="I{r}" t="s"><v>{index["id-" + str(r % 1000)]}</v></c>',
            f'<c r="J{r}" t="s"><v>{index[strings[(r * 7) % 100]]}</v></c>',
        ]
        yield f'<row r="{r}">{"".join(cells)}</row>'
    yield "</sheetData></worksheet>"


sst = "".join(f"<si><t>{s}</t></si>" for s in strings)
styles = """<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00;[Red]\\-&quot;$&quot;#,##0.00"/></numFmts>
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>
<borders count="1"><border/></borders>
<cellXfs count="6"><xf numFmtId="0" fontId="0"/><xf numFmtId="0" fontId="1"/><xf numFmtId="4"/><xf numFmtId="14"/><xf numFmtId="10"/><xf numFmtId="164"/></cellXfs>
</styleSheet>"""
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>')
    z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>')
    z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>')
    z.writestr("xl/sharedStrings.xml", f'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{len(strings)}" uniqueCount="{len(strings)}">{sst}</sst>')
    z.writestr("xl/styles.xml", styles)
    z.writestr("xl/worksheets/sheet1.xml", "".join(sheet()))
print(out)
