//! The PDF stage against poppler on a folder of PDFs (by default the real corpus,
//! `../shared/corpus-real/pdf`): for every file, whether it opens; per page, the raster time
//! at 1.5× next to `pdftoppm -r 144` (the same pixel size), the SSIM of the two rasters,
//! and the recall of the words `pdftotext` extracts in previewd's text layer.
//!
//! `cargo bench --bench pdf_corpus -- [DIR]` (needs `pdftoppm` and `pdftotext`). Prints a
//! Markdown table per file and the summary; see `benches/README.md` ("PDF").

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use previewd::pdf::{PdfDocument, PdfLimits};

const SCALE: f32 = 1.5;

/// Pages measured per file (`PDF_CORPUS_MAX_PAGES`, default 20): the corpus has a few
/// long manuals, and the first pages say as much about fidelity as the rest.
fn max_pages() -> usize {
    std::env::var("PDF_CORPUS_MAX_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// Seconds poppler may take for one file before it is stopped (it stalled on a file once).
const POPPLER_TIMEOUT_S: &str = "60";

struct Row {
    name: String,
    pages: usize,
    ours_ms: f64,
    poppler_ms: f64,
    ssim: Vec<f64>,
    recall: Option<(usize, usize)>,
    error: Option<String>,
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
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let mut rows = Vec::new();
    for file in &files {
        let row = measure(file, scratch.path());
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
    report(&rows);
}

fn measure(file: &Path, scratch: &Path) -> Row {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let bytes: Arc<[u8]> = std::fs::read(file).expect("readable file").into();
    let mut row = Row {
        name: name.clone(),
        pages: 0,
        ours_ms: 0.0,
        poppler_ms: 0.0,
        ssim: Vec::new(),
        recall: None,
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
    let pages = doc.page_count().min(max_pages());
    let mut ours = Vec::new();
    for i in 0..pages {
        match doc.render(i, SCALE) {
            Ok(r) => ours.push(Some(r)),
            Err(e) => {
                row.error = Some(format!("page {}: {e}", i + 1));
                ours.push(None);
            }
        }
    }
    row.ours_ms = started.elapsed().as_secs_f64() * 1000.0;
    row.pages = pages;

    let prefix = scratch.join(name.replace('.', "_"));
    let started = Instant::now();
    let status = Command::new("timeout")
        .args([
            POPPLER_TIMEOUT_S,
            "pdftoppm",
            "-r",
            "144",
            "-png",
            "-f",
            "1",
            "-l",
        ])
        .arg(pages.to_string())
        .arg(file)
        .arg(&prefix)
        .output();
    row.poppler_ms = started.elapsed().as_secs_f64() * 1000.0;
    if status.map(|o| !o.status.success()).unwrap_or(true) {
        row.error.get_or_insert_with(|| "pdftoppm failed".into());
    }
    let digits = doc.page_count().to_string().len();
    for (i, raster) in ours.iter().enumerate() {
        let Some(raster) = raster else { continue };
        let theirs = scratch.join(format!(
            "{}-{:0digits$}.png",
            prefix.file_name().unwrap().to_string_lossy(),
            i + 1
        ));
        let (Ok(a), Ok(b)) = (image::load_from_memory(&raster.png), image::open(&theirs)) else {
            continue;
        };
        row.ssim.push(ssim(&a.to_luma8(), &b.to_luma8()));
        let _ = std::fs::remove_file(theirs);
    }

    if let Ok(out) = Command::new("timeout")
        .args([POPPLER_TIMEOUT_S, "pdftotext", "-f", "1", "-l"])
        .arg(pages.to_string())
        .arg(file)
        .arg("-")
        .output()
    {
        let expected = words(&String::from_utf8_lossy(&out.stdout));
        let mut ours = String::new();
        for i in 0..pages {
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
            if let Some(n) = have.get_mut(w).filter(|n| **n > 0) {
                *n -= 1;
                found += 1;
            }
        }
        row.recall = Some((found, expected.len()));
    }
    row
}

/// Lower-case words of letters and digits (what both extractors agree a word is).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Mean SSIM over 8 × 8 windows of the common area of two grey images.
fn ssim(a: &image::GrayImage, b: &image::GrayImage) -> f64 {
    let w = a.width().min(b.width());
    let h = a.height().min(b.height());
    let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
    let mut total = 0.0;
    let mut n = 0usize;
    for by in (0..h.saturating_sub(7)).step_by(8) {
        for bx in (0..w.saturating_sub(7)).step_by(8) {
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
    if n == 0 {
        0.0
    } else {
        total / n as f64
    }
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

fn report(rows: &[Row]) {
    println!("| file | pages | previewd ms | pdftoppm ms | ratio | SSIM (mean) | recall | note |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        let ssim = if r.ssim.is_empty() {
            "–".to_string()
        } else {
            format!("{:.3}", r.ssim.iter().sum::<f64>() / r.ssim.len() as f64)
        };
        let recall = match r.recall {
            Some((_, 0)) | None => "–".to_string(),
            Some((f, t)) => format!("{:.3}", f as f64 / t as f64),
        };
        let ratio = if r.pages > 0 && r.poppler_ms > 0.0 {
            format!("{:.2}", r.ours_ms / r.poppler_ms)
        } else {
            "–".into()
        };
        println!(
            "| {} | {} | {:.1} | {:.1} | {ratio} | {ssim} | {recall} | {} |",
            r.name,
            r.pages,
            r.ours_ms,
            r.poppler_ms,
            r.error.as_deref().unwrap_or("")
        );
    }
    let opened: Vec<&Row> = rows.iter().filter(|r| r.pages > 0).collect();
    let ratios: Vec<f64> = opened
        .iter()
        .filter(|r| r.poppler_ms > 0.0)
        .map(|r| r.ours_ms / r.poppler_ms)
        .collect();
    let pages_ssim: Vec<f64> = opened.iter().flat_map(|r| r.ssim.iter().copied()).collect();
    let file_ssim: Vec<f64> = opened
        .iter()
        .filter(|r| !r.ssim.is_empty())
        .map(|r| r.ssim.iter().sum::<f64>() / r.ssim.len() as f64)
        .collect();
    let (found, total) = opened
        .iter()
        .filter_map(|r| r.recall)
        .fold((0, 0), |(f, t), (a, b)| (f + a, t + b));
    println!();
    println!(
        "files: {}, opened: {}, refused: {}",
        rows.len(),
        opened.len(),
        rows.len() - opened.len()
    );
    println!(
        "raster time ratio previewd/pdftoppm: median {:.2} (previewd total {:.0} ms, pdftoppm total {:.0} ms)",
        median(ratios),
        opened.iter().map(|r| r.ours_ms).sum::<f64>(),
        opened.iter().map(|r| r.poppler_ms).sum::<f64>()
    );
    println!(
        "SSIM vs pdftoppm: mean over files {:.3}, over {} pages {:.3}",
        file_ssim.iter().sum::<f64>() / file_ssim.len().max(1) as f64,
        pages_ssim.len(),
        pages_ssim.iter().sum::<f64>() / pages_ssim.len().max(1) as f64
    );
    println!(
        "text recall vs pdftotext: {found}/{total} words = {:.4}",
        found as f64 / total.max(1) as f64
    );
}
