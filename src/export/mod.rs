//! Diff export to PNG and PDF: the viewer's image variant rendered by a warm, locked-down
//! headless Chromium.
//!
//! ```text
//! DiffRequest + DiffModel ─► diff::view::render(Variant::Image { max_width }) ─► HTML
//!   ─► Exporter (one warm browser, bounded tabs + queue, deadline; see `browser`)
//!        ├ png: viewport = frame width, measure `.frame`, fit scale under the pixel cap,
//!        │      capture (tiles under the texture limit, stitched), verify
//!        └ pdf: print the page (text stays text), one page sized to the frame, caps
//! ```
//!
//! [`Exporter::render_diff`] is what the HTTP handler and the CLI call; it returns the file
//! bytes and the numbers the contract reports (`fileScale` is the scale actually used,
//! which the pixel cap may have lowered). [`Exporter::render_png`] and
//! [`Exporter::render_pdf`] take any HTML; the page still loads under the same network lock.
//!
//! Errors are [`ExportError`]; two of their messages are contract text
//! ([`NO_BROWSER_MESSAGE`], [`SIZE_LIMIT_MESSAGE`]). `From<ExportError>` gives the crate's
//! [`crate::error::Error`] with stable codes.

mod browser;
mod discover;
pub mod native;
mod pdf;
mod png;

use std::sync::Arc;

use serde::Serialize;

pub use browser::{BrowserState, ExportStats, CHROMIUM_FLAGS, DOCUMENT_CSP, DOCUMENT_ORIGIN};
pub use discover::{
    is_executable, platform_locations, Discovery, DiscoveryError, Found, Source, BROWSER_ENV_VARS,
    BROWSER_PATH_NAMES,
};
pub use pdf::{PdfOptions, PdfOutput, PdfPaper, PDF_MAX_PAGES, PDF_PAGE_CSS_PX};
pub use png::{PngOptions, PngOutput, MAX_TILE_DEVICE_PX};

use crate::config::{BrowserConfig, Config, ExportEngine};
use crate::diff::input::Presentation;
use crate::diff::model::{DiffModel, LineKind};
use crate::diff::options::{FileFormat, FileQuality};
use crate::diff::store::{PDF_FILE, PNG_FILE};
use crate::diff::view::{self, Variant, ViewOptions};
use crate::diff::DiffRequest;
use browser::{Lease, Pool, Settings};

/// The contract's message when no browser can be used; the reason follows after a space.
pub const NO_BROWSER_MESSAGE: &str = "Diff PNG/PDF rendering requires a Chromium-compatible browser. Set browser.executablePath or install Chrome/Chromium.";

/// The contract's message when a frame is over the pixel or page cap.
pub const SIZE_LIMIT_MESSAGE: &str = "Diff frame did not render within image size limits.";

/// Why an export failed. `Display` is the text for the caller (`fileError`), without host
/// paths or OS messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// No usable browser: none found, the configured one is not executable, or it would
    /// not start. Carries the reason.
    #[error("{NO_BROWSER_MESSAGE} {0}")]
    NoBrowser(String),
    /// The frame is over the pixel cap even at scale 1, or the PDF over its page cap.
    #[error("{SIZE_LIMIT_MESSAGE}")]
    SizeLimit,
    /// Every tab is busy and the queue is full.
    #[error("Too many diff renders are in progress; try again shortly.")]
    Busy,
    /// The render (including its wait for a tab) passed its deadline, in ms.
    #[error("The diff render did not finish within {0} ms.")]
    Timeout(u64),
    /// The browser failed mid-render (crashed, disconnected, refused a command) or its
    /// output did not verify; details are in the log.
    #[error("The diff render failed: {0}.")]
    Browser(String),
}

impl ExportError {
    /// The short reason, for `/healthz`.
    pub fn reason(&self) -> String {
        match self {
            ExportError::NoBrowser(reason) => reason.clone(),
            other => other.to_string(),
        }
    }
}

impl From<ExportError> for crate::error::Error {
    fn from(e: ExportError) -> Self {
        use crate::error::Error;
        match e {
            ExportError::NoBrowser(_) => Error::BrowserUnavailable(e.to_string()),
            ExportError::SizeLimit => Error::ImageTooLarge,
            ExportError::Busy => Error::Busy {
                reason: e.to_string(),
                retry_after: Some(1),
            },
            ExportError::Timeout(ms) => Error::Timeout(ms),
            ExportError::Browser(_) => Error::Internal,
        }
    }
}

