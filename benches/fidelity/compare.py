#!/usr/bin/env python3
"""Per-slide similarity of previewd's slide viewer against LibreOffice (run.sh drives it).

    compare.py score DECK VIEWER_DIR LO_DIR OUT_JSON [--width W] [--also W2 ...]
    compare.py report WORK FIDELITY_DIR --bench deck-80s [--versions TEXT]
    compare.py corpus-report WORK FIDELITY_DIR --kind pptx|docx --name corpus|docx [...]

score: VIEWER_DIR holds slide-001.png ... (Chromium screenshots of the stage, shoot.js),
LO_DIR holds p-01.png ... (pdftoppm pages of LibreOffice's PDF, page N = slide N). Each
pair is flattened on white, scaled with a box filter to the same size (W px wide, the
slide's aspect ratio), converted to greyscale (ITU-R 601 luma) and compared with
scikit-image's SSIM (default 7x7 uniform window, data range 255). A slide present on one
side only scores 0. `--also` adds scores at other widths for reference.

report: reads WORK/status.tsv and WORK/scores/*.json, writes FIDELITY_DIR/results.md and
the side-by-side pictures (FIDELITY_DIR/img/, 480 px wide, palette PNGs) of the bench
deck's five worst and two typical slides, plus any slide below 0.6 elsewhere. Reasons for
slides below 0.6 come from FIDELITY_DIR/reasons.tsv (deck, slide or *, reason), the
analysis text from FIDELITY_DIR/notes.md; both are hand-written and included verbatim.

corpus-report (run_corpus.sh, run_docx.sh): the same scores for a folder of real files.
Writes FIDELITY_DIR/NAME.md (overall mean, median and shares below 0.8 and 0.6; causes of
the slides below 0.8 counted by engine; the worst slides side by side; every file) and
NAME-scores.tsv (file, slide, SSIM). Causes come from FIDELITY_DIR/causes.tsv (kind, file,
slide or *, cause, note), hand-written after looking at the pairs; the analysis from
NAME-notes.md. With --baseline, an earlier NAME-scores.tsv is summarised next to this run.
"""
import argparse
import json
import re
import statistics
import sys
from pathlib import Path

import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity

LOW = 0.6


def numbered(folder, pattern):
    out = {}
    for p in Path(folder).glob("*.png"):
        m = re.fullmatch(pattern, p.name)
        if m:
            out[int(m.group(1))] = p
    return out


def flat(path):
    im = Image.open(path)
    if im.mode != "RGB":
        im = im.convert("RGBA")
        bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
        im = Image.alpha_composite(bg, im).convert("RGB")
    return im


def grey(path, size):
    return np.asarray(flat(path).resize(size, Image.Resampling.BOX).convert("L"), dtype=np.float64)


def ssim(a_path, b_path, width):
    w, h = Image.open(a_path).size
    size = (width, max(1, round(width * h / w)))
    return float(structural_similarity(grey(a_path, size), grey(b_path, size), data_range=255.0))


def score(args):
    viewer = numbered(args.viewer_dir, r"(?:slide|page)-(\d+)\.png")
    lo = numbered(args.lo_dir, r"p-0*(\d+)\.png")
    n = max([0, *viewer.keys(), *lo.keys()])
    rows = []
    for i in range(1, n + 1):
        row = {"deck": args.deck, "slide": i}
        if i not in viewer or i not in lo:
            row.update(ssim=0.0, missing="viewer" if i not in viewer else "libreoffice")
            for w in args.also:
                row[f"ssim_{w}"] = 0.0
        else:
            row["ssim"] = ssim(viewer[i], lo[i], args.width)
            for w in args.also:
                row[f"ssim_{w}"] = ssim(viewer[i], lo[i], w)
            row["blank"] = bool(flat(viewer[i]).convert("L").getextrema() == (255, 255)
                                and flat(lo[i]).convert("L").getextrema() == (255, 255))
            row["viewer"] = str(viewer[i])
            row["libreoffice"] = str(lo[i])
        rows.append(row)
    Path(args.out_json).write_text(json.dumps({"width": args.width, "slides": rows}, indent=1))
    mean = statistics.fmean(r["ssim"] for r in rows) if rows else float("nan")
    print(f"fidelity: {args.deck}: {len(rows)} slides, mean SSIM {mean:.4f}", file=sys.stderr)


