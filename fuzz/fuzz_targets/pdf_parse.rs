//! The PDF stage's pre-scan, parser and model (outline, links, fonts) on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::pdf_parse::run(data));
