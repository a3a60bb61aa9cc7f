//! The PPTX parser and renderer on arbitrary bytes.

use previewd::office::pptx::{parse_pptx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

/// One input.
pub fn run(data: &[u8]) {
    if let Ok(deck) = parse_pptx(data, &OfficeLimits::default()) {
        let _ = render_html(&deck, &RenderOptions::default());
    }
}