def small_png(src, dst, width):
    im = flat(src)
    h = round(width * im.height / im.width)
    im = im.resize((width, h), Image.Resampling.LANCZOS)
    im = im.quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    im.save(dst, optimize=True)


def layouts(pptx_path):
    """Slide number -> its slide layout's name plus what it holds (table, chart, picture),
    read straight from the package."""
    import posixpath
    import zipfile

    out = {}
    with zipfile.ZipFile(pptx_path) as z:
        names = set(z.namelist())

        def rels(part):
            d, f = posixpath.split(part)
            r = f"{d}/_rels/{f}.rels"
            if r not in names:
                return []
            xml = z.read(r).decode("utf-8", "replace")
            return [(m.group(1), posixpath.normpath(posixpath.join(d, m.group(2))))
                    for m in re.finditer(r'Type="[^"]*/(\w+)"\s+Target="([^"]+)"', xml)]

        pres = z.read("ppt/presentation.xml").decode("utf-8", "replace")
        by_id = {}
        for m in re.finditer(r'Id="(rId\d+)"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="(rId\d+)"',
                             z.read("ppt/_rels/presentation.xml.rels").decode("utf-8", "replace")):
            rid, target = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            by_id[rid] = posixpath.normpath(posixpath.join("ppt", target))
        lst = re.search(r"<p:sldIdLst>(.*?)</p:sldIdLst>", pres, re.S)
        for n, rid in enumerate(re.findall(r'r:id="(rId\d+)"', lst.group(1) if lst else ""), 1):
            layout = next((t for kind, t in rels(by_id.get(rid, "")) if kind == "slideLayout"), None)
            name = "?"
            if layout in names:
                m = re.search(r'<p:cSld[^>]*\sname="([^"]*)"', z.read(layout).decode("utf-8", "replace"))
                name = m.group(1) if m else posixpath.basename(layout)
            part = by_id.get(rid, "")
            xml = z.read(part).decode("utf-8", "replace") if part in names else ""
            held = [label for tag, label in (("<a:tbl>", "table"), ("/chart\"", "chart"), ("<p:pic>", "picture"))
                    if tag in xml]
            out[n] = name + (f" + {', '.join(held)}" if held else "")
    return out


def load_reasons(path):
    reasons = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            deck, slide, reason = line.split("\t", 2)
            reasons[(deck, slide)] = reason
    return reasons


def reason_for(reasons, deck, slide):
    return reasons.get((deck, str(slide))) or reasons.get((deck, "*")) or "(not yet explained)"


