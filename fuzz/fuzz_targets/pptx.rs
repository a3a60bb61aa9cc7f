//! The PPTX parser and renderer on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use previewd::office::pptx::{parse_pptx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

fuzz_target!(|data: &[u8]| {
    if let Ok(deck) = parse_pptx(data, &OfficeLimits::default()) {
        let _ = render_html(&deck, &RenderOptions::default());
    }
});
