//! The PDF stage against poppler on a folder of PDFs (by default the real corpus,
//! `../shared/corpus-real/pdf`). For every file: whether it opens; per page, the raster time
//! next to `pdftoppm`'s at the same pixel size, the SSIM of the two rasters, and the recall
//! of the words `pdftotext` extracts in previewd's text layer. Then the worst pages are
//! written side by side (previewd left, poppler right) as PNG files to look at.
//!
//! `cargo bench --bench pdf_corpus -- [DIR]` (needs `pdftoppm` and `pdftotext`). Writes a
//! Markdown report (a row per file, the summary, the worst pages, the words missed) to
//! stdout and to `$PDF_CORPUS_OUT/report.md`; see `benches/pdf/README.md`.
//!
//! Environment:
//! - `PDF_CORPUS_SCALE`: pixels per point (default 2, that is 144 dpi: the viewer's 1.5×
//!   zoom in CSS pixels, 1.5 × 96 dpi); poppler renders at `72 × scale` dpi.
//! - `PDF_CORPUS_MAX_PAGES`: pages measured per file (default 20).
//! - `PDF_CORPUS_WORST`: worst pages written side by side (default 12).
//! - `PDF_CORPUS_HAYRO`: hayro's rasterizer settings, comma-separated: `nohint` (no
//!   hinting), `nocache` (no glyph cache), `interpolate` (bilinear images), `aliased` (no
//!   anti-aliasing); the defaults when unset, as the service renders.
//! - `PDF_CORPUS_OUT`: where the report and the pairs go (default
//!   `$TMPDIR/previewd-pdf-corpus`).
//!
//! Timing: previewd's raster time is the sum of `PdfDocument::render` over the pages (the
//! interpreter, the rasterizer and PNG encoding; the open is reported apart). poppler's is
//! one `pdftoppm` process for the same pages, less the same process run at 1 dpi on page 1
//! (process start, fontconfig, parsing the file), the best of three; both write PNG.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use image::{GrayImage, RgbImage};
use previewd::pdf::{PdfDocument, PdfLimits};

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Seconds poppler may take for one file before it is stopped (it stalled on a file once).
const POPPLER_TIMEOUT_S: &str = "60";

struct Row {
    name: String,
    pages: usize,
    open_ms: f64,
    ours_ms: f64,
    poppler_ms: f64,
    ssim: Vec<f64>,
    recall: Option<(usize, usize)>,
    missed: Vec<String>,
    /// Pages too small for one SSIM window, left out of the SSIM figures.
    tiny: usize,
    error: Option<String>,
}

impl Row {
    fn ratio(&self) -> Option<f64> {
        (self.pages > 0 && self.poppler_ms > 0.0 && self.ours_ms > 0.0)
            .then(|| self.ours_ms / self.poppler_ms)
    }
}

struct Settings {
    scale: f32,
    hayro: hayro::RenderSettings,
    hayro_label: String,
    max_pages: usize,
    scratch: PathBuf,
}

impl Settings {
    fn dpi(&self) -> String {
        format!("{}", (72.0 * self.scale).round())
    }
}

fn main() {
    // `cargo test --all-targets` runs this binary too, without `--bench`: the corpus it
    // measures lives outside the repository, so there is nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        println!("pdf_corpus: run it with `cargo bench --bench pdf_corpus -- DIR`");
        return;
    }
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/corpus-real/pdf"));
    let out = std::env::var_os("PDF_CORPUS_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("previewd-pdf-corpus"));
    std::fs::create_dir_all(&out).expect("the output folder");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let hayro_label = std::env::var("PDF_CORPUS_HAYRO").unwrap_or_default();
    let settings = Settings {
        scale: env_or("PDF_CORPUS_SCALE", 2.0),
        hayro: hayro_settings(&hayro_label),
        hayro_label,
        max_pages: env_or("PDF_CORPUS_MAX_PAGES", 20),
        scratch: scratch.path().to_path_buf(),
    };
    let mut rows = Vec::new();
    let mut pages = Vec::new();
    for file in &files {
        let row = measure(file, &settings, &mut pages);
        eprintln!(
            "{}: {} pages, ours {:.1} ms, poppler {:.1} ms{}",
            row.name,
            row.pages,
            row.ours_ms,
            row.poppler_ms,
            row.error
                .as_deref()
                .map(|e| format!(", {e}"))
                .unwrap_or_default()
        );
        rows.push(row);
    }
    pages.sort_by(|a, b| a.2.total_cmp(&b.2));
    pages.truncate(env_or("PDF_CORPUS_WORST", 12));
    let mut text = report(&rows, &settings);
    text.push_str("\n## Worst pages (previewd left, pdftoppm right)\n\n");
    for (rank, (file, page, ssim)) in pages.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy();
        let png = out.join(format!(
            "worst-{:02}-{}-p{}.png",
            rank + 1,
            stem(&name),
            page + 1
        ));
        match side_by_side(file, *page, &settings, &png) {
            Ok(()) => text.push_str(&format!(
                "- {ssim:.3} {name} page {}: `{}`\n",
                page + 1,
                png.display()
            )),
            Err(e) => text.push_str(&format!("- {ssim:.3} {name} page {}: {e}\n", page + 1)),
        }
    }
    print!("{text}");
    std::fs::write(out.join("report.md"), text).expect("the report");
}