/// A rendered diff file, with what the contract reports about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedFile {
    /// `png` or `pdf`.
    pub format: FileFormat,
    /// The file's bytes, verified.
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// The request's preset.
    pub quality: FileQuality,
    /// Device scale used: the request's, or lower when the pixel cap required (PNG).
    pub scale: f64,
    /// Frame width in CSS px (the request's `fileMaxWidth`).
    pub max_width: u32,
    /// Image width in pixels (PNG) or page width in CSS px (PDF).
    pub width: u32,
    /// Image height in pixels (PNG) or page height in CSS px (PDF).
    pub height: u32,
    /// PDF pages (1 for a PNG).
    pub pages: u32,
    /// The engine that drew it (not part of the contract's fields).
    #[serde(skip)]
    pub engine: EngineName,
    /// Characters no font had, drawn as boxes (native engine; 0 for Chromium).
    #[serde(skip)]
    pub missing_glyphs: usize,
}

/// Which engine drew a file, as `/healthz` and `/metrics` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineName {
    /// `export::native`.
    #[default]
    Native,
    /// Headless Chromium.
    Chromium,
}

/// Renders and failures of one engine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineCounter {
    /// Renders that produced a file.
    pub renders: u64,
    /// Renders that failed (limits, timeouts, browser failures; not 429s).
    pub failures: u64,
}

/// Counters per engine, for `/healthz` (`export.byEngine`) and `/metrics`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineStats {
    /// The engine diff files go to (`native` for `auto`).
    pub engine: EngineName,
    /// The native renderer.
    pub native: EngineCounter,
    /// Headless Chromium.
    pub chromium: EngineCounter,
    /// Characters the native renderer found in no font, over all its renders.
    pub missing_glyphs: u64,
}

/// The native engine's counters and its bound on renders at once.
struct NativeState {
    renders: std::sync::atomic::AtomicU64,
    failures: std::sync::atomic::AtomicU64,
    missing_glyphs: std::sync::atomic::AtomicU64,
    /// One render per core: each holds a band of pixels and its PNG, and more at once
    /// would only make each slower.
    slots: tokio::sync::Semaphore,
}

impl ExportedFile {
    /// The payload name in the artifact store ([`PNG_FILE`] or [`PDF_FILE`]).
    pub fn file_name(&self) -> &'static str {
        match self.format {
            FileFormat::Png => PNG_FILE,
            FileFormat::Pdf => PDF_FILE,
        }
    }
}

/// Renders HTML to PNG/PDF with one shared browser. Cheap to clone; every clone shares the
/// browser, its limits and its counters. The browser starts on the first render, never in
/// `new`; it is killed (with every helper process) when the last clone is dropped.
#[derive(Clone)]
pub struct Exporter {
    pool: Arc<Pool>,
    engine: ExportEngine,
    native: Arc<NativeState>,
}

impl std::fmt::Debug for Exporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exporter")
            .field("state", &self.state())
            .finish()
    }
}

impl Exporter {
    /// An exporter with these browser limits whose diff files go to Chromium. Starts
    /// nothing.
    pub fn new(config: &BrowserConfig) -> Exporter {
        Exporter::with_engine(config, ExportEngine::Chromium)
    }

    /// An exporter with these browser limits whose diff files go to `engine`.
    pub fn with_engine(config: &BrowserConfig, engine: ExportEngine) -> Exporter {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Exporter {
            pool: Pool::new(Settings::from(config)),
            engine,
            native: Arc::new(NativeState {
                renders: Default::default(),
                failures: Default::default(),
                missing_glyphs: Default::default(),
                slots: tokio::sync::Semaphore::new(cores.max(1)),
            }),
        }
    }

    /// An exporter from the service's configuration (`[export]` and `[browser]`).
    pub fn from_config(config: &Config) -> Exporter {
        Exporter::with_engine(&config.browser, config.export.engine)
    }

    /// The engine diff files go to (`auto` is the native one).
    pub fn engine(&self) -> EngineName {
        if self.engine.uses_browser() {
            EngineName::Chromium
        } else {
            EngineName::Native
        }
    }

    /// Renders and failures per engine.
    pub fn engine_stats(&self) -> EngineStats {
        use std::sync::atomic::Ordering::Relaxed;
        let browser = self.pool.shared.stats();
        EngineStats {
            engine: self.engine(),
            native: EngineCounter {
                renders: self.native.renders.load(Relaxed),
                failures: self.native.failures.load(Relaxed),
            },
            chromium: EngineCounter {
                renders: browser.renders,
                failures: browser.failures,
            },
            missing_glyphs: self.native.missing_glyphs.load(Relaxed),
        }
    }

    /// The browser's state, without starting it.
    pub fn state(&self) -> BrowserState {
        self.pool.shared.state()
    }

    /// Counters and queue length: renders and failures over both engines, the rest the
    /// browser's.
    pub fn stats(&self) -> ExportStats {
        use std::sync::atomic::Ordering::Relaxed;
        let mut stats = self.pool.shared.stats();
        stats.renders += self.native.renders.load(Relaxed);
        stats.failures += self.native.failures.load(Relaxed);
        stats
    }

