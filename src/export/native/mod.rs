//! The native export engine: diff PNG and PDF files drawn from the diff model, with no
//! browser.
//!
//! ```text
//! DiffModel + request ─► layout (the viewer's image frame as a display list, CSS px;
//!                        stops as soon as the frame passes the cap)
//!   ├ png: caps and scale lowering as the contract says ─► raster (boxes, borders and
//!   │      glyph masks at the device scale, into palette indices) ─► encode (PLTE
//!   │      PNG, a filter per row, fdeflate)
//!   └ pdf: page cap (50 × 1056 CSS px) and pixel cap at scale 1 ─► pdf (pdf-writer,
//!          vector paths, subset fonts with ToUnicode)
//! ```
//!
//! **Why these crates.** A diff image is a grid of monospace text over coloured bands: it
//! needs no layout engine and no shaper. `fontdue` rasterizes glyph outlines to coverage
//! masks (small, pure Rust, fast enough to rasterize each glyph once per size and cache
//! it); a shaper such as cosmic-text or swash brings ligatures, bidi reordering and
//! complex-script shaping that a code diff does not want (the viewer shows bidi controls
//! as visible pills rather than obeying them) at several times the code and start-up cost.
//! `fontdb` finds the machine's fonts for the characters the shipped DejaVu Sans Mono
//! lacks, `ttf-parser` reads their coverage and, glyph by glyph, their outlines, which
//! `ab_glyph_rasterizer` fills (a CJK face has 65,000 glyphs: parsing them all as fontdue
//! does would cost a second and hundreds of MB for the dozen a diff shows). Boxes, rounded boxes, borders and glyphs
//! are painted directly (`raster`) into one-byte palette indices (`canvas`): the frame
//! is a few dozen flat colours and anti-aliased text, so a palette built while painting
//! holds it, and a quarter of the bytes of RGBA go through painting, filtering and
//! deflate. `encode` writes the PNG itself around `fdeflate`'s stream (the palette is
//! known only after the last row; each row picks its own filter). `pdf-writer` writes
//! the PDF object by object (small, no runtime), and `subsetter` cuts each embedded face
//! down to the glyphs drawn; krilla would do both, but draws through its own text stack,
//! and here the PDF must place each glyph exactly where the PNG does.
//!
//! **Same frame as the viewer.** `layout` follows `viewers/diff/diff.css` for the image
//! variant, and that variant loads the shipped faces too (`fonts::image_font_css`), so
//! the Chromium engine and this one draw the same glyphs in the same boxes.
//!
//! **Bounded.** Layout stops at the tallest frame the cap allows, combining marks stack at
//! most eight deep, hidden controls and bidi overrides are drawn as labelled pills and
//! never reorder anything, and a glyph no font has is drawn as the `.notdef` box and
//! counted ([`NativeOutput::missing_glyphs`]).

mod canvas;
mod encode;
mod fonts;
mod layout;
mod pdf;
mod raster;
mod runs_cache;
mod text;
mod theme;

pub use fonts::{image_font_css, IMAGE_FONT_FAMILY};
pub use layout::{Frame, LayoutOptions};
pub use raster::paint;

use super::pdf::{PDF_MAX_PAGES, PDF_PAGE_CSS_PX};
use super::{ExportError, FrameBox};
use crate::diff::input::FileOptions;
use crate::diff::model::DiffModel;
use crate::diff::options::FileFormat;
use crate::diff::view::DEFAULT_HIGHLIGHT_MAX_BYTES;
use crate::diff::DiffRequest;

/// A file drawn natively, with its numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeOutput {
    /// PNG or PDF bytes.
    pub bytes: Vec<u8>,
    /// Scale used (PNG: the requested one, or lower to fit the cap).
    pub scale: f64,
    /// Pixels (PNG) or CSS px (PDF) across.
    pub width: u32,
    /// Pixels (PNG) or CSS px (PDF) down.
    pub height: u32,
    /// Frame size in CSS px.
    pub css_width: f32,
    /// See `css_width`.
    pub css_height: f32,
    /// Characters no font had, drawn as boxes.
    pub missing_glyphs: usize,
}

