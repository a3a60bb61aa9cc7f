//! A page's raster and text layer on arbitrary content streams: the input becomes the
//! content of one page (so the fuzzer explores operators, not file syntax), then the whole
//! input is also tried as a file.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::pdf_page::run(data));
