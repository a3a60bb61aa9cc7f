//! The DOCX parser and renderer on arbitrary bytes.

use previewd::office::docx::{parse_docx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

/// One input.
pub fn run(data: &[u8]) {
    if let Ok(doc) = parse_docx(data, &OfficeLimits::default()) {
        let _ = render_html(&doc, &RenderOptions::default());
    }
}
