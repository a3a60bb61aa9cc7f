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
//! A raster cannot be stopped once hayro runs it; the caller gives it a deadline and shows
//! [`raster::timeout_tile`] past it (the render itself is bounded by the pixel caps). A page
//! that ran past its deadline is remembered ([`PdfDocument::is_slow`]) and not rendered
//! again, and the service starts no new raster while renders past their deadline hold half
//! its workers (`server::pdf`), so a hostile page costs at most the worker it took.

pub mod guard;
pub mod html;
pub mod limits;
pub mod model;
pub mod raster;
pub mod text;
pub mod writer;

use std::sync::Arc;
use std::time::{Duration, Instant};

use hayro::hayro_syntax::{DecryptionError, LoadPdfError, Pdf};

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
    pdf: Pdf,
    /// The model (pages, outline, metadata, fonts).
    pub model: PdfModel,
    limits: PdfLimits,
    /// Pages whose raster ran past its deadline once (0-based).
    slow: std::sync::Mutex<std::collections::HashSet<usize>>,
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
        let pdf = Pdf::new(Arc::new(SharedBytes(bytes))).map_err(|e| match e {
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
            pdf,
            model,
            limits: limits.clone(),
            slow: Default::default(),
        })
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.model.page_count
    }

    fn page(&self, index: usize) -> Result<&hayro::hayro_syntax::page::Page<'_>, PdfError> {
        self.pdf
            .pages()
            .get(index)
            .ok_or(PdfError::NoSuchPage(index + 1))
    }

    /// Renders page `index` (0-based) at `scale` pixels per point (lowered to fit the caps).
    pub fn render(&self, index: usize, scale: f32) -> Result<Raster, PdfError> {
        raster::render_page(self.page(index)?, scale, &self.limits)
    }

    /// [`PdfDocument::render`] with hayro's rasterizer settings given (see
    /// [`raster::render_page_with`]).
    pub fn render_with(
        &self,
        index: usize,
        scale: f32,
        settings: &hayro::RenderSettings,
    ) -> Result<Raster, PdfError> {
        raster::render_page_with(self.page(index)?, scale, &self.limits, settings)
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
        let (w, h) = self.page(index)?.render_dimensions();
        raster::timeout_tile(w, h, scale, &self.limits)
    }

    /// The text runs of page `index`, within the run cap and the page deadline.
    pub fn text(&self, index: usize) -> Result<PageText, PdfError> {
        let deadline = Instant::now() + Duration::from_millis(self.limits.page_timeout_ms);
        Ok(text::extract(
            self.page(index)?,
            self.limits.max_text_runs,
            deadline,
        ))
    }

    /// The limits the document was opened with.
    pub fn limits(&self) -> &PdfLimits {
        &self.limits
    }
}

/// The snapshot's bytes, shared with the parser without a copy.
struct SharedBytes(Arc<[u8]>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
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
}
