//! The unified-patch parser (git, diff -u, hg, svn) on arbitrary text: never panics, and a
//! parsed model renders back to a patch that parses again.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &str| previewd_fuzz::unified_patch::run(data));