/// hayro's settings from the `PDF_CORPUS_HAYRO` words (see the module docs).
fn hayro_settings(words: &str) -> hayro::RenderSettings {
    let mut settings = hayro::RenderSettings::default();
    for word in words.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word {
            "nohint" => settings.hinting = false,
            "nocache" => settings.glyph_caching = false,
            "interpolate" => settings.force_image_interpolation = true,
            "aliased" => settings.aliasing_threshold = Some(128),
            other => panic!("PDF_CORPUS_HAYRO: unknown setting {other:?}"),
        }
    }
    settings
}

fn stem(name: &str) -> String {
    name.trim_end_matches(".pdf").replace(['.', ' '], "_")
}

/// Renders the pages of `file` both ways and compares them; every page's SSIM goes into
/// `pages` for the worst-pages list.
fn measure(file: &Path, s: &Settings, pages: &mut Vec<(PathBuf, usize, f64)>) -> Row {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let bytes: Arc<[u8]> = std::fs::read(file).expect("readable file").into();
    let mut row = Row {
        name: name.clone(),
        pages: 0,
        open_ms: 0.0,
        ours_ms: 0.0,
        poppler_ms: 0.0,
        ssim: Vec::new(),
        recall: None,
        missed: Vec::new(),
        tiny: 0,
        error: None,
    };
    let started = Instant::now();
    let doc = match PdfDocument::open(bytes, &PdfLimits::default()) {
        Ok(doc) => doc,
        Err(e) => {
            row.error = Some(format!("refused: {e}"));
            return row;
        }
    };
    row.open_ms = ms(started);
    row.pages = doc.page_count().min(s.max_pages);
    let mut ours = Vec::new();
    for i in 0..row.pages {
        let started = Instant::now();
        let raster = doc.render_with(i, s.scale, &s.hayro);
        row.ours_ms += ms(started);
        match raster {
            Ok(r) => ours.push(Some(r)),
            Err(e) => {
                row.error = Some(format!("page {}: {e}", i + 1));
                ours.push(None);
            }
        }
    }
    let prefix = s.scratch.join(stem(&name));
    match poppler_raster_ms(file, row.pages, &s.dpi(), &prefix) {
        Some(t) => row.poppler_ms = t,
        None => {
            row.error.get_or_insert_with(|| "pdftoppm failed".into());
        }
    }
    for (i, raster) in ours.iter().enumerate() {
        let Some(raster) = raster else { continue };
        let theirs = poppler_page_path(&prefix, i + 1, doc.page_count());
        let (Ok(a), Ok(b)) = (image::load_from_memory(&raster.png), image::open(&theirs)) else {
            continue;
        };
        // A page smaller than one window (a 1 × 1 point page is 2 × 2 pixels) has no SSIM.
        let Some(value) = ssim(&a.to_luma8(), &b.to_luma8()) else {
            row.tiny += 1;
            continue;
        };
        row.ssim.push(value);
        pages.push((file.to_path_buf(), i, value));
        let _ = std::fs::remove_file(theirs);
    }
    recall(file, &doc, &mut row);
    row
}

/// Milliseconds since `t`.
fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// The file pdftoppm writes for page `n` (it pads to the digits of the page count).
fn poppler_page_path(prefix: &Path, n: usize, count: usize) -> PathBuf {
    let digits = count.to_string().len();
    let name = prefix.file_name().unwrap().to_string_lossy();
    prefix.with_file_name(format!("{name}-{n:0digits$}.png"))
}

fn pdftoppm(file: &Path, first: usize, last: usize, dpi: &str, prefix: &Path) -> Option<f64> {
    let started = Instant::now();
    let out = Command::new("timeout")
        .args([POPPLER_TIMEOUT_S, "pdftoppm", "-r", dpi, "-png", "-f"])
        .arg(first.to_string())
        .arg("-l")
        .arg(last.to_string())
        .arg(file)
        .arg(prefix)
        .output()
        .ok()?;
    out.status.success().then(|| ms(started))
}

