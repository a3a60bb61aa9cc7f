//! Image header inspection (raster magic numbers, SVG root element) on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = previewd::preview::image::inspect(data, "x.svg");
    let _ = previewd::preview::image::inspect(data, "x.png");
    let _ = previewd::office::image::sniff_image(data);
});
