//! The Office container guard on arbitrary bytes: open, list, read every part as XML.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::office_package::run(data));
