//! The PDF stage: bytes in, never paths. A document opens once per snapshot
//! ([`PdfDocument::open`]); then each page gives a raster at a requested scale
//! ([`PdfDocument::render`]) and its text with positions ([`PdfDocument::text`]).
//!
//! # Renderer
//!
//! Pages are parsed, interpreted and rasterized by `hayro` (`hayro-syntax` for the file
//! structure, `hayro-interpret` for content streams and fonts, `vello_cpu` for pixels):
//! pure Rust, `#![forbid(unsafe_code)]` in every one of its crates, and the only pure-Rust
//! renderer that covers the PDF imaging model (Type 1/CFF/TrueType/Type 3 fonts with
//! embedded substitutes for the standard 14, shadings, soft masks, blend modes, JPEG,
//! JPEG 2000, JBIG2 and CCITT images, optional content, and decryption of RC4 and AES
//! files).
//!
//! Measured against the alternatives on the 60 PDFs of the real corpus, each page at
//! 144 dpi against `pdftoppm` (`benches/pdf/README.md`, session 7, a loaded machine):
//! hayro's SSIM against poppler is 0.965 over files (0.983 without one 2 × 2 pixel page),
//! pdfium's 0.971 and MuPDF's 0.972 (through their Python bindings, in
//! `benches/pdf/alternatives.py`); raster time against poppler, median per file, 0.08 for hayro,
//! 0.34 for pdfium and 0.37 for MuPDF (the Python loop adds a copy and a PNG encode, so
//! the last two are high). Fidelity is in one class, so the choice is made by the rest:
//! - pdfium (`pdfium-render`) needs `libpdfium.so` at run time, a C++ library outside
//!   Cargo that `apt-cache search` does not find on the build machine;
//! - MuPDF (`mupdf` bindings) is C with vendored image and font libraries, under the AGPL;
//! - `pdf` with `pdf_render` (pathfinder): the renderer crate is unmaintained, misses
//!   shadings, Type 3 and most image filters, and was not kept up with `pdf` (judged from
//!   its source, not run);
//! - `lopdf`: structure only (objects, streams, text extraction by operator), no renderer.
//!
//! hayro 0.9 needs Rust 1.92, which set previewd's `rust-version`.
//!
//! Text with positions comes from the interpreter: [`text`] implements hayro's `Device`
//! and keeps each glyph's Unicode value (ToUnicode, glyph names, the Adobe glyph list) with
//! its transform; outline, metadata, page sizes, rotation and links come from the syntax
//! layer ([`model`]).
//!
//! # What is never followed
//!
//! hayro has no JavaScript engine and previewd asks it for nothing but pixels and glyphs:
//! JavaScript, form actions, launch actions, embedded files and links into other files are
//! never read. Link annotations to `http:` and `https:` URLs are exposed in the model
//! ([`model::Link`]) so the viewer can offer them; nothing opens them by itself.
//!
//! # Limits
//!
//! [`PdfLimits`] bounds objects, pages, inflated bytes (before the parser runs, see
//! [`guard`]), image pixels, page pixels, text runs and the time one page's text may take.
//! A raster runs under the page deadline ([`interrupt`]): the next object hayro looks up
//! past it stops the render with [`PdfError::Timeout`], and the caller shows
//! [`raster::timeout_tile`]. A page that ran past its deadline is remembered
//! ([`PdfDocument::is_slow`]) and not rendered again. What the interrupt cannot reach (one
//! content stream of many paths, bounded by the stream and pixel caps) is held by the
//! service's cap on renders past their deadline (`server::pdf`).

pub mod guard;
pub mod html;
pub mod interrupt;
pub mod limits;
pub mod model;
pub mod raster;
pub mod text;
pub mod writer;

use std::sync::Arc;
use std::time::{Duration, Instant};

use hayro::hayro_syntax::{DecryptionError, LoadPdfError, Pdf};
use interrupt::SharedBytes;

pub use limits::PdfLimits;
pub use model::PdfModel;
pub use raster::Raster;
pub use text::{PageText, TextRun};

/// Why a PDF cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdfError {
    /// Encrypted with a user password (or an unsupported scheme): previewd opens only files
    /// whose user password is empty.
    #[error("{0}")]
    Encrypted(String),
    /// Not a PDF previewd can read, or over one of its limits.
    #[error("{0}")]
    Corrupt(String),
    /// The page's raster ran past `pdf.page_timeout_ms` (the value) and was stopped.
    #[error("the page did not render within {0} ms")]
    Timeout(u64),
    /// A page number outside the document.
    #[error("the document has no page {0}")]
    NoSuchPage(usize),
    /// A failure of previewd itself (logged where it happened).
    #[error("internal error")]
    Internal,
}