/// pdftoppm's time for pages `1..=pages` at `dpi`, less its fixed cost (see the module docs).
fn poppler_raster_ms(file: &Path, pages: usize, dpi: &str, prefix: &Path) -> Option<f64> {
    let total = pdftoppm(file, 1, pages, dpi, prefix)?;
    let base_prefix = prefix.with_file_name("baseline");
    let base = (0..3)
        .filter_map(|_| pdftoppm(file, 1, 1, "1", &base_prefix))
        .fold(f64::INFINITY, f64::min);
    Some((total - base.min(total)).max(0.01))
}

/// The recall of `pdftotext`'s words in previewd's text layer, and the words it missed.
fn recall(file: &Path, doc: &PdfDocument, row: &mut Row) {
    let Ok(out) = Command::new("timeout")
        .args([POPPLER_TIMEOUT_S, "pdftotext", "-f", "1", "-l"])
        .arg(row.pages.to_string())
        .arg(file)
        .arg("-")
        .output()
    else {
        return;
    };
    let expected = words(&String::from_utf8_lossy(&out.stdout));
    let mut ours = String::new();
    for i in 0..row.pages {
        if let Ok(t) = doc.text(i) {
            ours.push_str(&t.plain());
            ours.push('\n');
        }
    }
    let mut have: HashMap<String, usize> = HashMap::new();
    for w in words(&ours) {
        *have.entry(w).or_default() += 1;
    }
    let mut found = 0;
    for w in &expected {
        match have.get_mut(w).filter(|n| **n > 0) {
            Some(n) => {
                *n -= 1;
                found += 1;
            }
            None if row.missed.len() < 12 => row.missed.push(w.clone()),
            None => {}
        }
    }
    row.recall = Some((found, expected.len()));
}

/// Lower-case words of letters and digits (what both extractors agree a word is).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Writes page `index` of `file` as previewd and poppler render it, side by side, to `png`.
fn side_by_side(file: &Path, index: usize, s: &Settings, png: &Path) -> Result<(), String> {
    let bytes: Arc<[u8]> = std::fs::read(file).map_err(|e| e.to_string())?.into();
    let doc = PdfDocument::open(bytes, &PdfLimits::default()).map_err(|e| e.to_string())?;
    let ours = doc
        .render_with(index, s.scale, &s.hayro)
        .map_err(|e| e.to_string())?;
    let ours = image::load_from_memory(&ours.png)
        .map_err(|e| e.to_string())?
        .to_rgb8();
    let prefix = s.scratch.join("pair");
    pdftoppm(file, index + 1, index + 1, &s.dpi(), &prefix).ok_or("pdftoppm failed")?;
    let theirs = image::open(poppler_page_path(&prefix, index + 1, doc.page_count()))
        .map_err(|e| e.to_string())?
        .to_rgb8();
    const GAP: u32 = 12;
    let mut pair = RgbImage::from_pixel(
        ours.width() + GAP + theirs.width(),
        ours.height().max(theirs.height()),
        image::Rgb([255, 0, 255]),
    );
    image::imageops::replace(&mut pair, &ours, 0, 0);
    image::imageops::replace(&mut pair, &theirs, i64::from(ours.width() + GAP), 0);
    pair.save(png).map_err(|e| e.to_string())
}

