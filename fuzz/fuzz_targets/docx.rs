//! The DOCX parser and renderer on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use previewd::office::docx::{parse_docx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = parse_docx(data, &OfficeLimits::default()) {
        let _ = render_html(&doc, &RenderOptions::default());
    }
});
