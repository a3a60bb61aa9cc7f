//! The `diffs` tool contract on arbitrary request bodies, then the model and the viewer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::diff_request::run(data));
