//! The chart engine on arbitrary bytes: read them as a chart part on its own and draw it
//! at a few sizes, tiny and huge included. Nothing may panic, and the SVG must be one
//! balanced element whose numbers are all finite.

use previewd::office::chart::{parse_chart_part, render_svg, SvgOptions};

/// One input.
pub fn run(data: &[u8]) {
    let Some(chart) = parse_chart_part(data) else {
        return;
    };
    for (w, h) in [(480.0, 300.0), (10.0, 10.0), (1e7, 1e-3)] {
        for draw_empty in [false, true] {
            let opts = SvgOptions {
                draw_empty,
                ..SvgOptions::default()
            };
            let Some(svg) = render_svg(&chart, w, h, &opts) else {
                continue;
            };
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
            assert_eq!(svg.matches("<svg").count(), svg.matches("</svg>").count());
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        }
    }
}