def report(args):
    work, out = Path(args.work), Path(args.fidelity_dir)
    status = {}
    for line in (work / "status.tsv").read_text().splitlines():
        name, state, detail = line.split("\t", 2)
        status[name] = (state, detail)
    scores = {}
    for p in sorted((work / "scores").glob("*.json")):
        scores[p.stem] = json.loads(p.read_text())["slides"]
    reasons = load_reasons(out / "reasons.tsv")
    img = out / "img"
    img.mkdir(exist_ok=True)
    for old in img.glob("*.png"):
        old.unlink()

    def pictures(row, width=480):
        base = f"{row['deck']}-s{row['slide']:03d}"
        small_png(row["viewer"], img / f"{base}-previewd.png", width)
        small_png(row["libreoffice"], img / f"{base}-libreoffice.png", width)
        return (f"![previewd, slide {row['slide']}](img/{base}-previewd.png)",
                f"![LibreOffice, slide {row['slide']}](img/{base}-libreoffice.png)")

    bench = args.bench
    brow = scores.get(bench, [])
    lines = []
    w = lines.append
    w("# PPTX fidelity: previewd's slide viewer against LibreOffice")
    w("")
    w("Generated by `bash benches/fidelity/run.sh` (do not edit by hand; the reasons and the")
    w("analysis come from `reasons.tsv` and `notes.md` next to this file).")
    w("")
    w(f"- Renderers: {args.versions}.")
    w(f"- previewd: `previewd preview DECK --format html`, opened in headless Chromium; each slide")
    w(f"  shown through its `#slide-N` deep link by the viewer script, chrome hidden by injected")
    w(f"  CSS, the stage captured {args.width} px wide (`shoot.js`).")
    w(f"- LibreOffice: `soffice --headless --convert-to pdf` (hidden slides exported), then")
    w(f"  rasterised (as named under Renderers) to the same pixel size, {args.width} px wide.")
    w("- Score: both flattened on white, greyscale, box-filtered to the comparison width,")
    w("  scikit-image SSIM (7×7 uniform window, data range 255). 1.0 = identical pixels.")
    w("- Fonts: Carlito (metric-compatible with Calibri) and Liberation Sans (with Arial) are")
    w("  installed system-wide and used by both renderers.")
    w("")
    if brow:
        m = statistics.fmean(r["ssim"] for r in brow)
        m480 = statistics.fmean(r.get("ssim_480", r["ssim"]) for r in brow)
        low = sum(1 for r in brow if r["ssim"] < LOW)
        w(f"## Bench deck `{bench}.pptx` ({len(brow)} slides)")
        w("")
        w("| comparison size | mean SSIM | median | min | slides < 0.6 | target |")
        w("|---|---|---|---|---|---|")
        w(f"| {args.cmp_width} px (rendered size) | **{m:.3f}** | {statistics.median(r['ssim'] for r in brow):.3f} "
          f"| {min(r['ssim'] for r in brow):.3f} | {low} | mean ≥ 0.90 |")
        if "ssim_480" in brow[0]:
            v = [r["ssim_480"] for r in brow]
            w(f"| 480 px (for reference) | {m480:.3f} | {statistics.median(v):.3f} | {min(v):.3f} "
              f"| {sum(1 for x in v if x < LOW)} | |")
        w("")
        worst = sorted(brow, key=lambda r: r["ssim"])[:5]
        med = statistics.median(r["ssim"] for r in brow)
        chosen = {r["slide"] for r in worst}
        typical = [r for r in sorted(brow, key=lambda r: abs(r["ssim"] - med)) if r["slide"] not in chosen][:1]
        best = [r for r in sorted(brow, key=lambda r: -r["ssim"]) if r["slide"] not in chosen][:1]
        if args.bench_file:
            kinds = layouts(args.bench_file)
            groups = {}
            for r in brow:
                groups.setdefault(kinds.get(r["slide"], "?"), []).append(r["ssim"])
            w("By slide layout:")
            w("")
            w("| layout | slides | mean SSIM | min |")
            w("|---|---|---|---|")
            for k, v in sorted(groups.items(), key=lambda kv: statistics.fmean(kv[1])):
                w(f"| {k} | {len(v)} | {statistics.fmean(v):.3f} | {min(v):.3f} |")
            w("")
        w("### Worst five slides")
        w("")
        w("| slide | SSIM | previewd | LibreOffice |")
        w("|---|---|---|---|")
        for r in worst:
            a, b = pictures(r)
            w(f"| {r['slide']} | {r['ssim']:.3f} | {a} | {b} |")
        w("")
        w("### Typical slides (closest to the median, and the best)")
        w("")
        w("| slide | SSIM | previewd | LibreOffice |")
        w("|---|---|---|---|")
        for r in typical + best:
            a, b = pictures(r)
            w(f"| {r['slide']} | {r['ssim']:.3f} | {a} | {b} |")
        w("")

    w("## Every deck")
    w("")
    w(f"Mean and minimum SSIM at {args.cmp_width} px. Decks without slides are listed for completeness.")
    w("")
    w("| deck | slides | mean SSIM | min (slide) | note |")
    w("|---|---|---|---|---|")
    deck_means, all_scores = [], []
    for name in [bench] + sorted(n for n in status if n != bench):
        state, detail = status.get(name, ("missing", ""))
        rows = scores.get(name)
        if state == "refused":
            w(f"| `{name}` | — | — | — | refused by previewd: {detail.strip()} |")
            continue
        if not rows:
            note = "no slides" if detail == "0" else "LibreOffice made no PDF"
            w(f"| `{name}` | {detail} | — | — | {note} |")
            continue
        m = statistics.fmean(r["ssim"] for r in rows)
        lo = min(rows, key=lambda r: r["ssim"])
        missing = [r for r in rows if r.get("missing")]
        blank = sum(1 for r in rows if r.get("blank"))
        note = "; ".join(x for x in [
            f"{len(missing)} slide(s) missing on one side" if missing else "",
            f"{blank} slide(s) blank in both (score 1.0)" if blank else ""] if x)
        w(f"| `{name}` | {len(rows)} | {m:.3f} | {lo['ssim']:.3f} ({lo['slide']}) | {note} |")
        if name != bench:
            deck_means.append(m)
            all_scores += [r["ssim"] for r in rows]
    w("")
    if deck_means:
        w(f"Corpus (without the bench deck): {len(deck_means)} decks with slides, {len(all_scores)} slides; "
          f"mean of the deck means {statistics.fmean(deck_means):.3f}, mean over all slides "
          f"{statistics.fmean(all_scores):.3f}.")
        w("")

    lows = sorted((r for rows in scores.values() for r in rows if r["ssim"] < LOW),
                  key=lambda r: (r["deck"] != bench, r["deck"], r["slide"]))
    w(f"## Slides below {LOW}")
    w("")
    if not lows:
        w("None.")
    else:
        w("| deck | slide | SSIM | why | previewd | LibreOffice |")
        w("|---|---|---|---|---|---|")
        for r in lows:
            if r.get("missing"):
                a = b = f"(missing on the {r['missing']} side)"
            else:
                a, b = pictures(r, width=320)
            w(f"| `{r['deck']}` | {r['slide']} | {r['ssim']:.3f} | {reason_for(reasons, r['deck'], r['slide'])} | {a} | {b} |")
    w("")
    notes = out / "notes.md"
    if notes.exists():
        w(notes.read_text().rstrip())
        w("")
    (out / "results.md").write_text("\n".join(lines))


