//! Image header inspection (raster magic numbers, SVG root element) on arbitrary bytes.

/// One input.
pub fn run(data: &[u8]) {
    let _ = previewd::preview::image::inspect(data, "x.svg");
    let _ = previewd::preview::image::inspect(data, "x.png");
    let _ = previewd::office::image::sniff_image(data);
}
