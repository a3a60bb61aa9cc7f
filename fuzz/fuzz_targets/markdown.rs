//! Markdown rendering and sanitising: never panics and never lets a script element out.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &str| {
    let html = previewd::preview::markdown::render(data, "docs", "doc/");
    assert!(!html.to_ascii_lowercase().contains("<script"));
});
