//! The XLSX reader on arbitrary bytes: parse, then every block of the grid and the
//! standalone page.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::xlsx::run(data));
