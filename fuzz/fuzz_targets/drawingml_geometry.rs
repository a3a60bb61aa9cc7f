//! Custom geometry on arbitrary bytes: parse them as XML, read the root as an
//! `a:custGeom` with the document limits, evaluate it at a few sizes (with the first
//! guide overridden as an adjust value) and draw it as SVG path data. Nothing may panic,
//! and every number written must be finite.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| previewd_fuzz::drawingml_geometry::run(data));
