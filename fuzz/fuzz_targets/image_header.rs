//! Image header inspection (raster magic numbers, SVG root element) on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::image_header::run(data));
