#!/usr/bin/env python3
"""The renderers previewd could have used, on the same corpus and by the same measures as
`cargo bench --bench pdf_corpus`: pdfium (C++, through pypdfium2) and MuPDF (C, through
PyMuPDF), each page at the same pixel size as `pdftoppm -r DPI`, timed in-process (open
excluded, rendering to an RGB buffer and PNG encoding included), and the SSIM of each page
against poppler's with the bench's own window (8 x 8, a step of 4, on grey).

    pip install pypdfium2 pymupdf      # not dependencies of previewd: only this comparison
    python3 benches/pdf/alternatives.py ../shared/corpus-real/pdf [MAX_PAGES] [DPI]

Prints a Markdown table per file and the medians. poppler's time here is its process per
file less a 1-dpi run of page 1 (as in the Rust bench), so the ratios line up with it.
"""
import glob
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image


def ssim(a, b):
    """Mean SSIM over 8 x 8 windows, a step of 4, on the common area (as the Rust bench)."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    a = a[:h, :w].astype(np.float64)
    b = b[:h, :w].astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2

    def windows(x):
        # Sums over 8 x 8 windows at every 4th pixel, from an integral image.
        s = np.pad(x, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
        ys = np.arange(0, h - 7, 4)
        xs = np.arange(0, w - 7, 4)
        y0, x0 = np.meshgrid(ys, xs, indexing="ij")
        return (s[y0 + 8, x0 + 8] - s[y0, x0 + 8] - s[y0 + 8, x0] + s[y0, x0]) / 64.0

    ma, mb = windows(a), windows(b)
    va = windows(a * a) - ma * ma
    vb = windows(b * b) - mb * mb
    cov = windows(a * b) - ma * mb
    m = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(m.mean()) if m.size else 0.0


def grey_png(img):
    """PNG-encodes (as both renderers' callers would) and returns the grey pixels."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return np.asarray(img.convert("L"))


def poppler(path, pages, dpi, scratch):
    def run(first, last, r, prefix):
        t = time.perf_counter()
        ok = subprocess.run(["timeout", "60", "pdftoppm", "-r", str(r), "-png", "-f", str(first),
                             "-l", str(last), path, prefix], capture_output=True).returncode == 0
        return (time.perf_counter() - t) * 1000 if ok else None

    prefix = os.path.join(scratch, "p")
    total = run(1, pages, dpi, prefix)
    if total is None:
        return None, []
    base = min(filter(None, [run(1, 1, 1, os.path.join(scratch, "b")) for _ in range(3)]),
               default=0.0)
    files = sorted(glob.glob(prefix + "-*.png"))
    imgs = [np.asarray(Image.open(f).convert("L")) for f in files]
    for f in glob.glob(os.path.join(scratch, "*.png")):
        os.remove(f)
    return max(total - min(base, total), 0.01), imgs


def with_pdfium(path, pages, scale):
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(path)
    out, t = [], 0.0
    for i in range(min(pages, len(doc))):
        s = time.perf_counter()
        img = doc[i].render(scale=scale, draw_annots=True).to_pil().convert("RGB")
        g = grey_png(img)
        t += time.perf_counter() - s
        out.append(g)
    return t * 1000, out


def with_mupdf(path, pages, scale):
    import pymupdf
    doc = pymupdf.open(path)
    out, t = [], 0.0
    for i in range(min(pages, doc.page_count)):
        s = time.perf_counter()
        pix = doc[i].get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
        img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        g = grey_png(img)
        t += time.perf_counter() - s
        out.append(g)
    return t * 1000, out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus-real/pdf"
    max_pages = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    dpi = int(sys.argv[3]) if len(sys.argv) > 3 else 144
    scale = dpi / 72.0
    engines = {"pdfium": with_pdfium, "mupdf": with_mupdf}
    print(f"{dpi} dpi, at most {max_pages} pages per file; load average {os.getloadavg()}\n")
    print("| file | pages | pdftoppm ms | " + " | ".join(
        f"{e} ms | {e} ratio | {e} SSIM" for e in engines) + " |")
    print("|---|---:|---:|" + "---:|---:|---:|" * len(engines))
    ratios = {e: [] for e in engines}
    ssims = {e: [] for e in engines}
    for path in sorted(glob.glob(os.path.join(folder, "*.pdf"))):
        name = os.path.basename(path)
        with tempfile.TemporaryDirectory() as scratch:
            try:
                import pypdfium2 as pdfium
                n = min(max_pages, len(pdfium.PdfDocument(path)))
            except Exception as e:  # noqa: BLE001 - a file pdfium refuses is a row, not a stop
                print(f"| {name} | – | – | pdfium refused: {type(e).__name__} |")
                continue
            p_ms, p_imgs = poppler(path, n, dpi, scratch)
        cells = []
        for e, fn in engines.items():
            try:
                ms, imgs = fn(path, n, scale)
            except Exception as ex:  # noqa: BLE001
                cells.append(f"{type(ex).__name__} | – | –")
                continue
            vals = [ssim(a, b) for a, b in zip(imgs, p_imgs)]
            file_ssim = statistics.mean(vals) if vals else float("nan")
            if vals:
                ssims[e].append(file_ssim)
            ratio = ms / p_ms if p_ms else float("nan")
            if p_ms:
                ratios[e].append(ratio)
            cells.append(f"{ms:.1f} | {ratio:.2f} | {file_ssim:.3f}")
        print(f"| {name} | {n} | {p_ms or float('nan'):.1f} | " + " | ".join(cells) + " |")
    print()
    for e in engines:
        if ratios[e]:
            print(f"- {e}: time / pdftoppm median {statistics.median(ratios[e]):.2f} over "
                  f"{len(ratios[e])} files; SSIM vs pdftoppm, mean over {len(ssims[e])} files "
                  f"{statistics.mean(ssims[e]):.3f}")


if __name__ == "__main__":
    main()
