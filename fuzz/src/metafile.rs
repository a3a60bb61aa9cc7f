//! EMF/WMF → SVG on arbitrary bytes, under small caps so slow inputs show up as
//! budget errors rather than timeouts. The output must stay a single SVG element with
//! no reference outside itself.

use previewd::office::metafile::{to_svg, MetafileLimits};

/// One input.
pub fn run(data: &[u8]) {
    let limits = MetafileLimits {
        max_records: 20_000,
        work_budget: 200_000,
        max_bitmap_pixels: 1_000_000,
        max_output_bytes: 4 * 1024 * 1024,
        ..MetafileLimits::default()
    };
    // Both players on every input: the EMF signature, then a WMF placeable key.
    let mut emf = data.to_vec();
    if emf.len() >= 44 {
        emf[0..4].copy_from_slice(&1u32.to_le_bytes());
        emf[40..44].copy_from_slice(b" EMF");
    }
    for bytes in [data, &emf[..]] {
        if let Ok(svg) = to_svg(bytes, &limits) {
            assert!(svg
                .text
                .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            assert!(svg.text.ends_with("</svg>"));
            assert_eq!(svg.text.matches("<svg").count(), 1);
            // Text is escaped, so `href="` only starts the attributes previewd wrote.
            for (i, _) in svg.text.match_indices("href=\"") {
                assert!(svg.text[i + 6..].starts_with("data:image/"));
            }
            assert!(svg.text.len() <= limits.max_output_bytes + 512);
        }
    }
}
