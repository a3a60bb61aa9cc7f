//! EMF/WMF → SVG on arbitrary bytes, under small caps so slow inputs show up as
//! budget errors rather than timeouts. The output must stay a single SVG element with
//! no reference outside itself.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::metafile::run(data));
