//! The bodies of the fuzz targets, one module each, so the main crate's test suite builds
//! them too (`tests/fuzz_targets.rs` runs each on seed inputs): a target whose code no
//! longer compiles against previewd fails CI, not the next fuzzing session. Each file of
//! `fuzz_targets/` is the one-line libFuzzer entry point that calls its `run`.

pub mod apply_patch;
pub mod chart;
pub mod csv_sniff;
pub mod diff_request;
pub mod docx;
pub mod drawingml_geometry;
pub mod highlight;
pub mod image_header;
pub mod markdown;
pub mod math;
pub mod metafile;
pub mod mtx;
pub mod native_render;
pub mod office_package;
pub mod pdf_page;
pub mod pdf_parse;
pub mod pptx;
pub mod relative_path;
pub mod unified_patch;
pub mod xlsx;
