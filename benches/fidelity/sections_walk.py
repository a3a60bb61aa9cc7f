#!/usr/bin/env python3
"""Walks a folder of DOCX files and checks that every document with more than one column in a
section shows those columns: for each column count N > 1 that a `w:sectPr` of the body asks for
(`w:cols w:num`, or several `w:col` children), the rendered page must hold an equal-column set
(`column-count:N`) or an unequal grid of N columns. Sections inside `w:sectPrChange` (a tracked
change's old properties) are skipped. It also counts the sections and the page frames.

Usage: sections_walk.py PREVIEWD_BINARY DOCX_DIR [OUT_TSV]
"""
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def wanted_columns(xml: str):
    xml = re.sub(r"<w:sectPrChange\b.*?</w:sectPrChange>", "", xml, flags=re.S)
    sections = re.findall(r"<w:sectPr\b[^>]*/>|<w:sectPr\b[^>]*>.*?</w:sectPr>", xml, flags=re.S)
    counts = []
    for sect in sections:
        cols = re.search(r"<w:cols\b([^>]*?)(/>|>(.*?)</w:cols>)", sect, flags=re.S)
        n = 1
        if cols:
            num = re.search(r'w:num="(\d+)"', cols.group(1))
            inner = cols.group(3) or ""
            children = len(re.findall(r"<w:col\b", inner))
            if children > 1 and 'w:equalWidth="0"' in cols.group(1):
                n = children
            elif num:
                n = int(num.group(1))
        counts.append(n)
    return counts


def shown_columns(html: str):
    shown = set(int(n) for n in re.findall(r"column-count:(\d+)", html))
    for grid in re.findall(r"grid-template-columns:([^;\"]*)", html):
        widths = re.findall(r"[\d.]+pt", grid)
        shown.add((len(widths) + 1) // 2)
    return shown


def main():
    binary, folder = sys.argv[1], Path(sys.argv[2])
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    rows, checked, ok = [], 0, 0
    for f in sorted(folder.glob("*.docx")):
        try:
            xml = zipfile.ZipFile(f).read("word/document.xml").decode("utf-8", "replace")
        except Exception as e:  # not a package: the service's corpus test covers these
            rows.append((f.name, "-", "-", "-", f"unreadable: {e.__class__.__name__}"))
            continue
        wanted = wanted_columns(xml)
        multi = sorted(set(n for n in wanted if n > 1))
        if len(wanted) < 2 and not multi:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / "out.html"
            run = subprocess.run([binary, "preview", str(f), "-o", str(page)],
                                 capture_output=True, timeout=120)
            if run.returncode != 0:
                rows.append((f.name, len(wanted), multi, "-", "render failed: " + run.stderr.decode()[-200:].strip()))
                checked += 1
                continue
            html = page.read_text("utf-8", "replace")
        shown = shown_columns(html)
        pages = html.count('<section class="docx-page"')
        missing = [n for n in multi if n not in shown]
        checked += 1
        verdict = "ok" if not missing else f"missing columns {missing}"
        ok += not missing
        rows.append((f.name, len(wanted), ",".join(map(str, multi)) or "1", pages, verdict))
    lines = ["file\tsections\tcolumn counts > 1\tpage frames\tverdict"]
    lines += ["\t".join(map(str, r)) for r in rows]
    text = "\n".join(lines) + "\n"
    if out:
        out.write_text(text)
    print(text)
    print(f"{ok} of {checked} documents with several sections or columns show every column set")


if __name__ == "__main__":
    main()
