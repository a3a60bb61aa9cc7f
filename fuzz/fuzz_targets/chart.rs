//! The chart engine (a DrawingML chart part read and drawn as SVG) on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::chart::run(data));