BAD = 0.8


def load_causes(path, kind):
    """(file, slide) -> (cause, note) from causes.tsv; slide "*" covers a whole file."""
    causes = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) < 4 or parts[0] != kind:
                continue
            causes[(parts[1], parts[2])] = (parts[3], parts[4] if len(parts) > 4 else "")
    return causes


def summary(values):
    if not values:
        return None
    return {
        "n": len(values),
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        "bad": sum(1 for v in values if v < BAD) / len(values),
        "low": sum(1 for v in values if v < LOW) / len(values),
        "min": min(values),
    }


def corpus_report(args):
    work, out = Path(args.work), Path(args.fidelity_dir)
    unit = "slide" if args.kind == "pptx" else "page"
    status = {}
    for line in (work / "status.tsv").read_text().splitlines():
        name, state, detail = line.split("\t", 2)
        status[name] = (state, detail)
    scores = {p.stem: json.loads(p.read_text())["slides"] for p in sorted((work / "scores").glob("*.json"))}
    causes = load_causes(out / "causes.tsv", args.kind)

    def cause(r):
        return causes.get((r["deck"], str(r["slide"]))) or causes.get((r["deck"], "*")) or ("?", "(not yet looked at)")

    rows = [r for name in sorted(scores) for r in scores[name]]
    (out / f"{args.name}-scores.tsv").write_text(
        "".join(f"{r['deck']}\t{r['slide']}\t{r['ssim']:.4f}\n" for r in rows))
    img = out / "img"
    img.mkdir(exist_ok=True)
    for old in img.glob(f"{args.name}-*.png"):
        old.unlink()
    lines = []
    w = lines.append
    script = "run_corpus.sh" if args.kind == "pptx" else "run_docx.sh"
    w(f"# {args.kind.upper()} fidelity over real files: previewd against LibreOffice")
    w("")
    w(f"Generated by `bash benches/fidelity/{script}` (do not edit by hand; causes come from")
    w(f"`causes.tsv`, the analysis from `{args.name}-notes.md`; every score is in `{args.name}-scores.tsv`).")
    w("")
    w(f"- Files: `{args.source}`.")
    w(f"- Renderers: {args.versions}.")
    if args.kind == "pptx":
        w(f"- previewd: the slide viewer in headless Chromium, each slide through its `#slide-N` deep link,")
        w(f"  stage {args.width} px wide (`shoot.js`), at most {args.cap} slides per deck; LibreOffice:")
        w(f"  PDF (hidden slides exported), rasterised as named under Renderers to the same pixel size.")
    else:
        w("- previewd: the Document view in headless Chromium at the page's width, page 1 cropped")
        w("  to the page box (the first section's page height from its top, `shoot_docx.js`);")
        w("  LibreOffice: PDF page 1, rasterised as named under Renderers to the same pixel size.")
    w("- Score: greyscale SSIM (scikit-image, 7×7 window) as in `results.md`; a unit present on one")
    w("  side only scores 0.")
    w("")
    s = summary([r["ssim"] for r in rows])
    states = {}
    for name, (state, detail) in status.items():
        if state == "ok" and name not in scores:
            state = f"no {unit}s" if detail.split(" ")[0] == "0" else "no LibreOffice PDF"
        states[state] = states.get(state, 0) + 1
    w("## Overall")
    w("")
    w(f"| run | files scored | {unit}s | mean SSIM | median | < {BAD} | < {LOW} | min |")
    w("|---|---|---|---|---|---|---|---|")

    def line(label, s, files):
        w(f"| {label} | {files} | {s['n']} | **{s['mean']:.3f}** | {s['median']:.3f} | "
          f"{100 * s['bad']:.1f} % | {100 * s['low']:.1f} % | {s['min']:.3f} |")

    if args.baseline and Path(args.baseline).exists():
        base = {}
        for l in Path(args.baseline).read_text().splitlines():
            d, n, v = l.split("\t")
            base[(d, int(n))] = float(v)
        line("baseline (`--baseline`)", summary(list(base.values())), len({d for d, _ in base}))
        common = [(base[(r["deck"], r["slide"])], r["ssim"]) for r in rows if (r["deck"], r["slide"]) in base]
        if s:
            line("this run", s, len(scores))
        if common:
            better = sum(1 for a, b in common if b > a + 0.01)
            worse = sum(1 for a, b in common if b < a - 0.01)
            w("")
            w(f"On the {len(common)} {unit}s in both runs: mean {statistics.fmean(a for a, _ in common):.3f} → "
              f"{statistics.fmean(b for _, b in common):.3f}; {better} better and {worse} worse by more than 0.01.")
    elif s:
        line("this run", s, len(scores))
    w("")
    w("Files by outcome: " + ", ".join(f"{k}: {v}" for k, v in sorted(states.items())) + ".")
    w("")
    bad = sorted((r for r in rows if r["ssim"] < BAD), key=lambda r: r["ssim"])
    w(f"## Causes of the {unit}s below {BAD}")
    w("")
    if not bad:
        w("None.")
    else:
        counts = {}
        for r in bad:
            counts.setdefault(cause(r)[0], []).append(r)
        w(f"By looking at each pair (`causes.tsv`); the first cause listed is the main one.")
        w("")
        w(f"| cause | {unit}s | files | mean SSIM |")
        w("|---|---|---|---|")
        for c, rs in sorted(counts.items(), key=lambda kv: -len(kv[1])):
            w(f"| {c} | {len(rs)} | {len({r['deck'] for r in rs})} | {statistics.fmean(r['ssim'] for r in rs):.3f} |")
    w("")
    # At most two per file, so one long deck does not fill the gallery.
    worst, per_file = [], {}
    for r in bad:
        if r.get("missing") or per_file.get(r["deck"], 0) >= 2 or len(worst) >= args.pictures:
            continue
        per_file[r["deck"]] = per_file.get(r["deck"], 0) + 1
        worst.append(r)
    if worst:
        w(f"## The {len(worst)} worst {unit}s side by side (at most two per file)")
        w("")
        w(f"| file | {unit} | SSIM | cause | previewd | LibreOffice |")
        w("|---|---|---|---|---|---|")
        for r in worst:
            base = f"{args.name}-{r['deck']}-{r['slide']:03d}"
            small_png(r["viewer"], img / f"{base}-previewd.png", 240)
            small_png(r["libreoffice"], img / f"{base}-lo.png", 240)
            c, note = cause(r)
            w(f"| `{r['deck']}` | {r['slide']} | {r['ssim']:.3f} | {c}: {note} | "
              f"![previewd](img/{base}-previewd.png) | ![LibreOffice](img/{base}-lo.png) |")
        w("")
    w(f"## Every {unit} below {BAD}")
    w("")
    w(f"| file | {unit} | SSIM | cause | note |")
    w("|---|---|---|---|---|")
    for r in bad:
        c, note = cause(r)
        if r.get("missing"):
            note = f"missing on the {r['missing']} side. {note}"
        w(f"| `{r['deck']}` | {r['slide']} | {r['ssim']:.3f} | {c} | {note} |")
    w("")
    w("## Every file")
    w("")
    w(f"| file | {unit}s scored (of) | mean SSIM | min ({unit}) | note |")
    w("|---|---|---|---|---|")
    for name in sorted(status):
        state, detail = status[name]
        rs = scores.get(name)
        if state != "ok":
            w(f"| `{name}` | — | — | — | {state}: {detail.strip()} |")
            continue
        shown, _, total = detail.partition(" ")
        if not rs:
            w(f"| `{name}` | {shown} ({total}) | — | — | {'no ' + unit + 's' if shown == '0' else 'LibreOffice made no PDF'} |")
            continue
        lo = min(rs, key=lambda r: r["ssim"])
        missing = sum(1 for r in rs if r.get("missing"))
        w(f"| `{name}` | {len(rs)} ({total or shown}) | {statistics.fmean(r['ssim'] for r in rs):.3f} | "
          f"{lo['ssim']:.3f} ({lo['slide']}) | {f'{missing} missing on one side' if missing else ''} |")
    w("")
    notes = out / f"{args.name}-notes.md"
    if notes.exists():
        w(notes.read_text().rstrip())
        w("")
    (out / f"{args.name}.md").write_text("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score")
    s.add_argument("deck")
    s.add_argument("viewer_dir")
    s.add_argument("lo_dir")
    s.add_argument("out_json")
    s.add_argument("--width", type=int, default=960)
    s.add_argument("--also", type=int, nargs="*", default=[])
    r = sub.add_parser("report")
    r.add_argument("work")
    r.add_argument("fidelity_dir")
    r.add_argument("--bench", default="deck-80s")
    r.add_argument("--bench-file", default="")
    r.add_argument("--versions", default="")
    r.add_argument("--width", type=int, default=960)
    r.add_argument("--cmp-width", type=int, default=960)
    c = sub.add_parser("corpus-report")
    c.add_argument("work")
    c.add_argument("fidelity_dir")
    c.add_argument("--kind", choices=["pptx", "docx"], default="pptx")
    c.add_argument("--name", default="corpus")
    c.add_argument("--versions", default="")
    c.add_argument("--width", type=int, default=960)
    c.add_argument("--cap", type=int, default=30)
    c.add_argument("--source", default="")
    c.add_argument("--baseline", default="")
    c.add_argument("--pictures", type=int, default=12)
    args = ap.parse_args()
    {"score": score, "report": report, "corpus-report": corpus_report}[args.cmd](args)


if __name__ == "__main__":
    main()