    /// Closes the browser now; the next render starts a new one.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Pid of the running browser's main process (its process group id), if one runs.
    #[doc(hidden)]
    pub fn browser_pid(&self) -> Option<u32> {
        self.pool.shared.pid()
    }

    /// Test hook: documents containing `marker` are never answered, so their render hangs
    /// until its deadline, as a page that never finishes loading would.
    #[doc(hidden)]
    pub fn stall_documents_containing(&self, marker: Option<&str>) {
        self.pool.shared.set_stall_marker(marker.map(str::to_owned));
    }

    /// Renders `html` to PNG: the `.frame` element (or the whole page when it has none).
    pub async fn render_png(
        &self,
        html: &str,
        options: &PngOptions,
    ) -> Result<PngOutput, ExportError> {
        match self.run(html, Job::Png(options)).await? {
            Output::Png(out) => Ok(out),
            Output::Pdf(_) => unreachable!("a PNG job returns a PNG"),
        }
    }

    /// Renders `html` to PDF by printing it (text stays text).
    pub async fn render_pdf(
        &self,
        html: &str,
        options: &PdfOptions,
    ) -> Result<PdfOutput, ExportError> {
        match self.run(html, Job::Pdf(options)).await? {
            Output::Pdf(out) => Ok(out),
            Output::Png(_) => unreachable!("a PDF job returns a PDF"),
        }
    }

    /// The file for a diff call (`mode: "file"` or `"both"`): the image variant of the
    /// viewer at the request's `fileMaxWidth`, as the request's `fileFormat`, under its
    /// preset's pixel cap.
    pub async fn render_diff(
        &self,
        request: &DiffRequest,
        model: &DiffModel,
    ) -> Result<ExportedFile, ExportError> {
        if self.engine.uses_browser() {
            self.render_diff_chromium(request, model).await
        } else {
            self.render_diff_native(request, model).await
        }
    }

    /// [`Exporter::render_diff`] on the native engine: drawn on a blocking thread, one
    /// render per core at a time.
    async fn render_diff_native(
        &self,
        request: &DiffRequest,
        model: &DiffModel,
    ) -> Result<ExportedFile, ExportError> {
        use std::sync::atomic::Ordering::Relaxed;
        let result = {
            let _slot = self
                .native
                .slots
                .acquire()
                .await
                .map_err(|_| ExportError::Busy)?;
            let (request, model) = (request.clone(), model.clone());
            tokio::task::spawn_blocking(move || native::render(&request, &model))
                .await
                .unwrap_or_else(|_| Err(ExportError::Browser("the native render panicked".into())))
        };
        let file = &request.file;
        match result {
            Ok(out) => {
                self.native.renders.fetch_add(1, Relaxed);
                self.native
                    .missing_glyphs
                    .fetch_add(out.missing_glyphs as u64, Relaxed);
                Ok(ExportedFile {
                    format: file.format,
                    bytes: out.bytes,
                    quality: file.quality,
                    scale: match file.format {
                        FileFormat::Png => out.scale,
                        FileFormat::Pdf => file.scale,
                    },
                    max_width: file.max_width,
                    width: out.width,
                    height: out.height,
                    // The native PDF is one page sized to the frame.
                    pages: 1,
                    engine: EngineName::Native,
                    missing_glyphs: out.missing_glyphs,
                })
            }
            Err(e) => {
                self.native.failures.fetch_add(1, Relaxed);
                Err(e)
            }
        }
    }

    /// [`Exporter::render_diff`] in headless Chromium.
    async fn render_diff_chromium(
        &self,
        request: &DiffRequest,
        model: &DiffModel,
    ) -> Result<ExportedFile, ExportError> {
        let file = &request.file;
        // Refuse hopeless frames before building a page for them: every row is at least
        // one line tall, so this is a lower bound of the frame's height.
        let min_height = min_frame_height(model, &request.presentation);
        let too_big = f64::from(file.max_width) * min_height > file.max_pixels as f64
            || (file.format == FileFormat::Pdf
                && (min_height / PDF_PAGE_CSS_PX).ceil() > f64::from(PDF_MAX_PAGES));
        if too_big {
            self.pool
                .shared
                .failures
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Err(ExportError::SizeLimit);
        }
        let options = ViewOptions::from_request(
            request,
            Variant::Image {
                max_width: file.max_width,
            },
        );
        let model = model.clone();
        // Highlighting is CPU work; keep it off the async threads.
        let html = tokio::task::spawn_blocking(move || view::render(&model, &options))
            .await
            .map_err(|_| ExportError::Browser("building the page panicked".into()))?;
        match file.format {
            FileFormat::Png => {
                let out = self.render_png(&html, &PngOptions::from(file)).await?;
                Ok(ExportedFile {
                    format: FileFormat::Png,
                    bytes: out.bytes,
                    quality: file.quality,
                    scale: out.scale,
                    max_width: file.max_width,
                    width: out.width,
                    height: out.height,
                    pages: 1,
                    engine: EngineName::Chromium,
                    missing_glyphs: 0,
                })
            }
            FileFormat::Pdf => {
                let out = self.render_pdf(&html, &PdfOptions::from(file)).await?;
                Ok(ExportedFile {
                    format: FileFormat::Pdf,
                    bytes: out.bytes,
                    quality: file.quality,
                    scale: file.scale,
                    max_width: file.max_width,
                    width: out.css_width.ceil() as u32,
                    height: out.css_height.ceil() as u32,
                    pages: out.pages,
                    engine: EngineName::Chromium,
                    missing_glyphs: 0,
                })
            }
        }
    }