impl PdfError {
    fn limit(reason: String) -> PdfError {
        PdfError::Corrupt(reason)
    }
}

/// An opened document: the parsed file and its model.
pub struct PdfDocument {
    /// The parsed file; replaced by a fresh parse when a stopped render left it unusable
    /// (see [`interrupt`]).
    pdf: std::sync::RwLock<Arc<Pdf>>,
    /// The file, to parse again.
    bytes: Arc<[u8]>,
    /// The model (pages, outline, metadata, fonts).
    pub model: PdfModel,
    limits: PdfLimits,
    /// Pages whose raster ran past its deadline once (0-based).
    slow: std::sync::Mutex<std::collections::HashSet<usize>>,
    /// How often a stopped render left the parsed file unusable and it was parsed again.
    reopened: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for PdfDocument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfDocument")
            .field("pages", &self.model.page_count)
            .finish_non_exhaustive()
    }
}

impl PdfDocument {
    /// Opens `bytes` within `limits`: the bounded pre-scan, the parse (with the empty user
    /// password), then the model.
    pub fn open(bytes: Arc<[u8]>, limits: &PdfLimits) -> Result<PdfDocument, PdfError> {
        if !bytes[..bytes.len().min(1024)]
            .windows(5)
            .any(|w| w == b"%PDF-")
        {
            return Err(PdfError::Corrupt(
                "the file is not a PDF (no %PDF- header)".into(),
            ));
        }
        let scan = guard::scan(&bytes, limits)?;
        let pdf = Pdf::new(Arc::new(SharedBytes(bytes.clone()))).map_err(|e| match e {
            LoadPdfError::Decryption(DecryptionError::PasswordProtected) => PdfError::Encrypted(
                "the PDF is protected by a password; previewd opens only PDFs without one".into(),
            ),
            LoadPdfError::Decryption(DecryptionError::UnsupportedAlgorithm) => PdfError::Encrypted(
                "the PDF is encrypted with a scheme previewd cannot read".into(),
            ),
            LoadPdfError::Decryption(_) => {
                PdfError::Encrypted("the PDF's encryption dictionary is damaged".into())
            }
            // hayro reports a file it cannot decrypt with the empty password as unreadable
            // when the password check fails inside its repair path.
            LoadPdfError::Invalid if scan.encrypted => PdfError::Encrypted(
                "the PDF is encrypted and does not open without a password; previewd opens only PDFs without one".into(),
            ),
            LoadPdfError::Invalid => PdfError::Corrupt("the PDF cannot be parsed".into()),
        })?;
        if pdf.len() > limits.max_objects {
            return Err(PdfError::limit(format!(
                "the file lists {} objects, over the limit of {} (pdf.max_objects)",
                pdf.len(),
                limits.max_objects
            )));
        }
        let pages = pdf.pages().len();
        if pages == 0 {
            return Err(PdfError::Corrupt("the PDF has no pages".into()));
        }
        if pages > limits.max_pages {
            return Err(PdfError::limit(format!(
                "the PDF has {pages} pages, over the limit of {} (pdf.max_pages)",
                limits.max_pages
            )));
        }
        if scan.encrypted {
            guard::check_decrypted_streams(&pdf, limits)?;
        }
        let model = model::read(&pdf, scan.encrypted, limits);
        Ok(PdfDocument {
            pdf: std::sync::RwLock::new(Arc::new(pdf)),
            bytes,
            model,
            limits: limits.clone(),
            slow: Default::default(),
            reopened: Default::default(),
        })
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.model.page_count
    }

