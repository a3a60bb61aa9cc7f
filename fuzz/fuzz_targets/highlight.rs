//! Syntax highlighting of arbitrary text: every line comes back as flat, balanced spans
//! whose text is the input's, escaped.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::highlight::run(data));
