//! The lexical check of a request's relativePath: never panics, and anything it accepts is
//! relative, free of `..`, and normalised.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &str| previewd_fuzz::relative_path::run(data));