    /// Runs one render under the deadline (its wait for a tab included) and counts
    /// failures. When the browser died under the render (killed, crashed), it tries once
    /// more on a fresh browser, so one dead browser costs no caller a failure.
    async fn run(&self, html: &str, job: Job<'_>) -> Result<Output, ExportError> {
        let limit = self.pool.render_timeout();
        let work = async {
            let mut attempt = 0;
            loop {
                attempt += 1;
                let lease = self.pool.acquire().await?;
                let result = match job {
                    Job::Png(o) => png::render(&lease, html.to_owned(), o)
                        .await
                        .map(Output::Png),
                    Job::Pdf(o) => pdf::render(&lease, html.to_owned(), o)
                        .await
                        .map(Output::Pdf),
                };
                match result {
                    Ok(out) => {
                        lease.finish();
                        return Ok(out);
                    }
                    Err(ExportError::Browser(_)) if attempt == 1 && !lease.browser_alive() => {
                        tracing::info!("the export browser died during a render; retrying once");
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        let result = match tokio::time::timeout(limit, work).await {
            Ok(result) => result,
            Err(_) => Err(ExportError::Timeout(limit.as_millis() as u64)),
        };
        if let Err(e) = &result {
            if *e != ExportError::Busy {
                self.pool
                    .shared
                    .failures
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        result
    }
}

/// What [`Exporter::run`] renders.
#[derive(Clone, Copy)]
enum Job<'a> {
    Png(&'a PngOptions),
    Pdf(&'a PdfOptions),
}

enum Output {
    Png(PngOutput),
    Pdf(PdfOutput),
}

/// The smallest height the image page of `model` can have, in CSS px: one line per row of
/// the more compact layout.
fn min_frame_height(model: &DiffModel, presentation: &Presentation) -> f64 {
    let rows: usize = model
        .files
        .iter()
        .flat_map(|f| &f.hunks)
        .map(|h| {
            let old = h.lines.iter().filter(|l| l.kind != LineKind::Add).count();
            let new = h
                .lines
                .iter()
                .filter(|l| l.kind != LineKind::Delete)
                .count();
            old.max(new)
        })
        .sum();
    let line = f64::from(presentation.font_size) * presentation.line_spacing.clamp(1.0, 3.0);
    rows as f64 * line
}

/// The rendered frame's box in CSS px, relative to the document.
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
pub(crate) struct FrameBox {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// Measures `.frame` (or, on a page without one, the whole document) once fonts are ready.
const MEASURE_JS: &str = r#"(async () => {
  if (document.fonts && document.fonts.ready) { await document.fonts.ready; }
  const frame = document.querySelector('.frame');
  if (frame) {
    const r = frame.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
  }
  const d = document.documentElement, b = document.body;
  return {
    x: 0, y: 0,
    width: Math.max(d.scrollWidth, b ? b.scrollWidth : 0),
    height: Math.max(d.scrollHeight, b ? b.scrollHeight : 0),
  };
})()"#;

/// The frame's box, checked to be a real, finite, non-empty area.
pub(crate) async fn measure_frame(lease: &Lease<'_>) -> Result<FrameBox, ExportError> {
    let value = lease.eval(MEASURE_JS).await?;
    let frame: FrameBox = serde_json::from_value(value).map_err(|e| {
        tracing::warn!(error = %e, "unexpected frame measurement");
        ExportError::Browser("the page could not be measured".into())
    })?;
    let finite = [frame.x, frame.y, frame.width, frame.height]
        .iter()
        .all(|v| v.is_finite() && *v >= 0.0);
    if !finite || frame.width < 1.0 || frame.height < 1.0 {
        return Err(ExportError::Browser("the page rendered nothing".into()));
    }
    Ok(frame)
}