/// Layout options for `request` at its `fileMaxWidth`, allowed up to `max_height`.
pub fn layout_options(request: &DiffRequest, max_height: f32) -> LayoutOptions {
    LayoutOptions {
        width: request.file.max_width,
        title: request.title.clone(),
        layout: request.layout,
        theme: request.theme,
        presentation: request.presentation.clone(),
        expand_unchanged: request.expand_unchanged,
        lang: request.lang.clone(),
        highlight_max_bytes: DEFAULT_HIGHLIGHT_MAX_BYTES,
        max_height,
    }
}

/// The tallest frame a file may have, CSS px: over the pixel cap at scale 1 it could never
/// be drawn, and a PDF may also not pass its page cap.
fn height_limit(file: &FileOptions) -> f32 {
    let by_pixels = file.max_pixels as f64 / f64::from(file.max_width.max(1));
    let limit = match file.format {
        FileFormat::Png => by_pixels,
        FileFormat::Pdf => by_pixels.min(f64::from(PDF_MAX_PAGES) * PDF_PAGE_CSS_PX),
    };
    limit as f32
}

/// Lays out the frame of a diff call, refused (the size-limit error) once it is taller
/// than `max_height` CSS px.
pub fn frame(
    request: &DiffRequest,
    model: &DiffModel,
    max_height: f32,
) -> Result<Frame, ExportError> {
    layout::layout(model, &layout_options(request, max_height)).map_err(|_| ExportError::SizeLimit)
}

/// Renders the file of a diff call as its `fileFormat`.
pub fn render(request: &DiffRequest, model: &DiffModel) -> Result<NativeOutput, ExportError> {
    let file = &request.file;
    let frame = frame(request, model, height_limit(file))?;
    match file.format {
        FileFormat::Png => png(&frame, file.scale, file.max_pixels),
        FileFormat::Pdf => pdf(&frame, file.max_pixels),
    }
}

/// The frame as a PNG at `scale`, lowered (not below 1) to fit `max_pixels`.
pub fn png(frame: &Frame, scale: f64, max_pixels: u64) -> Result<NativeOutput, ExportError> {
    let scale = fit_scale(frame, scale, max_pixels)?;
    let (bytes, width, height) = raster::render_png(frame, scale).map_err(|e| {
        tracing::warn!(error = %e, "native PNG encoding failed");
        ExportError::Browser("encoding the image failed".into())
    })?;
    Ok(NativeOutput {
        bytes,
        scale,
        width,
        height,
        css_width: frame.width,
        css_height: frame.height,
        missing_glyphs: frame.missing_glyphs,
    })
}

/// The scale the PNG is drawn at: the wanted one when it fits the cap, else the largest
/// that fits (in steps of 0.01, as the Chromium path lowers it), never below 1.
pub fn fit_scale(frame: &Frame, scale: f64, max_pixels: u64) -> Result<f64, ExportError> {
    let frame_box = FrameBox {
        x: 0.0,
        y: 0.0,
        width: f64::from(frame.width),
        height: f64::from(frame.height),
    };
    let mut plan = super::png::Plan::new(&frame_box, scale);
    // Each step lowers the scale by at least 0.01 from at most 4, so this ends.
    while plan.pixels() > max_pixels {
        let next =
            super::png::lower_scale(&frame_box, &plan, max_pixels).ok_or(ExportError::SizeLimit)?;
        plan = super::png::Plan::new(&frame_box, next);
    }
    Ok(plan.scale)
}

/// The frame as a one-page PDF, refused over the page cap or the pixel cap at scale 1.
pub fn pdf(frame: &Frame, max_pixels: u64) -> Result<NativeOutput, ExportError> {
    let (w, h) = (
        f64::from(frame.width).ceil(),
        f64::from(frame.height).ceil(),
    );
    if w * h > max_pixels as f64 || (h / PDF_PAGE_CSS_PX).ceil() > f64::from(PDF_MAX_PAGES) {
        return Err(ExportError::SizeLimit);
    }
    Ok(NativeOutput {
        bytes: pdf::write(frame),
        scale: 1.0,
        width: w as u32,
        height: h as u32,
        css_width: frame.width,
        css_height: frame.height,
        missing_glyphs: frame.missing_glyphs,
    })
}
