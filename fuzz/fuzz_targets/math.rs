//! The Office Math (OMML) reader and MathML writer on arbitrary XML.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::math::run(data));
