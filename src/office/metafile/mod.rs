//! EMF and WMF pictures converted to SVG, so documents and decks show them as drawings
//! instead of grey placeholders.
//!
//! [`to_svg`] takes the bytes of an Enhanced Metafile (EMF, with EMF+ files played through
//! their EMF fallback records) or a Windows Metafile (WMF, with or without the placeable
//! header) and plays its records against a model of the GDI device context
//! ([`state`]): pens, brushes, fonts, mapping modes, world transforms, clipping, paths and
//! the SaveDC/RestoreDC stack. Every drawing record becomes SVG written by [`svg`]; nothing
//! of the input is copied through as markup, every string is escaped, and bitmaps are
//! re-encoded as PNG `data:` URIs, so the result is safe to inline and has no external
//! references.
//!
//! Hostile input is bounded by [`MetafileLimits`]: a record count, a work budget (points,
//! pixels and records processed, instead of wall-clock time), a cap on bitmap pixels and
//! on the SVG's size, and a SaveDC depth. Damage stops playback with a
//! [`MetafileError`]; the caller then shows the old placeholder.
//!
//! Why not a crate: crates.io has `emfsdk` (a young read/edit/write SDK for EMF, EMF+ and
//! WMF built around byte-preserving round trips, with derive macros and no rendering caps)
//! and `emf-core`/`wmf-core` (git-only, described by their authors as work in progress).
//! Neither bounds work or output for untrusted files, and the SDK's typed round-trip model
//! is far more than a one-way player needs, so previewd plays the records itself from the
//! MS-EMF and MS-WMF record layouts.

mod bitmap;
mod draw;
mod emf;
mod record;
pub mod state;
pub mod svg;
#[cfg(test)]
mod tests;
mod wmf;

use thiserror::Error;

/// Caps on one conversion. The defaults keep a picture's peak memory well under
/// 128 MiB: bitmaps are decoded one at a time and never past `max_bitmap_pixels`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetafileLimits {
    /// Records played at most.
    pub max_records: u32,
    /// Work units at most: one per record, per point and per 64 decoded pixels.
    pub work_budget: u64,
    /// Pixels of all the bitmaps of one picture together.
    pub max_bitmap_pixels: u64,
    /// Bytes of SVG at most.
    pub max_output_bytes: usize,
    /// SaveDC levels kept at most (deeper saves are refused).
    pub max_saved_states: usize,
    /// GDI object table slots at most.
    pub max_objects: usize,
}

impl Default for MetafileLimits {
    fn default() -> Self {
        MetafileLimits {
            max_records: 500_000,
            work_budget: 20_000_000,
            max_bitmap_pixels: 8_000_000,
            max_output_bytes: 24 * 1024 * 1024,
            max_saved_states: 256,
            max_objects: 65_536,
        }
    }
}

/// Why a metafile could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MetafileError {
    /// Neither an EMF nor a WMF header.
    #[error("not an EMF or WMF picture")]
    NotMetafile,
    /// The header or a record is cut short or states an impossible size.
    #[error("the picture is damaged: {0}")]
    Damaged(&'static str),
    /// More records than [`MetafileLimits::max_records`].
    #[error("the picture has more than {0} records")]
    TooManyRecords(u32),
    /// The work budget ran out.
    #[error("the picture needs more work than the budget allows")]
    OverBudget,
    /// Bitmaps with more pixels than [`MetafileLimits::max_bitmap_pixels`].
    #[error("the picture's bitmaps have more than {0} pixels")]
    BitmapTooLarge(u64),
    /// The SVG grew past [`MetafileLimits::max_output_bytes`].
    #[error("the drawing is larger than {0} bytes")]
    OutputTooLarge(usize),
    /// SaveDC nested deeper than [`MetafileLimits::max_saved_states`].
    #[error("the picture saves its state more than {0} levels deep")]
    TooDeep(usize),
    /// The picture plays but draws nothing (say, an EMF+ file without EMF records).
    #[error("the picture draws nothing previewd can show")]
    Empty,
}

/// A converted picture: a standalone SVG document.
#[derive(Debug, Clone, PartialEq)]
pub struct Svg {
    /// The SVG markup, starting with `<svg`.
    pub text: String,
    /// The picture's width in CSS pixels (96 per inch), from its header.
    pub width: f64,
    /// The picture's height in CSS pixels.
    pub height: f64,
}

/// Which metafile format `bytes` start with, if any.
pub fn format_of(bytes: &[u8]) -> Option<Format> {
    if emf::is_emf(bytes) {
        Some(Format::Emf)
    } else if wmf::is_wmf(bytes) {
        Some(Format::Wmf)
    } else {
        None
    }
}

/// The two metafile formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Enhanced Metafile (also EMF+ dual files).
    Emf,
    /// Windows Metafile.
    Wmf,
}

/// Converts an EMF or WMF picture to SVG within `limits`.
pub fn to_svg(bytes: &[u8], limits: &MetafileLimits) -> Result<Svg, MetafileError> {
    match format_of(bytes) {
        Some(Format::Emf) => emf::convert(bytes, limits),
        Some(Format::Wmf) => wmf::convert(bytes, limits),
        None => Err(MetafileError::NotMetafile),
    }
}

/// The bytes to serve for an image part: a metafile converted to SVG (with its MIME
/// type), `None` when `bytes` are not a metafile or cannot be converted.
pub fn web_image(bytes: &[u8]) -> Option<Vec<u8>> {
    format_of(bytes)?;
    match to_svg(bytes, &MetafileLimits::default()) {
        Ok(svg) => Some(svg.text.into_bytes()),
        Err(e) => {
            tracing::debug!(error = %e, "metafile not converted");
            None
        }
    }
}

/// The finished SVG of a played canvas: `view` is the viewBox (device units), `size` the
/// picture's size in CSS pixels.
fn finish(
    canvas: draw::Canvas,
    view: (f64, f64, f64, f64),
    size: (f64, f64),
) -> Result<Svg, MetafileError> {
    // A picture with records that drew nothing (an EMF+-only file, a drawing of
    // unsupported records) keeps its placeholder; one with no records is a blank picture.
    if canvas.out.drawn == 0 && canvas.played() > 1 {
        return Err(MetafileError::Empty);
    }
    let sane = |v: f64, other: f64| if v.is_finite() && v > 0.0 { v } else { other };
    let (width, height) = (sane(size.0, view.2), sane(size.1, view.3));
    Ok(Svg {
        text: canvas.out.finish(view, (width, height)),
        width,
        height,
    })
}
