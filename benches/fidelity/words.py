#!/usr/bin/env python3
"""Words previewd draws against the words of LibreOffice's PDF, after a corpus run.

    python3 words.py pptx WORK [OUT.json]   # WORK of run_corpus.sh
    python3 words.py docx WORK [OUT.json]   # WORK of run_docx.sh (page 1)

Runs words.js over WORK/html/*.html (NODE_PATH must reach playwright-core), reads
WORK/lo/pdf/*.pdf with `pdftotext -bbox`, pairs the two sides' words of each slide or
page in order (difflib; words of 4 characters or more that both sides spell alike) and
prints, per face previewd drew them in, how wide they are against LibreOffice's
(median and 10th/90th percentile of previewd / LibreOffice), then the files whose
words sit furthest from LibreOffice's. A face far from 1.000 is a face one side does not
draw as the other (a missing font, a fallback, a wrong style); a file whose words all
sit a few points away is a layout difference. OUT.json keeps every pair.
"""
import collections
import difflib
import html
import json
import os
import re
import statistics
import subprocess
import sys

WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>')


def lo_pages(pdf, first_only):
    args = ["pdftotext", "-bbox"] + (["-f", "1", "-l", "1"] if first_only else []) + [pdf, "-"]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    return [[(html.unescape(m[4]), float(m[0]), float(m[1]), float(m[2]) - float(m[0]))
             for m in WORD.findall(p)]
            for p in re.findall(r"<page[^>]*>(.*?)</page>", out, re.S)]


def main():
    mode, work = sys.argv[1], sys.argv[2]
    pages = sorted(f for f in os.listdir(f"{work}/html") if f.endswith(".html"))
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = ["node", f"{here}/words.js", mode]
    runs = [[f"{work}/html/{p}", "30"] for p in pages] if mode == "pptx" else [[f"{work}/html/{p}" for p in pages]]
    lines = []
    for r in runs:
        lines += subprocess.run(cmd + r, capture_output=True, text=True).stdout.splitlines()
    by_face = collections.defaultdict(list)
    pairs = []
    for line in lines:
        item = json.loads(line)
        pdf = f"{work}/lo/pdf/{item['name']}.pdf"
        if "words" not in item or not os.path.exists(pdf):
            continue
        lo = lo_pages(pdf, mode == "docx")
        if item["slide"] > len(lo):
            continue
        ours, theirs = item["words"], lo[item["slide"] - 1]
        match = difflib.SequenceMatcher(a=[w[0] for w in ours], b=[w[0] for w in theirs], autojunk=False)
        for tag, i1, i2, j1, j2 in match.get_opcodes():
            if tag != "equal":
                continue
            for a, b in zip(ours[i1:i2], theirs[j1:j2]):
                if len(a[0]) < 4 or b[3] <= 0:
                    continue
                face = f"{a[5]} {a[6]} {a[7]}"
                by_face[face].append((a[3] / b[3], item["name"]))
                pairs.append([item["name"], item["slide"], a[0], a[1] - b[1], a[2] - b[2], a[3] / b[3], face])
    print("words  median  p10    p90    face (files)")
    for face, v in sorted(by_face.items(), key=lambda kv: -len(kv[1])):
        r = sorted(x[0] for x in v)
        files = sorted({x[1] for x in v})
        print(f"{len(r):5d}  {statistics.median(r):.3f}   {r[len(r) // 10]:.3f}  {r[len(r) * 9 // 10]:.3f}  {face} ({', '.join(files[:3])}{' …' if len(files) > 3 else ''})")
    print("\nfiles whose words of the same width sit > 3 pt away (share, median dx, dy)")
    by_file = collections.defaultdict(list)
    for name, slide, _, dx, dy, ratio, _ in pairs:
        if 0.98 < ratio < 1.02:
            by_file[(name, slide)].append((dx, dy))
    far = []
    for key, v in by_file.items():
        if len(v) >= 4:
            share = sum(1 for dx, dy in v if abs(dx) > 3 or abs(dy) > 3) / len(v)
            far.append((share, key, statistics.median(d[0] for d in v), statistics.median(d[1] for d in v)))
    for share, (name, slide), dx, dy in sorted(far, reverse=True)[:30]:
        if share > 0.05:
            print(f"{share:5.2f}  {name} {slide}  {dx:+.1f} {dy:+.1f}")
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            json.dump(pairs, f)


if __name__ == "__main__":
    main()
