//! Markdown rendering and sanitising: never panics and never lets a script element out.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &str| previewd_fuzz::markdown::run(data));
