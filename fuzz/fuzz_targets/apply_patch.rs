//! The agent `apply_patch` grammar: never panics; errors name a line inside the input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &str| previewd_fuzz::apply_patch::run(data));
