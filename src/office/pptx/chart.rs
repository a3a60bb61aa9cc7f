//! Charts on slides: the graphic frame's chart part goes through the shared chart engine
//! ([`crate::office::chart`]) and is drawn as SVG at the frame's size.

use crate::markup::escape_into;
use crate::office::chart::{accessible_label, render_svg, Chart, Measure, SvgOptions};

/// Writes a chart frame `w` × `h` points: the drawn chart, or a placeholder naming it
/// when there is nothing to draw (a missing part, no cached values, a type the engine
/// does not draw).
/// `measure` gives a text's width in em in the face the page draws the chart in.
pub(super) fn chart_html(
    out: &mut String,
    c: &Chart,
    (w, h): (f64, f64),
    font_family: &str,
    measure: Option<Measure<'_>>,
) {
    let label = accessible_label(c);
    out.push_str("<div class=\"pptx-chart\" role=\"img\" aria-label=\"");
    escape_into(out, &label);
    out.push_str("\">");
    // Unique in the page: the output's length so far.
    let id_prefix = format!("pptx-chart{}", out.len());
    let mut opts = SvgOptions {
        class: "pptx-chart-svg",
        id_prefix: &id_prefix,
        draw_empty: true,
        measure,
        ..SvgOptions::default()
    };
    if !font_family.is_empty() {
        opts.font_family = font_family;
    }
    match render_svg(c, w, h, &opts) {
        Some(svg) => out.push_str(&svg),
        None => {
            out.push_str("<div class=\"pptx-ph\"><strong>");
            escape_into(out, &label);
            out.push_str("</strong></div>");
        }
    }
    out.push_str("</div>");
}