    /// The parsed file.
    fn pdf(&self) -> Arc<Pdf> {
        self.pdf.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Runs `f` on page `index` of the parsed file.
    fn with_page<T>(
        &self,
        index: usize,
        f: impl FnOnce(&hayro::hayro_syntax::page::Page<'_>) -> Result<T, PdfError>,
    ) -> Result<T, PdfError> {
        let pdf = self.pdf();
        let page = pdf
            .pages()
            .get(index)
            .ok_or(PdfError::NoSuchPage(index + 1))?;
        f(page)
    }

    /// Renders page `index` (0-based) at `scale` pixels per point (lowered to fit the caps),
    /// stopped at `pdf.page_timeout_ms`.
    pub fn render(&self, index: usize, scale: f32) -> Result<Raster, PdfError> {
        self.render_with(index, scale, &hayro::RenderSettings::default())
    }

    /// [`PdfDocument::render`] with hayro's rasterizer settings given (see
    /// [`raster::render_page_with`]).
    pub fn render_with(
        &self,
        index: usize,
        scale: f32,
        settings: &hayro::RenderSettings,
    ) -> Result<Raster, PdfError> {
        self.render_budgeted(index, scale, settings, u64::MAX)
    }

    /// The render of [`PdfDocument::render_with`], also stopped at the `reads`-th read of
    /// the file's bytes (tests stop renders at exact points with it).
    fn render_budgeted(
        &self,
        index: usize,
        scale: f32,
        settings: &hayro::RenderSettings,
        reads: u64,
    ) -> Result<Raster, PdfError> {
        let timeout = self.limits.page_timeout_ms;
        let deadline = Instant::now() + Duration::from_millis(timeout);
        let pdf = self.pdf();
        let page = pdf
            .pages()
            .get(index)
            .ok_or(PdfError::NoSuchPage(index + 1))?;
        let outcome = interrupt::run_budgeted(deadline, reads, || {
            raster::render_page_with(page, scale, &self.limits, settings)
        });
        let stopped = match outcome {
            Ok(raster) => return raster,
            Err(stopped) => stopped,
        };
        if !interrupt::is_usable(&pdf) {
            self.reopen(&pdf);
        }
        match stopped {
            interrupt::Stopped::Deadline => {
                self.mark_slow(index);
                Err(PdfError::Timeout(timeout))
            }
            interrupt::Stopped::Panic => Err(PdfError::Corrupt(
                "the page could not be rendered (the renderer failed on it)".into(),
            )),
        }
    }

    /// Parses the file again in place of `broken` (unless another thread already did).
    fn reopen(&self, broken: &Arc<Pdf>) {
        let Ok(fresh) = Pdf::new(Arc::new(SharedBytes(self.bytes.clone()))) else {
            tracing::error!("a PDF that opened before does not parse again");
            return;
        };
        let mut slot = self.pdf.write().unwrap_or_else(|e| e.into_inner());
        if Arc::ptr_eq(&slot, broken) {
            tracing::warn!("a stopped render left the PDF unusable; it was parsed again");
            *slot = Arc::new(fresh);
            self.reopened
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Whether page `index` ran past its deadline before: its raster cannot be stopped, so
    /// it is not started again for this document.
    pub fn is_slow(&self, index: usize) -> bool {
        self.slow.lock().is_ok_and(|s| s.contains(&index))
    }

    /// Records that page `index` ran past its deadline.
    pub fn mark_slow(&self, index: usize) {
        if let Ok(mut s) = self.slow.lock() {
            s.insert(index);
        }
    }

    /// The "could not render in time" tile for page `index` at `scale`.
    pub fn timeout_tile(&self, index: usize, scale: f32) -> Result<Raster, PdfError> {
        let (w, h) = self.with_page(index, |page| Ok(page.render_dimensions()))?;
        raster::timeout_tile(w, h, scale, &self.limits)
    }

    /// The text runs of page `index`, within the run cap and the page deadline.
    pub fn text(&self, index: usize) -> Result<PageText, PdfError> {
        let deadline = Instant::now() + Duration::from_millis(self.limits.page_timeout_ms);
        self.with_page(index, |page| {
            Ok(text::extract(page, self.limits.max_text_runs, deadline))
        })
    }

    /// The limits the document was opened with.
    pub fn limits(&self) -> &PdfLimits {
        &self.limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_document_opens_with_its_text_and_links() {
        let page = writer::PageSpec::new(300.0, 200.0)
            .text(20.0, 150.0, 14.0, "Hello previewd")
            .link("https://example.com/a", [20.0, 140.0, 120.0, 160.0]);
        let file = writer::document(&[page.clone(), page], "Greeting", &[("Second".into(), 1)]);
        let doc = PdfDocument::open(file.into(), &PdfLimits::default()).unwrap();
        assert_eq!(doc.page_count(), 2);
        assert_eq!(doc.model.metadata.title.as_deref(), Some("Greeting"));
        assert_eq!(doc.model.pages[0].width, 300.0);
        assert_eq!(doc.model.outline[0].page, Some(1));
        let link = &doc.model.pages[0].links[0];
        assert_eq!(link.url, "https://example.com/a");
        assert!((link.y - 40.0).abs() < 0.01, "{link:?}");
        let text = doc.text(0).unwrap();
        assert_eq!(text.plain(), "Hello previewd");
        let run = &text.runs[0];
        assert!(
            (run.x - 20.0).abs() < 0.01 && (run.y - 50.0).abs() < 0.01,
            "{run:?}"
        );
        assert!((run.s - 14.0).abs() < 0.01, "{run:?}");
        let raster = doc.render(0, 2.0).unwrap();
        assert_eq!((raster.width, raster.height), (600, 400));
        assert!(matches!(doc.render(5, 1.0), Err(PdfError::NoSuchPage(6))));
    }

    #[test]
    fn a_page_of_nested_forms_stops_its_text_at_the_deadline() {
        // Twelve forms, each drawing the next four times, the last one a square: 4^12
        // (16.7 million) squares and no glyph, so only a deadline checked on every drawing
        // call (not only on text) ends it in time.
        const LEVELS: usize = 12;
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>".to_vec(),
            b"<< /Length 5 >>\nstream\n/X Do\nendstream".to_vec(),
        ];
        for level in 0..LEVELS {
            let (content, resources) = if level + 1 < LEVELS {
                (
                    "/X Do /X Do /X Do /X Do".to_string(),
                    format!("/Resources << /XObject << /X {} 0 R >> >>", 6 + level),
                )
            } else {
                ("0 0 1 1 re f".to_string(), String::new())
            };
            objects.push(
                format!(
                    "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] {resources} /Length {} >>\nstream\n{content}\nendstream",
                    content.len()
                )
                .into_bytes(),
            );
        }
        let limits = PdfLimits {
            page_timeout_ms: 1,
            ..PdfLimits::default()
        };
        let doc = PdfDocument::open(writer::assemble(&objects).into(), &limits).unwrap();
        let text = doc.text(0).unwrap();
        assert!(text.truncated && text.runs.is_empty(), "{text:?}");
    }

    #[test]
    fn a_word_gap_of_a_sixth_of_an_em_is_a_space_and_letterspacing_is_not() {
        // Small-capital headings of a real file (tika-testPDF_bad_page_303226.pdf) set
        // their words 0.155 em apart; letterspaced text (tika-testExtraSpaces.pdf) sets its
        // letters up to about 0.14 em apart.
        let page = writer::PageSpec {
            content: "BT /F1 10 Tf 20 150 Td [(SPECIAL) -165 (EXEMPT)] TJ ET\n\
                      BT /F1 10 Tf 1.3 Tc 20 100 Td (Here) Tj ET\n"
                .into(),
            ..writer::PageSpec::new(300.0, 200.0)
        };
        let file = writer::document(&[page], "gaps", &[]);
        let doc = PdfDocument::open(file.into(), &PdfLimits::default()).unwrap();
        assert_eq!(doc.text(0).unwrap().plain(), "SPECIAL EXEMPT\nHere");
    }

    #[test]
    fn a_render_stopped_at_any_read_leaves_the_document_rendering() {
        // The form's cross-reference entry points at the content stream's object, so the
        // first render rebuilds the table (under hayro-syntax's write lock, reading the
        // bytes as it goes). Stopping the render at each read in turn stops it inside that
        // rebuild at least once, which poisons the lock; the document must heal.
        let objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Resources << /XObject << /X 6 0 R >> >> /Contents 5 0 R >>".to_vec(),
            b"<< /Title (heal) >>".to_vec(),
            b"<< /Length 5 >>\nstream\n/X Do\nendstream".to_vec(),
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Length 16 >>\nstream\n0 0 50 50 re f\n\nendstream".to_vec(),
        ];
        let file = writer::assemble(&objects);
        let text = String::from_utf8_lossy(&file).into_owned();
        let entry = |n: usize| {
            let start = text.find("xref\n").unwrap() + "xref\n0 7\n".len() + 20 * n;
            start..start + 10
        };
        let mut broken = file.clone();
        let fifth = file[entry(5)].to_vec();
        broken[entry(6)].copy_from_slice(&fifth);
        let settings = hayro::RenderSettings::default();
        let reference = PdfDocument::open(file.into(), &PdfLimits::default())
            .unwrap()
            .render(0, 1.0)
            .unwrap();
        let mut reopened = 0;
        for reads in 1..=40 {
            let doc = PdfDocument::open(broken.clone().into(), &PdfLimits::default()).unwrap();
            let stopped = doc.render_budgeted(0, 1.0, &settings, reads);
            assert!(
                matches!(stopped, Err(PdfError::Timeout(_)) | Ok(_)),
                "{reads}: {stopped:?}"
            );
            doc.slow.lock().unwrap().clear();
            let again = doc.render(0, 1.0).unwrap();
            assert_eq!(again.png, reference.png, "stopped at read {reads}");
            reopened += doc.reopened.load(std::sync::atomic::Ordering::Relaxed);
        }
        assert!(reopened > 0, "no stop fell inside the table's rebuild");
    }
}
