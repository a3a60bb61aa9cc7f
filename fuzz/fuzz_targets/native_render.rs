//! The native export on arbitrary before/after texts: layout, PNG and PDF never panic, and
//! stay within the caps (a size-limit error is a valid answer).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::native_render::run(data));