/// Mean SSIM over 8 × 8 windows (a step of 4) of the common area of two grey images;
/// `None` when not one window fits.
fn ssim(a: &GrayImage, b: &GrayImage) -> Option<f64> {
    let w = a.width().min(b.width());
    let h = a.height().min(b.height());
    let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
    let mut total = 0.0;
    let mut n = 0usize;
    for by in (0..h.saturating_sub(7)).step_by(4) {
        for bx in (0..w.saturating_sub(7)).step_by(4) {
            let (mut sa, mut sb, mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for y in by..by + 8 {
                for x in bx..bx + 8 {
                    let p = f64::from(a.get_pixel(x, y)[0]);
                    let q = f64::from(b.get_pixel(x, y)[0]);
                    sa += p;
                    sb += q;
                    saa += p * p;
                    sbb += q * q;
                    sab += p * q;
                }
            }
            let k = 64.0;
            let (ma, mb) = (sa / k, sb / k);
            let va = saa / k - ma * ma;
            let vb = sbb / k - mb * mb;
            let cov = sab / k - ma * mb;
            total += ((2.0 * ma * mb + c1) * (2.0 * cov + c2))
                / ((ma * ma + mb * mb + c1) * (va + vb + c2));
            n += 1;
        }
    }
    (n > 0).then(|| total / n as f64)
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len().is_multiple_of(2) {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The note column: the error, and pages left out of the SSIM figures.
fn note(r: &Row) -> String {
    let mut note = r.error.clone().unwrap_or_default();
    if r.tiny > 0 {
        if !note.is_empty() {
            note.push_str("; ");
        }
        note.push_str(&format!("{} page(s) under 8 × 8 pixels, no SSIM", r.tiny));
    }
    note
}

fn report(rows: &[Row], s: &Settings) -> String {
    let mut o = String::new();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    o.push_str(&format!(
        "# PDF corpus: previewd against poppler\n\n{} px/pt ({} dpi), at most {} pages per file, hayro settings: {}; load average before the report: {}\n\n",
        s.scale,
        s.dpi(),
        s.max_pages,
        if s.hayro_label.is_empty() { "defaults" } else { &s.hayro_label },
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    ));
    o.push_str("| file | pages | open ms | previewd raster ms | pdftoppm raster ms | ratio | SSIM mean | SSIM min | recall | note |\n");
    o.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    let dash = || "–".to_string();
    for r in rows {
        let (ssim_mean, ssim_min) = if r.ssim.is_empty() {
            (dash(), dash())
        } else {
            (
                format!("{:.3}", mean(&r.ssim)),
                format!("{:.3}", r.ssim.iter().copied().fold(1.0, f64::min)),
            )
        };
        let recall = match r.recall {
            Some((_, 0)) | None => dash(),
            Some((f, t)) => format!("{:.3} ({f}/{t})", f as f64 / t as f64),
        };
        let ratio = r.ratio().map_or_else(dash, |x| format!("{x:.2}"));
        o.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {ratio} | {ssim_mean} | {ssim_min} | {recall} | {} |\n",
            r.name,
            r.pages,
            r.open_ms,
            r.ours_ms,
            r.poppler_ms,
            note(r)
        ));
    }
    let opened: Vec<&Row> = rows.iter().filter(|r| r.pages > 0).collect();
    let ratios: Vec<f64> = opened.iter().filter_map(|r| r.ratio()).collect();
    let pages_ssim: Vec<f64> = opened.iter().flat_map(|r| r.ssim.iter().copied()).collect();
    let file_ssim: Vec<f64> = opened
        .iter()
        .filter(|r| !r.ssim.is_empty())
        .map(|r| mean(&r.ssim))
        .collect();
    let (found, total) = opened
        .iter()
        .filter_map(|r| r.recall)
        .fold((0, 0), |(f, t), (a, b)| (f + a, t + b));
    let files_recall: Vec<f64> = opened
        .iter()
        .filter_map(|r| r.recall.filter(|(_, t)| *t > 0))
        .map(|(f, t)| f as f64 / t as f64)
        .collect();
    o.push_str(&format!(
        "\nfiles: {}, opened: {}, refused: {}\n\n",
        rows.len(),
        opened.len(),
        rows.len() - opened.len()
    ));
    o.push_str(&format!(
        "- raster time previewd / pdftoppm: median {:.2} over {} files (previewd {:.0} ms, pdftoppm {:.0} ms in all)\n",
        median(ratios.clone()),
        ratios.len(),
        opened.iter().map(|r| r.ours_ms).sum::<f64>(),
        opened.iter().map(|r| r.poppler_ms).sum::<f64>()
    ));
    o.push_str(&format!(
        "- SSIM vs pdftoppm: mean over {} files {:.3}, over {} pages {:.3}; pages below 0.9: {}\n",
        file_ssim.len(),
        mean(&file_ssim),
        pages_ssim.len(),
        mean(&pages_ssim),
        pages_ssim.iter().filter(|v| **v < 0.9).count()
    ));
    o.push_str(&format!(
        "- text recall vs pdftotext: {found}/{total} words = {:.4} (mean over {} files with words {:.4})\n",
        found as f64 / total.max(1) as f64,
        files_recall.len(),
        mean(&files_recall)
    ));
    o.push_str("\n## Words missed (files with a recall below 0.97, first 12)\n\n");
    for r in &opened {
        if let Some((f, t)) = r
            .recall
            .filter(|(f, t)| *t > 0 && (*f as f64) < 0.97 * *t as f64)
        {
            o.push_str(&format!("- {} ({f}/{t}): {}\n", r.name, r.missed.join(" ")));
        }
    }
    o
}
