//! Caps on what one PDF may make previewd do. Each is checked before the work it bounds;
//! a breach is a [`PdfError`](super::PdfError) that names the key.

use serde::{Deserialize, Serialize};

const MIB: u64 = 1024 * 1024;

/// Limits of the PDF stage (`[pdf]` in the configuration file).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PdfLimits {
    /// Most pages a document may have.
    pub max_pages: usize,
    /// Most objects the cross-reference table may list (and `endobj` keywords the file may
    /// hold); parsing cost grows with this count.
    pub max_objects: usize,
    /// Most pixels (width × height) of one rendered page; a request at a scale that would
    /// exceed it is rendered at the largest scale that fits.
    pub max_page_pixels: u64,
    /// Longest side of a rendered page, in pixels (the rasterizer's own bound is 65,535).
    pub max_page_side: u32,
    /// Milliseconds one page may take to render; past it the page is shown as a "could not
    /// render this page in time" tile and the other pages still render.
    pub page_timeout_ms: u64,
    /// Most bytes one stream may inflate to.
    pub max_stream_bytes: u64,
    /// Most bytes all streams of a document may inflate to, together.
    pub max_total_inflated_bytes: u64,
    /// Largest inflated:compressed ratio of a stream that inflates past
    /// `ratio_threshold_bytes`.
    pub max_inflate_ratio: u64,
    /// Streams that inflate to less than this are exempt from the ratio check.
    pub ratio_threshold_bytes: u64,
    /// Largest image, in pixels (width × height), a document may hold; JPEG 2000 images are
    /// checked against the size in their own header too.
    pub max_image_pixels: u64,
    /// Most text runs kept for one page (the text layer's size).
    pub max_text_runs: usize,
    /// Most outline (bookmark) entries read.
    pub max_outline_items: usize,
}

impl Default for PdfLimits {
    fn default() -> Self {
        PdfLimits {
            max_pages: 5_000,
            max_objects: 500_000,
            // 1.5 × an A3 page at 2 × device pixel ratio is about 16 MP.
            max_page_pixels: 24_000_000,
            max_page_side: 12_000,
            page_timeout_ms: 5_000,
            max_stream_bytes: 64 * MIB,
            max_total_inflated_bytes: 512 * MIB,
            max_inflate_ratio: 200,
            ratio_threshold_bytes: 4 * MIB,
            max_image_pixels: 100_000_000,
            max_text_runs: 50_000,
            max_outline_items: 10_000,
        }
    }
}
